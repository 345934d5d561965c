// The content check (scripts/check-content.ts runs it before anything is
// built): every file of content/ against its schema
// (content/schema/*.schema.json, which the Go server reads too), then what a
// schema cannot say (an id used twice, a featured piece or a WhatsApp
// phone that does not exist (content-references.mjs), a missing picture,
// a {{placeholder}} that names no fact). It prints every
// problem at once, one line each, as "file: field: problem", and exits 1.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020, type ErrorObject } from "ajv/dist/2020.js";
import { MAIN_MENU } from "../app/lib/chat/compile";
import { contentFacts, fillFacts, type Facts } from "../app/lib/facts";
import { ALL, LIST_WORDS, slugOf, vocabularyOf } from "../app/lib/filters";
import type { CatalogueFile } from "../app/lib/catalogue";
import { pagePaths } from "../app/lib/paths";
import { kindOfPattern, pathProblem } from "./content-paths.mjs";
import { referenceProblems } from "./content-references.mjs";
import { checkCatalogue } from "./images.mjs";
import { parseFrontMatter } from "../app/lib/markdown.server";

// The JSON files of content/, each with its schema.
export const JSON_FILES = ["site", "service", "catalogue", "pages", "chat", "replies"] as const;
type Name = (typeof JSON_FILES)[number];
type Json = Record<string, unknown> & Record<string, never[] | undefined>;

export function checkContent(contentDir: string, publicDir: string): string[] {
  const problems: string[] = [];
  const ajv = new Ajv2020({ allErrors: true, verbose: true });
  const data: Partial<Record<Name, Json>> = {};
  for (const name of JSON_FILES) {
    const file = `content/${name}.json`;
    const path = join(contentDir, `${name}.json`);
    if (!existsSync(path)) {
      problems.push(`${file}: the file is missing`);
      continue;
    }
    const text = readFileSync(path, "utf8");
    let value: Json;
    try {
      value = JSON.parse(text);
    } catch (err) {
      problems.push(`${file}: ${jsonProblem(text, (err as Error).message)}`);
      continue;
    }
    const validate = ajv.compile(JSON.parse(readFileSync(join(contentDir, "schema", `${name}.schema.json`), "utf8")));
    if (validate(value)) data[name] = value;
    else problems.push(...new Set((validate.errors ?? []).map((e) => `${file}: ${schemaProblem(name, value, e)}`)));
    // The catalogue's own rules too, so that one build lists everything;
    // a field the schema already faulted is not reported twice.
    if (name === "catalogue" && !data.catalogue) {
      const faulted = new Set(problems.map(fieldOf));
      try {
        problems.push(...checkCatalogue(value, join(contentDir, "images")).filter((p: string) => !faulted.has(fieldOf(p))));
      } catch {
        // a shape too far off for the rules to read: the schema's lines say why
      }
    }
  }

  // What a schema cannot say, for each file that passed its own.
  const { site, service, catalogue, pages, chat } = data;
  if (site) {
    problems.push(...referenceProblems("site.json", site).map((p) => `content/site.json: ${p}`));
    problems.push(...addressAgrees(site as unknown as { city: string; region: string; address: { locality: string; region: string } }));
    problems.push(...phonesAgree(site as unknown as { phones: { display: string; tel: string }[] }));
  }
  if (catalogue) problems.push(...checkCatalogue(catalogue, join(contentDir, "images")), ...listAddresses(catalogue), ...synonymProblems(catalogue));
  if (pages) problems.push(...pageImages(pages, contentDir, publicDir));
  if (pages && catalogue) problems.push(...pageLinks(pages, new Set(pagePaths(catalogue as never))));
  if (chat) problems.push(...chatLinks(chat));

  // Placeholders, once the facts they are filled from are right.
  if (site && service && !problems.some((p) => p.startsWith("content/site.json"))) {
    const facts = contentFacts(site as never, service as never);
    if (chat) problems.push(...chatPlaceholders(chat, facts));
    if (pages) problems.push(...textsOf(pages, "content/pages.json: ").flatMap(([where, text]) => placeholderProblems(text, facts, where)));
    for (const dir of ["pages", "policies"]) {
      for (const name of readdirSync(join(contentDir, dir)).filter((f) => f.endsWith(".md"))) {
        const file = `content/${dir}/${name}`;
        const source = readFileSync(join(contentDir, dir, name), "utf8");
        problems.push(...placeholderProblems(source, facts, file));
        if (dir === "policies") problems.push(...frontMatterProblems(source, file));
      }
    }
  }
  return problems;
}

// "content/catalogue.json: product 1 (Chair): images[0].alt" of a problem's line.
const fieldOf = (line: string) => line.split(": ").slice(0, 3).join(": ");

// "Expected ',' or '}' after property value in JSON at position 412" as a
// line and column, with what usually causes it.
export function jsonProblem(text: string, message: string): string {
  const position = /at position (\d+)/.exec(message);
  const reason = message.replace(/ in JSON at position \d+.*$/, "").replace(/^JSON\.parse: /, "");
  const hint =
    /Expected ',' or/.test(message) ? " Is a comma missing at the end of the line before?"
    : /Expected double-quoted property name/.test(message) ? " Is there a comma too many before it, or a name without quotes?"
    : /Unexpected end/.test(message) ? " The file ends too early: is a } or ] missing?"
    : /Bad control character|Unterminated string/.test(message) ? " Is a closing quote missing?"
    : "";
  if (!position) return `not valid JSON (${reason}).${hint}`;
  const before = text.slice(0, Number(position[1]));
  const line = before.split("\n").length;
  const column = before.length - before.lastIndexOf("\n");
  return `line ${line}, column ${column}: not valid JSON (${reason}).${hint}`;
}

const TYPES: Record<string, string> = {
  string: "text in quotes",
  integer: "a whole number (no quotes)",
  number: "a number (no quotes)",
  boolean: "true or false",
  array: "a list in [ ]",
  object: "a group in { }",
};

// One schema error in words: where it is (a product by its id and name, a
// chat option by its id) and what is wrong.
export function schemaProblem(name: Name, value: Json, e: ErrorObject): string {
  const segments = e.instancePath.split("/").slice(1).map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
  const parts: string[] = [];
  let node: unknown = value;
  for (const [i, s] of segments.entries()) {
    const next = (node as Record<string, unknown>)?.[s];
    const item = next as { id?: unknown; name?: unknown } | undefined;
    if (/^\d+$/.test(s) && i === 1 && name === "catalogue" && segments[0] === "products") {
      parts.splice(-1, 1, `product ${typeof item?.id === "number" ? item.id : `#${Number(s) + 1}`} (${typeof item?.name === "string" ? item.name : "no name"})`);
      parts.push("");
    } else if (/^\d+$/.test(s) && i === 1 && name === "chat" && typeof item?.id === "string") {
      parts.splice(-1, 1, `${segments[0]} "${item.id}"`);
      parts.push("");
    } else if (/^\d+$/.test(s)) {
      parts[parts.length - 1] += `[${s}]`;
    } else {
      parts.push(s);
    }
    node = next;
  }
  const p = e.params as Record<string, unknown>;
  let problem: string;
  switch (e.keyword) {
    case "required":
      parts.push(String(p.missingProperty));
      problem = "is missing";
      break;
    case "additionalProperties":
    case "unevaluatedProperties": {
      parts.push(String(p.additionalProperty ?? p.unevaluatedProperty));
      const known = Object.keys((e.parentSchema as { properties?: object }).properties ?? {});
      problem = `is not a field here (a typo?${e.keyword === "additionalProperties" && known.length ? ` the fields are ${known.join(", ")}` : ""})`;
      break;
    }
    case "type":
      problem = `should be ${TYPES[String(p.type)] ?? p.type}`;
      break;
    case "pattern": {
      // A path's field says why, in the words of the path rule (the server's too).
      const kind = kindOfPattern(p.pattern);
      problem =
        typeof e.data === "string" && !/\S/.test(e.data) ? "is empty"
        : kind ? (pathProblem(kind, e.data) ?? `${JSON.stringify(e.data)} is not in the right form`)
        : `${JSON.stringify(e.data)} is not ${(e.parentSchema as { description?: string }).description ?? "in the right form"}`;
      break;
    }
    case "minItems":
      problem = Number(p.limit) === 1 ? "add at least one" : `add at least ${p.limit}`;
      break;
    case "minProperties":
      problem = "add at least one";
      break;
    case "maxLength":
      problem = `is ${[...String(e.data)].length} characters long: it may have at most ${p.limit}, so shorten it`;
      break;
    case "minimum":
      problem = `should be ${p.limit} or more`;
      break;
    case "maximum":
      problem = `should be ${p.limit} or less`;
      break;
    case "uniqueItems":
      problem = `lists ${JSON.stringify((e.data as unknown[])[Number(p.j)])} twice`;
      break;
    default:
      problem = e.message ?? e.keyword;
  }
  const field = parts.filter(Boolean).join(".").replace(/\)\./, "): ");
  return field ? `${field}: ${problem}` : problem;
}

// A search word is listed once: two entries for one word would say two
// things of it.
function synonymProblems(catalogue: Json): string[] {
  const seen = new Set<string>();
  const problems: string[] = [];
  (catalogue as unknown as CatalogueFile).synonyms?.forEach(({ word }, i) => {
    const normal = word.trim().toLowerCase();
    if (seen.has(normal)) problems.push(`content/catalogue.json: synonyms[${i}].word: "${word}" is listed twice; keep one and put all its words there`);
    seen.add(normal);
  });
  return problems;
}

// The city and region are written twice in site.json: on their own (for
// sentences) and in the postal address. The two must agree.
// Each tab of the products page has its own address, /products/{name in
// lower case, words joined by -}, and so has each material and finish
// option (/products/material/{name}): two tabs (or two options of one
// filter) may not share one, and a name must leave one (the words
// material, finish and page are the list's own).
function listAddresses(catalogue: Json): string[] {
  const file = "content/catalogue.json";
  const problems: string[] = [];
  const check = (field: string, [what, whats]: [string, string], names: string[], prefix: string) => {
    const byAddress = new Map<string, string>();
    for (const name of names) {
      const slug = slugOf(name);
      const other = byAddress.get(slug);
      if (name === ALL || slug === "" || (prefix === "" && (LIST_WORDS as readonly string[]).includes(slug))) {
        problems.push(`${file}: ${field}: the ${what} "${name}" needs another name (its address would be /products/${prefix}${slug})`);
      } else if (other) problems.push(`${file}: ${field}: the ${whats} "${other}" and "${name}" would share the address /products/${prefix}${slug}; rename one`);
      byAddress.set(slug, name);
    }
  };
  const v = vocabularyOf(catalogue as never);
  check("categories", ["tab", "tabs"], v.tabs.map((t) => t.name), "");
  check("filters.material", ["material", "materials"], v.materials.map((o) => o.name), "material/");
  check("filters.finish", ["finish", "finishes"], v.finishes.map((o) => o.name), "finish/");
  return problems;
}

function addressAgrees(site: { city: string; region: string; address: { locality: string; region: string } }): string[] {
  const problems: string[] = [];
  const file = "content/site.json";
  if (site.address.locality !== site.city) problems.push(`${file}: address.locality: "${site.address.locality}" is not the city "${site.city}"; change both together`);
  if (site.address.region !== site.region) problems.push(`${file}: address.region: "${site.address.region}" is not the region "${site.region}"; change both together`);
  return problems;
}

// Each phone's number for links dials the number shown: a number changed
// in one field and not the other would have visitors call the old one.
// A number shown without its country code ("0291 262 4410") is the end
// of the number for links, without its leading zeros.
function phonesAgree(site: { phones: { display: string; tel: string }[] }): string[] {
  return site.phones.flatMap(({ display, tel }, i) => {
    const shown = display.replace(/\D/g, "");
    const agrees = display.trim().startsWith("+") ? `+${shown}` === tel : tel.endsWith(shown.replace(/^0+/, ""));
    return agrees ? [] : [`content/site.json: phones[${i}].tel: "${tel}" is not the number shown, "${display}"; change both together`];
  });
}

// Every {{placeholder}} of a text, each filled on its own so that all the
// wrong ones are reported, by the function that fills them on the site.
function placeholderProblems(text: string, facts: Facts, where: string): string[] {
  const problems: string[] = [];
  for (const [placeholder] of text.matchAll(/\{\{\s*[\w.]+\s*\}\}/g)) {
    try {
      fillFacts(placeholder, facts, where);
    } catch (err) {
      problems.push((err as Error).message);
    }
  }
  return problems;
}

type Chat = { messages: Record<string, string>; topics: { id: string; title: string; options: string[] }[]; options: { id: string; question: string; answer: string; followUp: string[] }[] };

function chatLinks(json: Json): string[] {
  const chat = json as unknown as Chat;
  const file = "content/chat.json";
  const problems: string[] = [];
  const ids = new Set<string>();
  for (const o of chat.options) {
    if (ids.has(o.id)) problems.push(`${file}: options "${o.id}": id: another option has this id`);
    ids.add(o.id);
  }
  if (!chat.topics.some((t) => t.id === MAIN_MENU)) problems.push(`${file}: topics: the "${MAIN_MENU}" topic (back to the main menu) is missing`);
  const listed = new Set(chat.topics.flatMap((t) => t.options));
  for (const t of chat.topics) {
    for (const id of t.options) if (!ids.has(id)) problems.push(`${file}: topics "${t.id}": options: "${id}" is not the id of any option`);
  }
  for (const o of chat.options) {
    for (const id of o.followUp) if (id !== MAIN_MENU && !ids.has(id)) problems.push(`${file}: options "${o.id}": followUp: "${id}" is not the id of any option`);
    if (!listed.has(o.id)) problems.push(`${file}: options "${o.id}": no topic lists it, so no one can ask it`);
  }
  return problems;
}

function chatPlaceholders(json: Json, facts: Facts): string[] {
  const chat = json as unknown as Chat;
  const file = "content/chat.json";
  return [
    ...Object.entries(chat.messages).flatMap(([key, text]) => placeholderProblems(text, facts, `${file}: messages.${key}`)),
    ...chat.topics.flatMap((t) => placeholderProblems(t.title, facts, `${file}: topics "${t.id}": title`)),
    ...chat.options.flatMap((o) => [
      ...placeholderProblems(o.question, facts, `${file}: options "${o.id}": question`),
      ...placeholderProblems(o.answer, facts, `${file}: options "${o.id}": answer`),
    ]),
  ];
}

// Every text of a JSON value, with where it is ("content/pages.json: home.craft.text").
function textsOf(node: unknown, where: string): [string, string][] {
  if (typeof node === "string") return [[where, node]];
  if (Array.isArray(node)) return node.flatMap((n, i) => textsOf(n, `${where}[${i}]`));
  if (node && typeof node === "object") return Object.entries(node).flatMap(([k, v]) => textsOf(v, where.endsWith(": ") ? `${where}${k}` : `${where}.${k}`));
  return [];
}

// Each link pages.json gives (a "to": a link's { to, label }, a space's
// title on the home page) leads to a page of the site.
function pageLinks(pages: Json, paths: Set<string>): string[] {
  return textsOf(pages, "content/pages.json: ")
    .filter(([where, to]) => where.endsWith(".to") && !paths.has(to))
    .map(([where, to]) => `${where}: "${to}" is not a page of the site (as /products, /about or /product/3)`);
}

// The pictures pages.json names: the hero is an original in content/images/
// (made into right-sized files); the others are drawings in web/public/,
// or pictures of content/images/ uploaded in their place (relative paths).
// Each path is held to the path rule before it is looked for: a schema
// changed by a push does not loosen it.
function pageImages(pages: Json, contentDir: string, publicDir: string): string[] {
  const problems: string[] = [];
  const hero = (pages as unknown as { home: { hero: { src: string } } }).home.hero.src;
  const heroProblem = pathProblem("image", hero);
  if (heroProblem) problems.push(`content/pages.json: home.hero.src: ${heroProblem}`);
  else if (!existsSync(join(contentDir, "images", hero))) problems.push(`content/pages.json: home.hero.src: content/images/${hero} does not exist`);
  for (const [where, image] of textsOf(pages, "content/pages.json: ")) {
    if (!where.endsWith(".image")) continue;
    const problem = pathProblem("drawing", image);
    if (problem) problems.push(`${where}: ${problem}`);
    else if (!image.startsWith("/")) {
      if (!existsSync(join(contentDir, "images", image))) problems.push(`${where}: content/images/${image} does not exist`);
    } else if (!existsSync(join(publicDir, image))) problems.push(`${where}: web/public${image} does not exist`);
  }
  return problems;
}

function frontMatterProblems(source: string, file: string): string[] {
  const { meta } = parseFrontMatter(source);
  const problems: string[] = [];
  for (const key of ["title", "updated", "summary"]) {
    if (!meta[key]) problems.push(`${file}: ${key}: is missing from the lines between --- at the top`);
  }
  if (meta.updated && !meta.updatedText) problems.push(`${file}: updated: "${meta.updated}" is not a date written as YYYY-MM-DD, like 2026-11-20`);
  return problems;
}

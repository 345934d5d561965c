import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { Marked, type Token, type Tokens } from "marked";
import type { Plugin } from "vite";
import { warranty } from "../app/lib/facts";

// Long texts (policies, the studio story, the FAQ) are Markdown in content/.
// This build step turns each imported .md file into a module that exports
// ready HTML, so no Markdown parser ships to the browser. Facts are written
// once, in content/*.json, and filled in here: {{site.email}} reads
// content/site.json, {{service.delivery.attempts}} content/service.json, and
// {{contact.*}} offers a few ready-made links built from the site facts.

export type TocEntry = { depth: number; id: string; text: string };
export type Section = { id: string; title: string; html: string };
export type MarkdownDoc = {
  /** Front matter, with `updatedText` added when `updated` is an ISO date. */
  meta: Record<string, string>;
  html: string;
  /** The h2 and h3 headings, in order, with their anchors. */
  toc: TocEntry[];
  /** The document split at each h2: its title and the HTML under it. */
  sections: Section[];
};

type Facts = Record<string, unknown>;

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

// Every content/*.json file, by name, plus the ready-made contact links.
export function loadFacts(contentDir: string): Facts {
  const facts: Facts = {};
  for (const file of readdirSync(contentDir).filter((f) => f.endsWith(".json"))) {
    facts[file.slice(0, -".json".length)] = JSON.parse(readFileSync(join(contentDir, file), "utf8"));
  }
  const site = facts.site as {
    phones: { label: string; display: string; tel: string }[];
    email: string;
    address: { street: string; locality: string; region: string; postalCode: string };
    country: string;
    map: { linkUrl: string };
  };
  // Facts that follow from others (app/lib/facts.ts).
  const service = facts.service as { warranty: { years: number } };
  service.warranty = warranty(service.warranty.years);
  const phones = site.phones.map((p) => `[${p.display}](tel:${p.tel}) (${p.label})`);
  const address = `${site.address.street}, ${site.address.locality} ${site.address.postalCode}, ${site.address.region}, ${site.country}`;
  facts.contact = {
    phones: phones.length > 1 ? `${phones.slice(0, -1).join(", ")} or ${phones.at(-1)}` : phones.join(""),
    email: `[${site.email}](mailto:${site.email})`,
    address,
    addressLink: `[${address}](${site.map.linkUrl})`,
  };
  return facts;
}

// Replaces each {{path.to.fact}}; a path that names no text or number is a
// build error, so a typo can never reach a page as a template placeholder.
export function fillFacts(text: string, facts: Facts, where = "markdown"): string {
  return text.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (_, path: string) => {
    const value = path.split(".").reduce<unknown>((v, key) => (v as Record<string, unknown> | undefined)?.[key], facts);
    if (typeof value !== "string" && typeof value !== "number") {
      throw new Error(`${where}: {{${path}}} names no fact in content/*.json`);
    }
    return String(value);
  });
}

export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/<[^>]+>/g, "")
    .replace(/&[a-z]+;|&#\d+;/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

function parseFrontMatter(source: string): { meta: Record<string, string>; body: string } {
  const match = /^---\n([\s\S]*?)\n---\n/.exec(source);
  if (!match) return { meta: {}, body: source };
  const meta: Record<string, string> = {};
  for (const line of match[1]!.split("\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) meta[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  const updated = /^(\d{4})-(\d{2})-(\d{2})$/.exec(meta.updated ?? "");
  if (updated) meta.updatedText = `${Number(updated[3])} ${MONTHS[Number(updated[2]) - 1]} ${updated[1]}`;
  return { meta, body: source.slice(match[0].length) };
}

export function renderMarkdown(source: string, facts: Facts, where = "markdown"): MarkdownDoc {
  const { meta, body } = parseFrontMatter(source);
  for (const key of Object.keys(meta)) meta[key] = fillFacts(meta[key]!, facts, where);

  const toc: TocEntry[] = [];
  const used = new Set<string>();
  const marked = new Marked({ gfm: true });
  marked.use({
    renderer: {
      // Headings get a stable id from their text ("9.3 Conduct" → "9-3-conduct")
      // and, from h2 down, a link to themselves so a section can be shared.
      heading({ tokens, depth, text }: Tokens.Heading) {
        const inner = this.parser.parseInline(tokens);
        let id = slugify(text) || "section";
        for (let n = 2; used.has(id); n++) id = `${slugify(text)}-${n}`;
        used.add(id);
        if (depth < 2 || depth > 3) return `<h${depth} id="${id}">${inner}</h${depth}>\n`;
        toc.push({ depth, id, text: inner.replace(/<[^>]+>/g, "") });
        return `<h${depth} id="${id}"><a class="heading-anchor" href="#${id}">${inner}</a></h${depth}>\n`;
      },
    },
  });

  const tokens = marked.lexer(fillFacts(body, facts, where));
  const html = marked.parser(tokens);

  // The sections, rendered from the same tokens: heading apart, body apart
  // (by a plain renderer, so the table of contents is not counted twice).
  const plain = new Marked({ gfm: true });
  const sections: Section[] = [];
  let current: { heading: Tokens.Heading; body: Token[] } | null = null;
  const groups: { heading: Tokens.Heading; body: Token[] }[] = [];
  for (const token of tokens) {
    if (token.type === "heading" && (token as Tokens.Heading).depth === 2) {
      current = { heading: token as Tokens.Heading, body: [] };
      groups.push(current);
    } else if (current) {
      current.body.push(token);
    }
  }
  for (const [i, group] of groups.entries()) {
    const entry = toc.filter((t) => t.depth === 2)[i]!;
    sections.push({ id: entry.id, title: entry.text, html: plain.parser(group.body) });
  }
  return { meta, html, toc, sections };
}

// The Vite side: `import doc from "content/policies/x.md"` yields a MarkdownDoc.
export function markdown({ contentDir }: { contentDir: string }): Plugin {
  return {
    name: "studio-markdown",
    enforce: "pre",
    transform(source, id) {
      if (!id.endsWith(".md")) return null;
      const facts = loadFacts(contentDir);
      for (const file of readdirSync(contentDir).filter((f) => f.endsWith(".json"))) this.addWatchFile(join(contentDir, file));
      const doc = renderMarkdown(source, facts, id);
      return { code: `export default ${JSON.stringify(doc)};`, map: null };
    },
  };
}

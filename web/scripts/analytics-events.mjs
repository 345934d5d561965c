// The types of track() (web/app/lib/analytics.ts) from the one list of
// analytics events, contracts/analytics-events.json, which the server embeds:
// writes web/.generated/analytics-events.d.ts, types only (nothing of it
// reaches the browser). Run by `npm run typecheck` before tsc, so the types
// are never older than the list. The server checks the list itself
// (internal/analytics); this refuses only what it cannot turn into a type.
// node scripts/analytics-events.mjs
import { mkdir, readFile, writeFile } from "node:fs/promises";

const source = new URL("../../contracts/analytics-events.json", import.meta.url);
const target = new URL("../.generated/analytics-events.d.ts", import.meta.url);
const list = JSON.parse(await readFile(source, "utf8"));

// An undefined text in a list goes as null (JSON.stringify): the quote
// dialog's [material, finish] before either is known.
const TYPES = { text: "string", number: "number", boolean: "boolean", texts: "readonly (string | undefined)[]", items: "readonly AnalyticsItem[]" };
const fail = (message) => {
  console.error(`contracts/analytics-events.json: ${message}`);
  process.exit(1);
};
const quote = (s) => JSON.stringify(s);
const typeOf = (where, spec) => {
  if (Array.isArray(spec) && spec.length > 0 && spec.every((v) => typeof v === "string")) return spec.map(quote).join(" | ");
  if (typeof spec !== "string") fail(`${where}: a type name or a list of texts, not ${JSON.stringify(spec)}`);
  return spec
    .split("|")
    .map((t) => TYPES[t] ?? fail(`${where}: no type ${quote(t)} (${Object.keys(TYPES).join(", ")})`))
    .join(" | ");
};
const fields = (where, params) =>
  Object.entries(params)
    .map(([name, spec]) => `${quote(name)}?: ${typeOf(`${where}.${name}`, spec)};`)
    .join(" ");
const literal = (value) =>
  typeof value === "object" && value !== null
    ? `{ ${Object.entries(value)
        .filter(([key]) => !key.startsWith("_"))
        .map(([key, v]) => `${quote(key)}: ${literal(v)}`)
        .join("; ")} }`
    : quote(value);

const lines = [
  "// Made by web/scripts/analytics-events.mjs from contracts/analytics-events.json: edit that list, not this file.",
  "",
  "/** One of GA4's items (the list's \"item\"). */",
  `export type AnalyticsItem = { ${fields("item", list.item)} };`,
  "",
  "/** Each event the site sends, with its parameters. */",
  "export type AnalyticsEvents = {",
  ...list.events.map((e) => `  /** ${e.about.replaceAll("*/", "* /")} */\n  ${quote(e.name)}: { ${fields(e.name, e.params ?? {})} };`),
  "};",
  "",
  "/** The limits of POST /api/events, as literal types: a constant of the page typed with one must be the list's value. */",
  `export type AnalyticsLimits = ${literal(list.limits)};`,
  "",
];
await mkdir(new URL(".", target), { recursive: true });
await writeFile(target, lines.join("\n"));

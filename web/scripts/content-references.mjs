// The fields of content/ that name another part of their file (the
// catalogue's featured pieces by a product's id, the phone that answers
// WhatsApp by its label), as the build checks them: each must name one
// that is there. The rule is contracts/content-references.json, which the
// server applies too; contracts/cases/content-references.json holds the
// cases both judge alike (content-references.test.ts).
import { readFileSync } from "node:fs";

const { references } = JSON.parse(readFileSync(new URL("../../contracts/content-references.json", import.meta.url), "utf8"));

/** The value at the JSON pointer in doc, or undefined when there is none. */
function at(doc, pointer) {
  let value = doc;
  for (const raw of pointer.split("/").slice(1)) {
    const token = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (value === null || typeof value !== "object" || !Object.hasOwn(value, token)) return undefined;
    value = value[token];
  }
  return value;
}

// Values are compared exactly, as JSON: 9 is not "9".
const jsonText = (value) => JSON.stringify(value);
// A text as it is in a problem, anything else as JSON.
const valueText = (value) => (typeof value === "string" ? value : jsonText(value));

/**
 * The problems of the content file named file ("site.json"), whose value
 * is doc: for each value of a reference's field that names none of its
 * list's entries, the reference's problem (without the file's name).
 * @param {string} file
 * @param {unknown} doc
 * @returns {string[]}
 */
export function referenceProblems(file, doc) {
  const problems = [];
  for (const r of references) {
    if (r.file !== file) continue;
    const named = at(doc, r.at);
    if (named === undefined) continue; // a field that is not there names nothing
    const entries = at(doc, r.names);
    const keys = (Array.isArray(entries) ? entries : []).filter((e) => e !== null && typeof e === "object" && Object.hasOwn(e, r.key)).map((e) => e[r.key]);
    const known = new Set(keys.map(jsonText));
    for (const value of Array.isArray(named) ? named : [named]) {
      if (!known.has(jsonText(value))) problems.push(r.problem.replaceAll("{value}", valueText(value)).replaceAll("{keys}", keys.map(valueText).join(", ")));
    }
  }
  return problems;
}

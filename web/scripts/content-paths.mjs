// The one rule for every path the content names (a product's photographs,
// the home page's hero, the pages' drawings), as the build applies it: the
// content check (content-rules.ts) and the image pipeline (images.mjs).
// The rule is contracts/content-paths.json, which the server applies too;
// contracts/cases/content-paths.json holds the cases both judge alike
// (content-paths.test.ts).
import { readFileSync, realpathSync } from "node:fs";
import { resolve, sep } from "node:path";

const rules = JSON.parse(readFileSync(new URL("../../contracts/content-paths.json", import.meta.url), "utf8"));
const kinds = Object.fromEntries(Object.entries(rules.kinds).map(([name, k]) => [name, { ...k, pattern: new RegExp(k.pattern, "u") }]));
const refusals = rules.refusals.map((r) => ({ ...r, match: new RegExp(r.match, "u") }));

/**
 * What is wrong with path as a path of kind ("image": a file of
 * content/images/, as "products/chair.jpg"; "drawing": a file of
 * web/public/images/, as "/images/craft.svg", or a picture of
 * content/images/ in its place, never an SVG), with the key of the reason;
 * null when nothing is. The problem quotes the path (a control character
 * as an escape: one line) then says why.
 * @param {"image" | "drawing"} kind
 * @param {unknown} path
 * @returns {{ key: string, problem: string } | null}
 */
export function judgePath(kind, path) {
  const k = kinds[kind];
  if (!k) throw new Error(`content-paths: no kind ${kind}`);
  const say = (key, message) => ({
    key,
    problem: `${JSON.stringify(path)} ${message.replaceAll("{folder}", k.folder).replaceAll("{like}", k.like).replaceAll("{what}", k.what)}`,
  });
  if (typeof path !== "string") return say("notKind", rules.notKind);
  if (k.otherwise && !path.startsWith("/")) {
    // A drawing that is a picture of the content's own: judged as one first.
    const judged = judgePath(k.otherwise, path);
    if (judged) return judged;
  } else if (path.startsWith(k.prefix)) {
    const rest = path.slice(k.prefix.length);
    for (const r of refusals) if (r.match.test(rest)) return say(r.key, r.message);
  }
  if (!k.pattern.test(path)) return say("notKind", rules.notKind);
  return null;
}

/** judgePath's problem alone, or null. */
export const pathProblem = (kind, path) => judgePath(kind, path)?.problem ?? null;

/** The kind whose pattern is pattern (a schema's, or one it had in an earlier schema: "former"), or null. */
export const kindOfPattern = (pattern) =>
  Object.keys(kinds).find((name) => rules.kinds[name].pattern === pattern || (rules.kinds[name].former ?? []).includes(pattern)) ?? null;

/**
 * Whether path lies inside folder, both resolved: a ".." or an absolute
 * path is seen for what it is; with real, symbolic links are followed too,
 * as a read would (a path that cannot be followed lies nowhere: false).
 * @param {string} folder
 * @param {string} path
 * @param {{ real?: boolean }} [options]
 */
export function liesInside(folder, path, { real = false } = {}) {
  try {
    const root = real ? realpathSync(folder) : resolve(folder);
    return (real ? realpathSync(path) : resolve(path)).startsWith(root + sep);
  } catch {
    return false;
  }
}

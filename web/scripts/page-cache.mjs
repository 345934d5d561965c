// The page cache (.page-cache): each rendered file of a page (its HTML,
// its .data) with its compressed copies, by a name made from what made
// it, and a sidecar (<name>.sha256) with the SHA-256 of each. A cached
// page is shared, by hard link, with every release that has it, so its
// files are read-only, and used again only when they still have the
// SHA-256 its sidecar lists: one written into through a release is
// rendered again, never linked into another.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { removeFile, stampOf } from "./files.mjs";

export const SUMS = ".sha256";
export const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");
// The SPA fallback's row among the paths (render-site.mjs, its index).
export const FALLBACK = "__spa-fallback.html";

// Deletes the files of a cached page (the releases linking them keep them).
export function discard(pageCache, name) {
  for (const ext of ["", ".gz", ".br", SUMS]) removeFile(join(pageCache, `${name}${ext}`));
}

// The sums of a cached page whose files all have the SHA-256 its sidecar
// lists, with their stamps ({sums, stamps}); null when it is not cached,
// or (said to warn, and discarded) when it fails the check. A file whose
// stamp is the one known (stamps an index kept) is not read again.
export function intactSums(pageCache, name, warn, known = {}) {
  let text;
  try {
    text = readFileSync(join(pageCache, `${name}${SUMS}`), "utf8");
  } catch (err) {
    if (err.code === "ENOENT") return null;
    throw err;
  }
  const stamps = {};
  const problem = problemOf(pageCache, name, text, known, stamps);
  if (!problem) return { sums: JSON.parse(text), stamps };
  warn(problem);
  discard(pageCache, name);
  return null;
}

// What is wrong with the cached page name whose sidecar says text, if
// anything; stamps gets the stamp of each file found intact.
function problemOf(pageCache, name, text, known, stamps) {
  let sums;
  try {
    sums = JSON.parse(text);
  } catch {
    sums = null;
  }
  if (typeof sums?.[""] !== "string" || Object.keys(sums).some((ext) => !["", ".gz", ".br"].includes(ext))) return `${name}${SUMS} is not whole`;
  for (const [ext, sum] of Object.entries(sums)) {
    const file = join(pageCache, `${name}${ext}`);
    try {
      stamps[ext] = stampOf(file);
      if (known[ext] === stamps[ext]) continue;
      if (sha256(readFileSync(file)) !== sum) return `${name}${ext} has not the SHA-256 its sidecar lists`;
    } catch (err) {
      if (err.code === "ENOENT") return `${name}${ext} is missing`;
      throw err;
    }
  }
  return null;
}

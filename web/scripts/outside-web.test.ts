import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// A release is built in a checkout that holds web/, the content and
// contracts/ beside it, nothing else (internal/publish's builder), so the
// app and the build scripts may read outside web/ only from those two: an
// import of internal/ would pass `make build` and fail every publish.
const web = fileURLToPath(new URL("..", import.meta.url));
const BESIDE_WEB = ["contracts", "content"];

// Where a file's relative import, dynamic import or new URL(…) leads.
const REFERENCE = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\bnew URL\(\s*)["'`](\.{1,2}\/[^"'`]*)["'`]/g;

/** The folders beside web/ that source (a file at path) reaches into. */
function reachedBesideWeb(path: string, source: string): string[] {
  const reached: string[] = [];
  for (const [, spec] of source.matchAll(REFERENCE)) {
    const target = relative(web, resolve(dirname(path), spec!));
    if (target.startsWith("..")) reached.push(target.split(/[\\/]/)[1] ?? "");
  }
  return reached;
}

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (/\.(ts|tsx|mjs|js)$/.test(entry.name)) yield path;
  }
}

describe("what the app and the build scripts read outside web/", () => {
  it("tells a contract from the server's code", () => {
    const file = join(web, "app", "lib", "x.ts");
    const up = "../../../"; // from app/lib/ to web/'s folder (not written out, or this file would reach there)
    expect(reachedBesideWeb(file, `import rules from "${up}contracts/enquiry-rules.json";`)).toEqual(["contracts"]);
    expect(reachedBesideWeb(file, `readFileSync(new URL("${up}internal/enquiry/x.json", import.meta.url))`)).toEqual(["internal"]);
    expect(reachedBesideWeb(file, `import { a } from "./site";`)).toEqual([]);
  });

  it.each(["app", "scripts"])("%s/ reads only contracts/ and the content", (folder) => {
    const wrong: string[] = [];
    for (const path of sources(join(web, folder))) {
      for (const reached of reachedBesideWeb(path, readFileSync(path, "utf8"))) {
        if (!BESIDE_WEB.includes(reached)) wrong.push(`${relative(web, path)} reads ../${reached}/`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

// `node scripts/run-ts.mjs FILE.ts`: runs a build script written in
// TypeScript (it shares the site's code: the content rules, the page
// paths), bundled by esbuild in a tenth of a second. Packages stay
// imports, so the bundle is written inside web/ (node_modules/.cache),
// where Node finds them; import.meta.url is FILE's own, so the script
// finds its files as it would if run as it is. vite-node took two
// seconds to start, every build.
import { rmSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";

const web = new URL("..", import.meta.url).pathname;

// The module FILE exports, compiled and imported.
export async function importTs(file) {
  const { outputFiles } = await build({
    entryPoints: [resolve(file)],
    bundle: true,
    packages: "external",
    write: false,
    format: "esm",
    platform: "node",
    sourcemap: "inline",
    logLevel: "silent",
    define: { "import.meta.url": JSON.stringify(pathToFileURL(resolve(file)).href) },
  });
  const dir = join(web, "node_modules", ".cache", "run-ts");
  await mkdir(dir, { recursive: true });
  // One file a process: two builds at once (tests) never share one.
  const out = join(dir, `${basename(file, ".ts")}-${process.pid}-${Date.now()}.mjs`);
  await writeFile(out, outputFiles[0].text);
  // Deleted when imported, or when the script ends the process first (a
  // failed check exits with 1).
  const remove = () => rmSync(out, { force: true });
  process.once("exit", remove);
  try {
    return await import(pathToFileURL(out).href);
  } finally {
    remove();
    process.off("exit", remove);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (!process.argv[2]) {
    console.error("usage: node scripts/run-ts.mjs FILE.ts");
    process.exit(2);
  }
  await importTs(process.argv[2]);
}

// Writes .gz and .br beside every text file of the client build, once, at
// build time, so the server never compresses per request. A compressed
// file that is not smaller than the original is not written.
import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join, extname } from "node:path";
import { brotliCompressSync, gzipSync, constants } from "node:zlib";

const root = new URL("../build/client/", import.meta.url).pathname;
const compressible = new Set([".html", ".js", ".css", ".svg", ".json", ".txt", ".xml", ".webmanifest", ".map", ".data"]);

async function* walk(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else yield path;
  }
}

// React Router leaves the prerender step's own stylesheet in the client
// assets; no page links it, so it is not shipped.
for (const name of await readdir(join(root, "assets"))) {
  if (/^server-build-.*\.css$/.test(name)) await rm(join(root, "assets", name));
}

let count = 0;
for await (const path of walk(root)) {
  if (!compressible.has(extname(path))) continue;
  const body = await readFile(path);
  const gz = gzipSync(body, { level: 9 });
  const br = brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
  if (gz.length < body.length) await writeFile(`${path}.gz`, gz);
  if (br.length < body.length) await writeFile(`${path}.br`, br);
  count++;
}
console.log(`compress: ${count} files precompressed in build/client`);

// Finishes the client build: adds the image pipeline's files
// (scripts/images.mjs), then writes .gz and .br beside every text file,
// once, at build time, so the server never compresses per request. A
// compressed file that is not smaller than the original is not written.
import { createHash } from "node:crypto";
import { cp, mkdir, readdir, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { join, extname } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, gzip, constants } from "node:zlib";

const root = new URL("../build/client/", import.meta.url).pathname;
const generated = new URL("../.generated/public/", import.meta.url).pathname;
// Compressed bodies by the SHA-256 of what they compress, kept between
// builds: a release that changes one text recompresses its pages only,
// not the scripts, styles and drawings that stayed the same.
const cacheDir = new URL("../.compress-cache/", import.meta.url).pathname;
const CACHE_DAYS = 7; // entries no build used for this long are deleted
const compressible = new Set([".html", ".js", ".css", ".svg", ".json", ".txt", ".xml", ".webmanifest", ".map", ".data"]);

async function* walk(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else yield path;
  }
}

await cp(generated, root, { recursive: true });

// React Router leaves the prerender step's own stylesheet in the client
// assets; no page links it, so it is not shipped.
for (const name of await readdir(join(root, "assets"))) {
  if (/^server-build-.*\.css$/.test(name)) await rm(join(root, "assets", name));
}

// The prerendered pages list every script of the page as a modulepreload
// link. Fetched from the first bytes, the scripts compete with the
// stylesheets and the largest image and delay the first paint; left out,
// they arrive in a chain of round trips (the page's module imports the
// route, which imports React, which then loads the client entry) and the
// page answers clicks late. So the links are added by a small script just
// after the first frame is painted: the paint comes first, then every
// script loads at once (make interactive, slow 4G and CPU 4×: first paint
// unchanged, interactive 2.5 s → 1.9 s; make lighthouse stays at 100).
// React hoists <link> elements and inserts missing ones after hydration,
// so their absence from the HTML is no hydration mismatch; the server's
// CSP allows the script by its hash, as it does React Router's own.
function preloadModulesAfterFirstPaint(html) {
  const hrefs = [...html.matchAll(/<link rel="modulepreload" href="([^"]+)"\/>/g)].map((m) => m[1]);
  if (hrefs.length === 0) return html;
  const script = `<script>requestAnimationFrame(()=>setTimeout(()=>{for(const h of ${JSON.stringify(hrefs)}){const l=document.createElement("link");l.rel="modulepreload";l.href=h;document.head.append(l)}}))</script>`;
  return html.replace(/<link rel="modulepreload"[^>]*>/g, "").replace("</body>", `${script}</body>`);
}

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

// body compressed by kind ("gz" or "br"), from the cache when a build made it before.
async function compressed(body, hash, kind) {
  const file = join(cacheDir, `${hash}.${kind}`);
  try {
    const cached = await readFile(file);
    const now = new Date();
    await utimes(file, now, now);
    return cached;
  } catch {
    const out =
      kind === "gz"
        ? await gzipAsync(body, { level: 9 })
        : await brotliAsync(body, {
            params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
          });
    await writeFile(file, out);
    return out;
  }
}

async function compressFile(path) {
  let body = await readFile(path);
  if (path.endsWith(".html")) {
    body = Buffer.from(preloadModulesAfterFirstPaint(body.toString("utf8")));
    await writeFile(path, body);
  }
  const hash = createHash("sha256").update(body).digest("hex");
  // zlib's asynchronous calls run on its thread pool: every core compresses.
  const [gz, br] = await Promise.all([compressed(body, hash, "gz"), compressed(body, hash, "br")]);
  if (gz.length < body.length) await writeFile(`${path}.gz`, gz);
  if (br.length < body.length) await writeFile(`${path}.br`, br);
}

await mkdir(cacheDir, { recursive: true });
const paths = [];
for await (const path of walk(root)) if (compressible.has(extname(path))) paths.push(path);
// One file a core at a time: brotli at quality 11 holds tens of MB a
// stream, so all of a large site's files at once took 9.7 GB.
let next = 0;
await Promise.all(
  Array.from({ length: availableParallelism() }, async () => {
    while (next < paths.length) await compressFile(paths[next++]);
  }),
);
const stale = Date.now() - CACHE_DAYS * 24 * 3600 * 1000;
for (const name of await readdir(cacheDir)) {
  if ((await stat(join(cacheDir, name))).mtimeMs < stale) await rm(join(cacheDir, name), { force: true });
}
console.log(`compress: ${paths.length} files precompressed in build/client`);

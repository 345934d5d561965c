// Finishes the client build: adds the image pipeline's files
// (scripts/images.mjs), then writes .gz and .br beside every text file
// the prerender has not compressed already (scripts/compression.mjs), nor
// the bundling (`npm run bundle` ends with `compress.mjs --bundle`: the
// code's files, kept with the bundles), once, at build time, so the server
// never compresses per request. A compressed
// file that is not smaller than the original is not written.
import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { basename, extname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { brotliDecompress, gunzip } from "node:zlib";
import { DAY, linkFile, pruneDaily, writeNewFile } from "./files.mjs";
import { LEVELS, brotliOf, gzipOf } from "./compression.mjs";

// Compressed bodies by the SHA-256 of what they compress, kept between
// builds (web/.compress-cache): a release that changes one text
// recompresses its pages only, not the scripts, styles and drawings that
// stayed the same. An entry is used only when it decompresses to the very
// bytes it is named by (decompressing costs a fraction of compressing): a
// damaged one would give every later release a broken .br or .gz.
const CACHE_DAYS = 7; // entries no build used for this long are deleted
const compressible = new Set([".html", ".js", ".css", ".svg", ".json", ".txt", ".xml", ".webmanifest", ".map", ".data"]);

async function* walk(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else yield path;
  }
}

// The image variants, linked, not copied (hundreds of MB for a large
// catalogue); copied only where a link cannot be made.
async function linkTree(from, to) {
  await mkdir(to, { recursive: true });
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const [src, dest] = [join(from, entry.name), join(to, entry.name)];
    if (entry.isDirectory()) await linkTree(src, dest);
    else linkFile(src, dest);
  }
}

const decompress = { gz: promisify(gunzip), br: promisify(brotliDecompress) };

// body (the file path) compressed by kind ("gz" or "br") at level, from the
// cache when a build made it before and it is intact; else compressed, and
// the cache's entry replaced (read-only, a new file: never written into).
async function compressed({ root, cacheDir }, path, body, hash, kind, level) {
  const file = join(cacheDir, `${hash}.${kind}${level}`);
  const cached = await readFile(file).catch((err) => {
    if (err.code !== "ENOENT") throw err;
    return null;
  });
  if (cached) {
    if ((await decompress[kind](cached).catch(() => null))?.equals(body)) {
      const now = new Date();
      await utimes(file, now, now);
      return cached;
    }
    console.warn(`compress: the cached ${kind} of ${relative(root, path)} (.compress-cache/${hash}.${kind}${level}) does not decompress to it; compressed again`);
  }
  const out = kind === "gz" ? await gzipOf(body, level) : await brotliOf(body, level);
  writeNewFile(file, out, 0o444);
  return out;
}

async function compressFile(dirs, path) {
  const body = await readFile(path);
  const hash = createHash("sha256").update(body).digest("hex");
  const levels = path.startsWith(dirs.assets) ? LEVELS.code : LEVELS.content;
  const [gz, br] = await Promise.all([compressed(dirs, path, body, hash, "gz", levels.gzip), compressed(dirs, path, body, hash, "br", levels.brotli)]);
  if (gz.length < body.length) writeNewFile(`${path}.gz`, gz);
  if (br.length < body.length) writeNewFile(`${path}.br`, br);
}

// The files of the client build the bundling compressed (compressBundle),
// relative to build/client: kept with the bundles (their .gz and .br too,
// checked against the bundle's sha256.json when used again), so a build
// does not compress the code again.
const BUNDLE_COMPRESSED = "bundle-compressed.json";
// React Router leaves the prerender step's own stylesheet in the client
// assets; no page links it, so it is not shipped (run deletes it).
const SERVER_CSS = /^server-build-.*\.css$/;

const dirsOf = (web) => {
  const root = join(web, "build", "client") + "/";
  return { root, assets: join(root, "assets/"), cacheDir: join(web, ".compress-cache") };
};

// Compresses paths, one file a core at a time: brotli at quality 11 holds
// tens of MB a stream, so all of a large site's files at once took 9.7 GB.
async function compressAll(dirs, paths) {
  await mkdir(dirs.cacheDir, { recursive: true });
  let next = 0;
  await Promise.all(
    Array.from({ length: availableParallelism() }, async () => {
      while (next < paths.length) await compressFile(dirs, paths[next++]);
    }),
  );
}

// The listed files of build/client (a JSON list relative to it), or none
// when the list is not there.
async function listed(web, name, root) {
  const text = await readFile(join(web, "build", name), "utf8").catch((err) => {
    if (err.code === "ENOENT") return "[]";
    throw err;
  });
  return new Set(JSON.parse(text).map((file) => join(root, file)));
}

/** The end of `npm run bundle`: the bundle's client files compressed, and listed (BUNDLE_COMPRESSED). */
export async function compressBundle({ web, log = console.log }) {
  const dirs = dirsOf(web);
  const paths = [];
  for await (const path of walk(dirs.root)) if (compressible.has(extname(path)) && !SERVER_CSS.test(basename(path))) paths.push(path);
  await compressAll(dirs, paths);
  await writeFile(join(web, "build", BUNDLE_COMPRESSED), JSON.stringify(paths.map((path) => relative(dirs.root, path))));
  log(`compress: ${paths.length} files of the bundle precompressed`);
}

/** The build's step: the client build in web/build/client finished (log takes its line). */
export async function run({ web, log = console.log }) {
  const dirs = dirsOf(web);
  const { root } = dirs;
  await linkTree(join(web, ".generated", "public"), root);
  for (const name of await readdir(dirs.assets)) {
    if (SERVER_CSS.test(name)) await rm(join(dirs.assets, name));
  }

  // What the prerender wrote, it compressed (scripts/prerender.mjs); the
  // bundling, the code's files.
  const prerendered = await listed(web, "prerendered.json", root);
  const bundled = await listed(web, BUNDLE_COMPRESSED, root);
  const paths = [];
  for await (const path of walk(root)) if (compressible.has(extname(path)) && !prerendered.has(path) && !bundled.has(path)) paths.push(path);
  await compressAll(dirs, paths);
  // Entries no build used for CACHE_DAYS go (files.mjs, pruneDaily).
  await pruneDaily(dirs.cacheDir, ({ mtimeMs }, now) => mtimeMs < now - CACHE_DAYS * DAY);
  log(`compress: ${paths.length} files precompressed in build/client (and the prerender's ${prerendered.size}, the bundle's ${bundled.size})`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const web = fileURLToPath(new URL("..", import.meta.url));
  // --bundle: the end of `npm run bundle`; else the build's last step.
  await (process.argv.includes("--bundle") ? compressBundle({ web }) : run({ web }));
}

// The image pipeline, run by `npm run build` before the prerender. It
// checks content/catalogue.json against its own vocabulary and its images,
// then turns each original in content/images/ that the site uses into
// right-sized files (web/.generated/images/, copied into the build after the
// prerender) and writes web/.generated/images.json, the manifest the route
// loaders read: for each src, its size, its srcsets, its placeholder class
// and its link-preview picture.
//
// - Raster originals (JPEG, PNG, WebP, AVIF; any size a camera makes):
//   AVIF and WebP at a ladder of widths up to the original's, and one JPEG
//   for browsers that take neither; EXIF orientation applied, metadata
//   stripped. Drawings (SVG) stay SVG.
// - File names carry a hash of the original's bytes and of the settings
//   below, so they are served as immutable, and a rebuild re-encodes only
//   what changed (the results are cached in web/.image-cache/, read-only,
//   each entry's files checked against the SHA-256 its meta.json lists
//   before they are used again: they are shared, by hard link, with every
//   release that serves them).
// - The placeholder is a class (ph-RGB, each digit 0-7) that paints the
//   image's dominant colour behind it while it loads: a stylesheet rule,
//   so no inline style and no new source for the Content-Security-Policy.
//
// Exit status 1, with one line per problem naming the file, the product and
// the field, when the content is wrong; nothing is written then. Every path
// the content names is held to the path rule (content-paths.mjs), then
// resolved: an original read from outside content/images/ (a symbolic
// link's target), or a file that would be written outside the build's
// images, stops the build before anything is read or written.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { basename, dirname, extname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { liesInside, pathProblem } from "./content-paths.mjs";
import { referenceProblems } from "./content-references.mjs";
import { linkFile, settled, stampOf } from "./files.mjs";

export const LADDER = [96, 160, 320, 480, 640, 960, 1280, 1600, 2048];
export const FALLBACK_WIDTH = 960;
export const OG = { width: 1200, height: 630 };
// No file a page may send is larger (make test-budgets checks the build):
// a detailed photograph is encoded again at a lower quality until it fits.
export const MAX_BYTES = 240 * 1024;
// The largest original taken: a camera's JPEG is 5-15 MB; more is a raw
// file or a scan that would take the build's memory and time.
export const MAX_ORIGINAL_BYTES = 30 * 2 ** 20;
// The most pixels an original may have, measured before it is decoded (a
// 1 MB PNG can hold 900 megapixels): the workspace's uploads are held to
// the same limit (contracts/photos.json, the one source).
export const MAX_PIXELS = JSON.parse(readFileSync(new URL("../../contracts/photos.json", import.meta.url), "utf8")).maxPixels;
// Narrower than the gallery's main image on a phone at 2× looks soft.
export const MIN_WIDTH = 640;
const ENCODE = {
  avif: { quality: 50, effort: 2 },
  webp: { quality: 72, effort: 4 },
  jpeg: { quality: 74, mozjpeg: true },
  og: { quality: 78, mozjpeg: true },
};
// Any change to what the pipeline writes changes every hash, so old cached
// results are never served under new settings.
const SETTINGS = JSON.stringify({ v: 1, LADDER, FALLBACK_WIDTH, OG, ENCODE, MAX_BYTES });
const RASTER = new Set([".jpg", ".jpeg", ".png", ".webp", ".avif"]);
const FORMATS = new Set([...RASTER, ".svg"]);
const PALETTE_LEVELS = 8;

export class ContentError extends Error {
  /** @param {string[]} problems */
  constructor(problems) {
    super(problems.join("\n"));
    this.problems = problems;
  }
}

// Every problem of the catalogue at once, as "file: where: field: problem".
export function checkCatalogue(catalogue, imagesDir) {
  const file = "content/catalogue.json";
  const problems = [];
  const categories = new Set((catalogue.categories ?? []).map((c) => c.name));
  const finishes = new Set(catalogue.finishes ?? []);
  const materials = new Set(Object.values(catalogue.filters?.material ?? {}).flat());
  for (const [option, words] of Object.entries(catalogue.filters?.finish ?? {})) {
    for (const w of words) if (!finishes.has(w)) problems.push(`${file}: filters.finish.${option}: "${w}" is not in "finishes"`);
  }
  const ids = new Set();
  const seen = new Map();
  (catalogue.products ?? []).forEach((p, i) => {
    const where = `${file}: product ${p.id ?? `#${i + 1}`} (${p.name ?? "no name"})`;
    if (ids.has(p.id)) problems.push(`${where}: id: ${p.id} is used by another product`);
    ids.add(p.id);
    if (!categories.has(p.category)) problems.push(`${where}: category: "${p.category}" is not one of "categories" (${[...categories].join(", ")})`);
    for (const m of p.material ?? []) if (!materials.has(m)) problems.push(`${where}: material: "${m}" is in no group of "filters.material"`);
    for (const f of p.finish ?? []) if (!finishes.has(f)) problems.push(`${where}: finish: "${f}" is not in "finishes"`);
    if (!Array.isArray(p.images) || p.images.length === 0) problems.push(`${where}: images: a product needs at least one image`);
    (p.images ?? []).forEach((image, j) => {
      const field = `images[${j}]`;
      if (!image?.alt?.trim()) problems.push(`${where}: ${field}.alt: the image ${image?.src ?? ""} needs alt text describing it`);
      const src = image?.src;
      if (typeof src !== "string" || !src) return problems.push(`${where}: ${field}.src: missing`);
      if (seen.has(src)) problems.push(`${where}: ${field}.src: ${src} is already used by ${seen.get(src)}`);
      seen.set(src, `product ${p.id} ${field}`);
      const pathWrong = pathProblem("image", src);
      if (!FORMATS.has(extname(src).toLowerCase())) problems.push(`${where}: ${field}.src: ${src}: not a JPEG, PNG, WebP, AVIF or SVG file`);
      else if (pathWrong) problems.push(`${where}: ${field}.src: ${pathWrong}`);
      else if (!existsSync(join(imagesDir, src))) problems.push(`${where}: ${field}.src: content/images/${src} does not exist`);
    });
  });
  // The featured pieces are products (contracts/content-references.json).
  problems.push(...referenceProblems("catalogue.json", catalogue).map((p) => `${file}: ${p}`));
  return problems;
}

const hashOf = (bytes) => createHash("sha256").update(bytes).update(SETTINGS).digest("hex").slice(0, 12);

// The hashes of the originals by their files' identity (device, inode,
// size, time of change) and the settings, kept in the cache: an unchanged
// photograph is not read again (a 300-product catalogue's 685 MB took
// seconds a build). hashes.json keeps only what the last build used; the
// process keeps them too (a warm renderer's previews and encodes write no
// hashes.json), up to a bound.
const HASHES = "hashes.json";
const SETTINGS_ID = hashOf("");
const knownHashes = new Map();
async function hashOfFile(path, hashes) {
  const s = await stat(path);
  const key = `${SETTINGS_ID}:${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}`;
  const hash = hashes.old[key] ?? knownHashes.get(key) ?? hashOf(await readFile(path));
  if (knownHashes.size >= 100_000) knownHashes.clear();
  knownHashes.set(key, hash);
  return (hashes.used[key] = hash);
}

// The originals' hashes kept by the last build: none when there are none
// or the file is not whole (they are read again).
async function readHashes(file) {
  try {
    return JSON.parse(await readFile(file, "utf8"));
  } catch {
    return {};
  }
}

// The widths to make: the ladder's rungs below the original's width, and
// the original's own width when it is under the ladder's top.
export function widthsFor(width) {
  const rungs = LADDER.filter((w) => w < width);
  if (width <= LADDER.at(-1)) rungs.push(width);
  else if (!rungs.includes(LADDER.at(-1))) rungs.push(LADDER.at(-1));
  return rungs;
}

export const placeholderClass = ({ r, g, b }) =>
  "ph-" + [r, g, b].map((c) => Math.round((c / 255) * (PALETTE_LEVELS - 1))).join("");

export function placeholderRule(name) {
  const hex = [...name.slice(3)].map((d) => Math.round((Number(d) * 255) / (PALETTE_LEVELS - 1)).toString(16).padStart(2, "0"));
  return `img.${name}{background-color:#${hex.join("")}}`;
}

// The files of a cache entry its meta.json describes, the first shown
// first: the fallback JPEG (the one file every browser shows), then AVIF
// (what browsers take today) from the widest (a gallery's picture, and the
// slowest to make), then WebP likewise, then the link preview.
function entryFiles(meta) {
  const widest = meta.svg ? [] : [...meta.widths].reverse();
  const names = meta.svg ? ["drawing.svg"] : [`w.${meta.fallback}.jpg`, ...widest.map((w) => `w.${w}.avif`), ...widest.map((w) => `w.${w}.webp`)];
  return meta.og ? [...names, "og.jpg"] : names;
}

const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");

// A cache entry's meta.json, when the entry is whole: every file it names
// has the size and SHA-256 it lists. Its files are linked into every build
// and release that uses them, so one written into through any of them
// (a release's image cut short) would be served by every later release;
// checked, it is encoded again instead. null (and a warning naming the
// entry and the file, unless there is no entry) when it is not.
async function intactMeta(cached, src, warn) {
  const damaged = (why) => {
    warn(`images: the cached encoding of content/images/${src} (${relative(process.cwd(), cached) || cached}) failed its check: ${why}; encoded again`);
    return null;
  };
  let text;
  try {
    text = await readFile(join(cached, "meta.json"), "utf8");
  } catch (err) {
    if (err.code === "ENOENT") return null;
    return damaged(`meta.json: ${err.message}`);
  }
  let meta;
  try {
    meta = JSON.parse(text);
    if (!meta.files) return damaged("meta.json lists no sizes and hashes (made before they were checked)");
    for (const name of entryFiles(meta)) {
      const want = meta.files[name];
      if (!want) return damaged(`meta.json lists no hash of ${name}`);
      const why = await fileDamage(join(cached, name), want);
      if (why) return damaged(`${name}: ${why}`);
    }
  } catch (err) {
    return damaged(`meta.json: ${err.message}`);
  }
  return meta;
}

// What is wrong with a file of an entry (want: its size and SHA-256 as
// meta.json lists them), or null when nothing is. A file this process
// found intact before is not read again while its stamp is the same
// (files.mjs, stampOf; remembered only once settled). In the warm
// renderer that makes each build's check of 200 photographs' 4,222 files
// (73 MB) a look at their stamps.
const intactFiles = new Map(); // stamp → the SHA-256 it was found with
async function fileDamage(file, want) {
  try {
    const stamp = stampOf(file);
    if (intactFiles.get(stamp) === want.sha256) return null;
    const bytes = await readFile(file);
    if (bytes.length !== want.size) return `${bytes.length} bytes, want ${want.size}`;
    if (sha256(bytes) !== want.sha256) return "its SHA-256 is not the one meta.json lists";
    if (settled(stamp)) {
      if (intactFiles.size >= 100_000) intactFiles.clear();
      intactFiles.set(stamp, want.sha256);
    }
    return null;
  } catch (err) {
    return err.code ?? err.message;
  }
}

// A cache entry's meta.json as it says, unchecked (null when there is none
// that can be read): what a manifest entry needs, none of the files.
async function readMeta(cached) {
  try {
    const meta = JSON.parse(await readFile(join(cached, "meta.json"), "utf8"));
    return meta.width && meta.height && (meta.svg || (meta.widths && meta.fallback && meta.placeholder)) ? meta : null;
  } catch {
    return null;
  }
}

const PUBLIC_BASE = "/images/";
// The public names of an original's files begin with its folder and its
// stem (then the hash, then which file).
function publicStem(src) {
  const stem = basename(src, extname(src)).toLowerCase().replace(/[^a-z0-9-]+/g, "-");
  return `${PUBLIC_BASE}${dirname(src) === "." ? "" : `${dirname(src)}/`}${stem}`;
}

// The manifest entry of an original (src, its hash) from its meta (its
// cache entry's, or its description), and the files it names: [file of the
// cache entry, public path]. The public names follow from the hash, so a
// page can name them before they are made.
function entryOf(meta, src, hash, withOg) {
  const files = [];
  const out = (cacheFile, suffix) => {
    const name = `${publicStem(src)}.${hash}${suffix}`;
    files.push([cacheFile, name]);
    return name;
  };
  const entry = { width: meta.width, height: meta.height };
  if (meta.svg) {
    entry.src = out("drawing.svg", ".svg");
  } else {
    const set = (ext) => meta.widths.map((w) => `${out(`w.${w}.${ext}`, `.${w}w.${ext}`)} ${w}w`).join(", ");
    entry.avif = set("avif");
    entry.webp = set("webp");
    entry.src = out(`w.${meta.fallback}.jpg`, `.${meta.fallback}w.jpg`);
    entry.placeholder = meta.placeholder;
  }
  if (withOg) entry.og = out("og.jpg", ".og.jpg");
  return { entry, files };
}

// The sharp jobs (a description, or one file of an entry) this process
// runs at once: one a core. Each original once started about 20 at once,
// two originals at a time, so its first files waited behind its last and
// memory peaked. A waiting job starts by its rank, lowest first, compared
// item by item: [kind (0: a page waits for it, 1: a build's), 0 for a
// picture shown first (a product's first, the hero) else 1, the picture's
// place in the build, the file's place in its entry].
const jobs = { free: availableParallelism(), waiting: [] };
const ranksBefore = (a, b) => {
  for (let i = 0; i < Math.max(a.length, b.length); i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) < (b[i] ?? 0);
  return false;
};
function job(rank, work) {
  return new Promise((resolve, reject) => {
    jobs.waiting.push({ rank, start: () => Promise.resolve().then(work).then(resolve, reject).finally(jobDone) });
    startJobs();
  });
}
function startJobs() {
  while (jobs.free > 0 && jobs.waiting.length) {
    let first = 0;
    for (let i = 1; i < jobs.waiting.length; i++) if (ranksBefore(jobs.waiting[i].rank, jobs.waiting[first].rank)) first = i;
    const [next] = jobs.waiting.splice(first, 1);
    jobs.free--;
    next.start();
  }
}
function jobDone() {
  jobs.free++;
  startJobs();
}

// Encodes one original into cacheDir (unless a previous build did and its
// files are intact): its hash and its entry's meta. Two sources with the
// same bytes, or a build and an encode asked for meanwhile, share one
// encoding (encoding, by hash), made once.
const encoding = new Map();
async function ensureEntry({ src, path, cacheDir, withOg, hashes, rank, warn }) {
  const hash = await hashOfFile(path, hashes);
  const cached = join(cacheDir, hash);
  while (encoding.has(hash)) await encoding.get(hash);
  // Claimed before the check, which waits on the disk: a second source
  // of the same bytes checking meanwhile would encode them too.
  let done = () => {};
  encoding.set(hash, new Promise((resolve) => (done = resolve)));
  try {
    let meta = await intactMeta(cached, src, warn);
    const encoded = !meta || (withOg && !meta.og);
    // An entry whole but for its link preview (its picture now a product's
    // first) keeps its files: only the preview is made.
    if (encoded) meta = await encode(await readFile(path), extname(src).toLowerCase(), cached, withOg, rank, meta);
    return { hash, meta, encoded };
  } finally {
    encoding.delete(hash);
    done();
  }
}

// An original's manifest entry, with the public names of its files,
// encoded first if need be.
async function processImage({ src, path, cacheDir, withOg, ogAlias, hashes, rank, warn }) {
  const { hash, meta, encoded } = await ensureEntry({ src, path, cacheDir, withOg, hashes, rank, warn });
  const { entry, files } = entryOf(meta, src, hash, withOg);
  const linked = files.map(([file, name]) => [join(cacheDir, hash, file), name]);
  if (ogAlias) linked.push([join(cacheDir, hash, "og.jpg"), ogAlias]);
  return { entry, files: linked, hash, encoded };
}

class TooManyPixels extends Error {
  constructor({ width, height }) {
    super(`${width} × ${height} pixels; a photograph may have at most ${MAX_PIXELS / 1e6} megapixels (export it smaller)`);
  }
}

const decode = (bytes) => sharp(bytes, { failOn: "error", limitInputPixels: MAX_PIXELS });

/**
 * What an original is, without encoding it: its size after its EXIF
 * orientation; for a photograph (any ext but ".svg") the widths made of
 * it, its fallback JPEG's width and its placeholder class; and dominant,
 * its dominant colour (behind a link preview). A manifest entry, and every
 * file of a cache entry, are made from it.
 * @param {Buffer} bytes  the original
 * @param {string} [ext]  its file's extension, in lower case, which says
 *   whether it is a drawing, as the build does; without it, its bytes say
 */
export async function describeImage(bytes, ext) {
  // The header only, so that the limit is said in its own words.
  const header = await sharp(bytes, { failOn: "error", limitInputPixels: false }).metadata();
  if (!header.width || !header.height) throw new Error("has no width and height");
  if (header.width * header.height > MAX_PIXELS) throw new TooManyPixels(header);
  const rotated = (header.orientation ?? 1) >= 5;
  const width = rotated ? header.height : header.width;
  const height = rotated ? header.width : header.height;
  const { dominant } = await decode(bytes).rotate().resize(64).stats();
  if (ext === undefined ? header.format === "svg" : ext === ".svg") return { width, height, svg: true, dominant };
  return { width, height, widths: widthsFor(width), fallback: Math.min(FALLBACK_WIDTH, width), placeholder: placeholderClass(dominant), dominant };
}

// The bytes of one file of an original's cache entry (named as there):
// the one pipeline that a whole entry and a variant made alone share, so
// both make the same bytes.
async function variantBytes(bytes, about, file) {
  if (file === "drawing.svg") return bytes;
  if (file === "og.jpg") {
    // Photographs fill the frame (cropped where it says most); a drawing is
    // shown whole on its own dominant colour.
    const og = about.svg
      ? decode(bytes).resize({ ...OG, fit: "contain", background: about.dominant })
      : decode(bytes).rotate().resize({ ...OG, fit: "cover", position: sharp.strategy.attention });
    return og.flatten({ background: about.dominant }).jpeg(ENCODE.og).toBuffer();
  }
  const [, width, format] = /^w\.(\d+)\.(avif|webp|jpg)$/.exec(file) ?? [];
  if (!format) throw new Error(`images: an entry has no file ${file}`);
  const resized = () => decode(bytes).rotate().resize(Number(width));
  if (format === "jpg") return resized().flatten({ background: "#ffffff" }).jpeg(ENCODE.jpeg).toBuffer();
  return encodeWithin(resized, format);
}

// Makes an original's cache entry in dir, in place of what was there: each
// file (read-only, as it is shared by hard link with every release that
// serves it; linked from kept, the entry there when it is whole, for the
// files it has), then meta.json listing each one's size and SHA-256 (for
// intactMeta). Made in a folder of its own and moved in whole, so no one
// (another process's build, a page's variant) sees it half made.
let madeFolders = 0;
async function encode(bytes, ext, dir, withOg, rank, kept) {
  const { dominant, ...meta } = await job([...rank, -1], () => describeImage(bytes, ext));
  if (withOg) meta.og = true;
  const names = entryFiles(meta);
  const made = `${dir}.new-${process.pid}-${++madeFolders}`;
  await mkdir(made, { recursive: true });
  try {
    // Every file settled before the folder is removed on a failure.
    const settled = await Promise.allSettled(
      names.map(async (name, i) => {
        if (kept?.files[name]) {
          linkFile(join(dir, name), join(made, name));
          return kept.files[name];
        }
        return job([...rank, i], async () => {
          const body = await variantBytes(bytes, { ...meta, dominant }, name);
          await writeFile(join(made, name), body, { mode: 0o444 });
          return { size: body.length, sha256: sha256(body) };
        });
      }),
    );
    const failed = settled.find((s) => s.status === "rejected");
    if (failed) throw failed.reason;
    meta.files = Object.fromEntries(names.map((name, i) => [name, settled[i].value]));
    await writeFile(join(made, "meta.json"), JSON.stringify(meta), { mode: 0o444 });
    await moveFolder(made, dir);
  } finally {
    await rm(made, { recursive: true, force: true });
  }
  return meta;
}

// from takes the place of the folder to (whatever was there). Another
// process may have put the same entry there meanwhile: it is replaced.
async function moveFolder(from, to) {
  for (let tries = 1; ; tries++) {
    await rm(to, { recursive: true, force: true });
    try {
      return await rename(from, to);
    } catch (err) {
      if ((err.code !== "ENOTEMPTY" && err.code !== "EEXIST") || tries === 3) throw err;
    }
  }
}

// Encodes at the format's quality, or lower until the file fits MAX_BYTES
// (down to 30): the bytes.
async function encodeWithin(image, format) {
  for (let quality = ENCODE[format].quality; ; quality -= 10) {
    const bytes = await image().toFormat(format, { ...ENCODE[format], quality }).toBuffer();
    if (bytes.length <= MAX_BYTES || quality <= 30) return bytes;
  }
}

// Runs fn over items, at most `limit` at a time.
async function pool(items, limit, fn) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

// The images the site uses: every product's, with a link preview for each
// product's first image, plus the site's own (extra: [{src, og}]).
export function imagesToMake(catalogue, extra = []) {
  const wanted = new Map();
  for (const p of catalogue.products) {
    // A src is used once in the catalogue (checkCatalogue).
    p.images.forEach((image, i) => wanted.set(image.src, { src: image.src, og: i === 0, product: p, field: `content/catalogue.json: product ${p.id} (${p.name}): images[${i}].src` }));
  }
  for (const e of extra) wanted.set(e.src, { ...e, og: e.og || wanted.get(e.src)?.og === true });
  return [...wanted.values()];
}

// Where a picture the site uses is used, for the build's lines.
const whereUsed = (w) => (w.product ? `product ${w.product.id} (${w.product.name})` : w.use);

// The pictures the content uses (imagesToMake), once the catalogue is
// checked and every path the content names is held to the rule: each
// original is read, and each of its files written (under publicImages),
// inside the build's own folders, or nothing is done (the paths resolved,
// symbolic links followed). A ContentError, else the list.
async function checkedImages(contentDir, extra, publicImages) {
  const imagesDir = join(contentDir, "images");
  let catalogue;
  try {
    catalogue = JSON.parse(await readFile(join(contentDir, "catalogue.json"), "utf8"));
  } catch (err) {
    throw new ContentError([`content/catalogue.json: ${err.message}`]);
  }
  const problems = checkCatalogue(catalogue, imagesDir);
  for (const e of extra) {
    const pathWrong = pathProblem(e.kind ?? "image", e.src);
    if (pathWrong) problems.push(`${e.field}: ${pathWrong}`);
    else if (!existsSync(join(imagesDir, e.src))) problems.push(`content/images/${e.src}: does not exist (the site uses it: ${e.use})`);
  }
  if (problems.length) throw new ContentError(problems);

  const wanted = imagesToMake(catalogue, extra);
  const outside = [];
  for (const w of wanted) {
    if (!liesInside(imagesDir, join(imagesDir, w.src), { real: true })) outside.push(`${w.field}: content/images/${w.src} leads outside content/images/ (a symbolic link?): only files inside it are read`);
    else if (!liesInside(publicImages, join(publicImages, w.src))) outside.push(`${w.field}: its resized files would be written outside the build's images: nothing was written`);
  }
  if (outside.length) throw new ContentError(outside);

  const tooLarge = [];
  for (const w of wanted) {
    const { size } = await stat(join(imagesDir, w.src));
    if (size > MAX_ORIGINAL_BYTES) tooLarge.push(`content/images/${w.src}: ${whereUsed(w)}: ${tooLargeWhy(size)}`);
  }
  if (tooLarge.length) throw new ContentError(tooLarge);
  return wanted;
}

const tooLargeWhy = (size) => `${(size / 2 ** 20).toFixed(1)} MB; an original may be at most ${MAX_ORIGINAL_BYTES / 2 ** 20} MB (export it smaller, or as JPEG)`;

// The build's line for an original that could not be made.
function unreadable(w, err) {
  const why = err instanceof TooManyPixels ? err.message : `cannot be read as an image (${err.message.split("\n")[0]})`;
  return `content/images/${w.src}: ${whereUsed(w)}: ${why}`;
}

// The order pictures are made in: the ones shown first (a product's first
// picture, the hero: those with a link preview) before the others, each
// group in the content's order. wanted's indexes.
const firstShownFirst = (wanted) => wanted.map((_, i) => i).sort((a, b) => Number(!wanted[a].og) - Number(!wanted[b].og) || a - b);

/**
 * @typedef {{ width: number, height: number, src: string, avif?: string, webp?: string, placeholder?: string, og?: string }} ManifestEntry
 * @typedef {{ src: string, kind?: "image" | "drawing", og: boolean, ogAlias?: string, use: string, field: string }} SiteImage  the site's own pictures (siteImages): kind is the path rule it is held to ("image" unless said), field names the src's field in the check's lines
 * @param {{ contentDir: string, outDir: string, cacheDir: string, extra?: SiteImage[], log?: (line: string) => void, warn?: (line: string) => void }} options
 * @returns {Promise<Record<string, ManifestEntry>>}
 */
export async function buildImages({ contentDir, outDir, cacheDir, extra = [], log = console.log, warn = console.warn }) {
  const imagesDir = join(contentDir, "images");
  // Written to a fresh folder, then swapped in: a failed build leaves the
  // previous output whole.
  const staging = `${outDir}.new`;
  const publicImages = join(staging, "public", "images");
  const wanted = await checkedImages(contentDir, extra, publicImages);

  await mkdir(cacheDir, { recursive: true });
  const started = Date.now();
  const hashes = { old: await readHashes(join(cacheDir, HASHES)), used: {} };
  const made = new Array(wanted.length);
  const count = await pictureCount(wanted, imagesDir, cacheDir, hashes, log);
  await pool(firstShownFirst(wanted), 2, async (i, place) => {
    const w = wanted[i];
    try {
      const rank = [1, w.og ? 0 : 1, place];
      made[i] = await processImage({ src: w.src, path: join(imagesDir, w.src), cacheDir, withOg: w.og, ogAlias: w.ogAlias, hashes, rank, warn });
      if (made[i].encoded) count.made(made[i].hash);
      if (made[i].entry.placeholder && made[i].entry.width < MIN_WIDTH) {
        warn(`images: warning: ${whereUsed(w)}: content/images/${w.src} is ${made[i].entry.width} px wide; under ${MIN_WIDTH} px it looks soft on phones and large screens`);
      }
    } catch (err) {
      made[i] = { problem: unreadable(w, err) };
    }
  });
  await writeFile(join(cacheDir, HASHES), JSON.stringify(hashes.used));
  const broken = made.filter((m) => m.problem).map((m) => m.problem);
  if (broken.length) throw new ContentError(broken);

  await rm(staging, { recursive: true, force: true });
  /** @type {Record<string, ManifestEntry>} */
  const manifest = {};
  const folders = new Set();
  for (const [i, { entry, files }] of made.entries()) {
    manifest[wanted[i].src] = entry;
    for (const [from, to] of files) {
      const target = join(staging, "public", to);
      if (!liesInside(publicImages, target)) throw new ContentError([`${wanted[i].field}: ${to} would be written outside the build's images: nothing was written there`]);
      if (!folders.has(dirname(target))) mkdirSync(dirname(target), { recursive: true });
      folders.add(dirname(target));
      linkFile(from, target); // the cache's file, linked
    }
  }
  await writeFile(join(staging, "images.json"), manifestText(manifest));
  await rm(outDir, { recursive: true, force: true });
  await rename(staging, outDir);
  log(`images: ${wanted.length} originals, ${made.reduce((n, m) => n + m.files.length, 0)} files in ${relative(process.cwd(), outDir) || outDir} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  return manifest;
}

// How many pictures a build makes, said as each is made ("images: made 2
// of 5 pictures"): the page that follows a publish shows it. The total is
// the originals, by their bytes, with no encoding in the cache; one whose
// encoding is found damaged, or lacks its link preview, is added as it
// is made.
async function pictureCount(wanted, imagesDir, cacheDir, hashes, log) {
  const expected = new Set();
  await pool(wanted, 8, async (w) => {
    try {
      const hash = await hashOfFile(join(imagesDir, w.src), hashes);
      if (!existsSync(join(cacheDir, hash, "meta.json"))) expected.add(hash);
    } catch {
      // unreadable: said by the build itself, below
    }
  });
  let total = expected.size;
  let done = 0;
  if (total > 0) log(`images: made 0 of ${total} pictures`);
  return {
    made(hash) {
      if (!expected.delete(hash)) total++;
      log(`images: made ${++done} of ${total} pictures`);
    },
  };
}

const manifestText = (manifest) => JSON.stringify(manifest, null, 1) + "\n";

/**
 * The image manifest of the content, as buildImages writes it, without
 * encoding anything: each entry from its cache entry's meta.json where one
 * was made, else from describeImage (the public names follow from the
 * originals' hashes). A preview's pages render with it before their
 * variants exist (makeVariant makes each when it is asked for). Writes
 * generatedDir/images.json (only that); content problems as buildImages.
 * @param {{ contentDir: string, generatedDir: string, cacheDir: string }} options
 * @returns {Promise<Record<string, ManifestEntry>>}
 */
export async function describeImages({ contentDir, generatedDir, cacheDir }) {
  const imagesDir = join(contentDir, "images");
  const wanted = await checkedImages(contentDir, await siteImages(contentDir), join(generatedDir, "public", "images"));
  const hashes = { old: await readHashes(join(cacheDir, HASHES)), used: {} };
  const described = new Array(wanted.length);
  await pool(firstShownFirst(wanted), 2, async (i, place) => {
    const w = wanted[i];
    try {
      const path = join(imagesDir, w.src);
      const hash = await hashOfFile(path, hashes);
      const meta =
        (await readMeta(join(cacheDir, hash))) ??
        (await describedBefore(cacheDir, hash, () => job([0, w.og ? 0 : 1, place], async () => describeImage(await readFile(path), extname(w.src).toLowerCase()))));
      described[i] = entryOf(meta, w.src, hash, w.og).entry;
    } catch (err) {
      described[i] = { problem: unreadable(w, err) };
    }
  });
  await keepDescriptions(cacheDir);
  const broken = described.filter((d) => d.problem).map((d) => d.problem);
  if (broken.length) throw new ContentError(broken);
  /** @type {Record<string, ManifestEntry>} */
  const manifest = Object.fromEntries(wanted.map((w, i) => [w.src, described[i]]));
  await mkdir(generatedDir, { recursive: true });
  const file = join(generatedDir, "images.json");
  await writeFile(`${file}.new-${process.pid}`, manifestText(manifest));
  await rename(`${file}.new-${process.pid}`, file);
  return manifest;
}

// The descriptions describeImages made of originals the image cache has no
// entry for (every drawing: a build copies them, caching nothing; a
// photograph not yet encoded), by hash: each one's describeImage renders
// it (a drawing, about 70 ms), so they are kept, in memory and in
// cacheDir/described.json (read at the first preview after a start),
// rather than made again for each new draft.
const DESCRIBED = "described.json";
const descriptions = { dir: null, loaded: null, added: false };
// The descriptions of cacheDir: a Map of hash → description, read once.
function describedIn(cacheDir) {
  if (descriptions.dir !== cacheDir) {
    descriptions.dir = cacheDir;
    descriptions.added = false;
    descriptions.loaded = readHashes(join(cacheDir, DESCRIBED)).then(
      (kept) => new Map(Object.entries(kept).filter(([, meta]) => meta?.width && meta?.height && (meta.svg || (meta.widths && meta.fallback && meta.placeholder)))),
    );
  }
  return descriptions.loaded;
}
async function describedBefore(cacheDir, hash, describe) {
  const byHash = await describedIn(cacheDir);
  if (!byHash.has(hash)) {
    byHash.set(hash, await describe());
    descriptions.added = true;
  }
  return byHash.get(hash);
}
async function keepDescriptions(cacheDir) {
  if (descriptions.dir !== cacheDir || !descriptions.added) return;
  descriptions.added = false;
  // The newest 10,000 (a Map keeps the order they came in).
  const kept = [...(await descriptions.loaded)].slice(-10_000);
  const file = join(cacheDir, DESCRIBED);
  await mkdir(cacheDir, { recursive: true });
  await writeFile(`${file}.new-${process.pid}`, JSON.stringify(Object.fromEntries(kept)));
  await rename(`${file}.new-${process.pid}`, file);
}

// A public variant's name, as the manifest has it under /images/ (the
// original's folder, its stem, the hash of its bytes, then which file).
const VARIANT_NAME = /^(?:[^/\\.\p{Z}\p{Cc}\p{Cf}][^/\\\p{Z}\p{Cc}\p{Cf}]*\/)*[a-z0-9-]+\.(?<hash>[0-9a-f]{12})\.(?:[1-9][0-9]{0,4}w\.(?:avif|webp|jpg)|og\.jpg|svg)$/u;

// A name that is no variant of the content's pictures (notFound: a page
// may answer 404).
export class NoSuchVariant extends Error {
  constructor(name, why) {
    super(`images: ${JSON.stringify(name)} ${why}`);
    this.notFound = true;
  }
}

/**
 * One variant of a picture of the content, made alone, for a page that
 * asks for it before its build has made them all. name is its public path
 * (as the manifest names it, "/images/" optional: "photos/chair.<hash>.320w.avif",
 * ".og.jpg", ".svg"): it must be exactly the name a build gives one of
 * the content's pictures, else NoSuchVariant, and nothing is written. The
 * file is made (with the full encode's pipeline: the same bytes), or linked
 * from the image cache when its entry holds it whole, at outDir/<name>;
 * one made before is answered as it is. Nothing is written outside outDir.
 * @param {{ contentDir: string, cacheDir: string, name: string, outDir: string }} options
 * @returns {Promise<string>} the file's path
 */
export async function makeVariant({ contentDir, cacheDir, name, outDir }) {
  const relativeName = typeof name === "string" && name.startsWith(PUBLIC_BASE) ? name.slice(PUBLIC_BASE.length) : name;
  const match = typeof relativeName === "string" ? VARIANT_NAME.exec(relativeName) : null;
  if (!match) throw new NoSuchVariant(name, "is not the name of an image variant (folder/stem.<hash>.<width>w.avif, .webp or .jpg, .og.jpg or .svg)");
  const publicName = PUBLIC_BASE + relativeName;
  const target = join(outDir, relativeName);
  if (!liesInside(outDir, target)) throw new NoSuchVariant(name, "would be written outside the variants' folder");
  const found = await variantSource(contentDir, cacheDir, publicName, match.groups.hash);
  if (!found) throw new NoSuchVariant(name, "is no variant of a picture of the content");
  if (existsSync(target)) return target;
  const { path, src, meta, file } = found;
  await mkdir(dirname(target), { recursive: true });
  const part = `${target}.new-${process.pid}-${++madeFolders}`;
  try {
    const cached = join(cacheDir, match.groups.hash, file);
    if (meta.files?.[file] && !(await fileDamage(cached, meta.files[file]))) {
      linkFile(cached, part);
    } else {
      const body = await job([0, 0], async () => {
        const bytes = await readFile(path);
        const about = file === "og.jpg" ? await describeImage(bytes, extname(src).toLowerCase()) : meta;
        return variantBytes(bytes, about, file);
      });
      await writeFile(part, body, { mode: 0o444 });
    }
    await rename(part, target);
  } finally {
    await rm(part, { force: true });
  }
  return target;
}

// The picture of the content one of whose files is publicName, given the
// hash it names: {path, src, meta (its cache entry's, or its description),
// file (that file's name in a cache entry)}, or null.
async function variantSource(contentDir, cacheDir, publicName, hash) {
  const imagesDir = join(contentDir, "images");
  let wanted;
  try {
    const catalogue = JSON.parse(await readFile(join(contentDir, "catalogue.json"), "utf8"));
    wanted = imagesToMake(catalogue, await siteImages(contentDir));
  } catch (err) {
    throw new ContentError([`content/catalogue.json: ${err.message}`]);
  }
  const hashes = { old: await readHashes(join(cacheDir, HASHES)), used: {} };
  for (const w of wanted) {
    // The name's beginning first: hashing is reading.
    if (pathProblem("image", w.src) || !publicName.startsWith(`${publicStem(w.src)}.${hash}.`)) continue;
    const path = join(imagesDir, w.src);
    if (!liesInside(imagesDir, path, { real: true }) || (await stat(path)).size > MAX_ORIGINAL_BYTES || (await hashOfFile(path, hashes)) !== hash) continue;
    const meta = (await readMeta(join(cacheDir, hash))) ?? (await job([0, 0], async () => describeImage(await readFile(path), extname(w.src).toLowerCase())));
    const file = entryOf(meta, w.src, hash, w.og).files.find(([, n]) => n === publicName)?.[0];
    return file ? { path, src: w.src, meta, file } : null;
  }
  return null;
}

/**
 * Fills the image cache for srcs (originals of contentDir/images/, as the
 * catalogue names them), as a build would, so that a publish later finds
 * their entries made: the workspace asks for it once a photograph is
 * uploaded. A picture the content does not use yet gets its link preview
 * too (it may become a product's first picture). Problems (an original
 * missing, unreadable, too large) as a ContentError, after the others are
 * made.
 * @param {{ contentDir: string, cacheDir: string, srcs: string[], warn?: (line: string) => void }} options
 */
export async function encodeImages({ contentDir, cacheDir, srcs, warn = console.warn }) {
  const imagesDir = join(contentDir, "images");
  let used = new Map();
  try {
    const catalogue = JSON.parse(await readFile(join(contentDir, "catalogue.json"), "utf8"));
    used = new Map(imagesToMake(catalogue, await siteImages(contentDir)).map((w) => [w.src, w]));
  } catch {
    // Content that cannot be read yet: every picture gets its link preview.
  }
  await mkdir(cacheDir, { recursive: true });
  const hashes = { old: await readHashes(join(cacheDir, HASHES)), used: {} };
  const problems = [];
  await pool(srcs, 2, async (src, place) => {
    const w = used.get(src) ?? { src, og: true, use: "not used by the content yet" };
    const path = join(imagesDir, String(src));
    const wrong = pathProblem("image", src) ?? (FORMATS.has(extname(src).toLowerCase()) ? null : `${JSON.stringify(src)}: not a JPEG, PNG, WebP, AVIF or SVG file`);
    if (wrong) return problems.push(`content/images/: ${wrong}`);
    if (!liesInside(imagesDir, path, { real: true })) return problems.push(`content/images/${src}: does not exist, or leads outside content/images/`);
    const { size } = await stat(path);
    if (size > MAX_ORIGINAL_BYTES) return problems.push(`content/images/${src}: ${whereUsed(w)}: ${tooLargeWhy(size)}`);
    try {
      await ensureEntry({ src, path, cacheDir, withOg: w.og, hashes, rank: [1, w.og ? 0 : 1, place], warn });
    } catch (err) {
      problems.push(unreadable(w, err));
    }
  });
  if (problems.length) throw new ContentError(problems);
}

// The site's own pictures, outside the catalogue: the home page's hero,
// whose link preview is also the site's (at a fixed address, for the pages
// whose meta cannot reach the manifest); and each picture uploaded in a
// drawing's place (an "image" that is not one of the site's drawings, under
// /images/, but a file of content/images/).
export async function siteImages(contentDir) {
  const pages = JSON.parse(await readFile(join(contentDir, "pages.json"), "utf8"));
  const hero = { src: pages.home.hero.src, og: true, ogAlias: SITE_OG, use: "content/pages.json: home.hero", field: "content/pages.json: home.hero.src" };
  return [hero, ...uploadedDrawings(pages, "content/pages.json: ")];
}

// The pictures of content/images/ that stand in a drawing's place, with
// where each is ("content/pages.json: home.craft.image").
function uploadedDrawings(node, where) {
  if (Array.isArray(node)) return node.flatMap((item, i) => uploadedDrawings(item, `${where}[${i}]`));
  if (!node || typeof node !== "object") return [];
  return Object.entries(node).flatMap(([key, value]) => {
    const at = where.endsWith(": ") ? `${where}${key}` : `${where}.${key}`;
    if (key === "image" && typeof value === "string" && !value.startsWith("/")) {
      return [{ src: value, kind: "drawing", og: false, use: at.replace(/\.image$/, ""), field: at }];
    }
    return uploadedDrawings(value, at);
  });
}
export const SITE_OG = "/images/og/site.jpg";

/**
 * The step, as `npm run images` runs it: the content's images into
 * web/.generated (images.json and the variants), encoded in
 * web/.image-cache. Content problems as a ContentError (its problems).
 * @param {{ web: string, contentDir: string, log?: (line: string) => void, warn?: (line: string) => void }} options  warn: the warnings' lines (log's unless said)
 */
export async function run({ web, contentDir, log = console.log, warn = log }) {
  await buildImages({ contentDir, outDir: join(web, ".generated"), cacheDir: join(web, ".image-cache"), extra: await siteImages(contentDir), log, warn });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const web = fileURLToPath(new URL("..", import.meta.url));
  try {
    await run({ web, contentDir: join(web, "..", "content"), log: console.log, warn: console.warn });
  } catch (err) {
    if (!(err instanceof ContentError)) throw err;
    console.error(err.problems.join("\n"));
    console.error(`make build stopped: ${err.problems.length} problem${err.problems.length === 1 ? "" : "s"} in content/`);
    process.exit(1);
  }
}

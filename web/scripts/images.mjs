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
import { chmod, mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, extname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import sharp from "sharp";
import { liesInside, pathProblem } from "./content-paths.mjs";
import { linkFile } from "./files.mjs";

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
// the same limit (internal/workspace/edit/photos.json, the one source).
export const MAX_PIXELS = JSON.parse(readFileSync(new URL("../../internal/workspace/edit/photos.json", import.meta.url), "utf8")).maxPixels;
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
  for (const id of [...(catalogue.featured?.whatsHot ?? []), catalogue.featured?.fresh]) {
    if (!ids.has(id)) problems.push(`${file}: featured: product ${id} is not in the catalogue`);
  }
  return problems;
}

const hashOf = (bytes) => createHash("sha256").update(bytes).update(SETTINGS).digest("hex").slice(0, 12);

// The hashes of the originals by their files' identity (device, inode,
// size, time of change) and the settings, kept in the cache: an unchanged
// photograph is not read again (a 300-product catalogue's 685 MB took
// seconds a build). hashes.json keeps only what the last build used.
const HASHES = "hashes.json";
const SETTINGS_ID = hashOf("");
async function hashOfFile(path, hashes) {
  const s = await stat(path);
  const key = `${SETTINGS_ID}:${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}`;
  if (!hashes.old[key]) hashes.old[key] = hashOf(await readFile(path));
  return (hashes.used[key] = hashes.old[key]);
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

// The files of a cache entry its meta.json describes.
function entryFiles(meta) {
  const names = meta.svg ? ["drawing.svg"] : [...meta.widths.flatMap((w) => [`w.${w}.avif`, `w.${w}.webp`]), `w.${meta.fallback}.jpg`];
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
      let bytes;
      try {
        bytes = await readFile(join(cached, name));
      } catch (err) {
        return damaged(`${name}: ${err.code ?? err.message}`);
      }
      if (bytes.length !== want.size) return damaged(`${name}: ${bytes.length} bytes, want ${want.size}`);
      if (sha256(bytes) !== want.sha256) return damaged(`${name}: its SHA-256 is not the one meta.json lists`);
    }
  } catch (err) {
    return damaged(`meta.json: ${err.message}`);
  }
  return meta;
}

// Encodes one original into cacheDir (unless a previous build did and its
// files are intact), and answers its manifest entry with the public names
// of its files. Two sources with the same bytes share one encoding
// (encoding, by hash), made once.
async function processImage({ src, path, cacheDir, publicBase, withOg, ogAlias, hashes, encoding, warn }) {
  const hash = await hashOfFile(path, hashes);
  const stem = basename(src, extname(src)).toLowerCase().replace(/[^a-z0-9-]+/g, "-");
  const dir = dirname(src) === "." ? "" : `${dirname(src)}/`;
  const publicName = (suffix) => `${publicBase}${dir}${stem}.${hash}${suffix}`;
  const cached = join(cacheDir, hash);
  const files = []; // [cache file, public path]
  while (encoding.has(hash)) await encoding.get(hash);
  let meta = await intactMeta(cached, src, warn);
  if (!meta || (withOg && !meta.og)) {
    const made = (async () => {
      const meta = await encode(await readFile(path), extname(src).toLowerCase(), cached, withOg);
      // Written last, whole or not at all: an entry without it is made again.
      await writeFile(join(cached, "meta.json.new"), JSON.stringify(meta), { mode: 0o444 });
      await rename(join(cached, "meta.json.new"), join(cached, "meta.json"));
      return meta;
    })();
    encoding.set(hash, made);
    try {
      meta = await made;
    } finally {
      encoding.delete(hash);
    }
  }
  const out = (cacheFile, suffix) => {
    const name = publicName(suffix);
    files.push([join(cached, cacheFile), name]);
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
  if (ogAlias) files.push([join(cached, "og.jpg"), ogAlias]);
  return { entry, files };
}

class TooManyPixels extends Error {
  constructor({ width, height }) {
    super(`${width} × ${height} pixels; a photograph may have at most ${MAX_PIXELS / 1e6} megapixels (export it smaller)`);
  }
}

async function encode(bytes, ext, dir, withOg) {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const input = () => sharp(bytes, { failOn: "error", limitInputPixels: MAX_PIXELS });
  // The header only, so that the limit is said in its own words.
  const meta = await sharp(bytes, { failOn: "error", limitInputPixels: false }).metadata();
  if (!meta.width || !meta.height) throw new Error("has no width and height");
  if (meta.width * meta.height > MAX_PIXELS) throw new TooManyPixels(meta);
  const rotated = (meta.orientation ?? 1) >= 5;
  const width = rotated ? meta.height : meta.width;
  const height = rotated ? meta.width : meta.height;
  const { dominant } = await input().rotate().resize(64).stats();
  const result = { width, height };
  const jobs = [];
  if (ext === ".svg") {
    result.svg = true;
    jobs.push(writeFile(join(dir, "drawing.svg"), bytes));
  } else {
    result.widths = widthsFor(width);
    result.fallback = Math.min(FALLBACK_WIDTH, width);
    result.placeholder = placeholderClass(dominant);
    for (const w of result.widths) {
      const resized = () => input().rotate().resize(w);
      jobs.push(encodeWithin(resized, "avif", join(dir, `w.${w}.avif`)));
      jobs.push(encodeWithin(resized, "webp", join(dir, `w.${w}.webp`)));
    }
    jobs.push(input().rotate().resize(result.fallback).flatten({ background: "#ffffff" }).jpeg(ENCODE.jpeg).toFile(join(dir, `w.${result.fallback}.jpg`)));
  }
  if (withOg) {
    // Photographs fill the frame (cropped where it says most); a drawing is
    // shown whole on its own dominant colour.
    const og = ext === ".svg"
      ? input().resize({ ...OG, fit: "contain", background: dominant })
      : input().rotate().resize({ ...OG, fit: "cover", position: sharp.strategy.attention });
    jobs.push(og.flatten({ background: dominant }).jpeg(ENCODE.og).toFile(join(dir, "og.jpg")));
    result.og = true;
  }
  await Promise.all(jobs);
  // Each file's size and SHA-256, for intactMeta; read-only, as it is
  // shared by hard link with every release that serves it.
  result.files = {};
  for (const name of await readdir(dir)) {
    const bytes = await readFile(join(dir, name));
    result.files[name] = { size: bytes.length, sha256: sha256(bytes) };
    await chmod(join(dir, name), 0o444);
  }
  return result;
}

// Encodes at the format's quality, or lower until the file fits MAX_BYTES
// (down to 30).
async function encodeWithin(image, format, file) {
  for (let quality = ENCODE[format].quality; ; quality -= 10) {
    const bytes = await image().toFormat(format, { ...ENCODE[format], quality }).toBuffer();
    if (bytes.length <= MAX_BYTES || quality <= 30) return writeFile(file, bytes);
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

/**
 * @typedef {{ width: number, height: number, src: string, avif?: string, webp?: string, placeholder?: string, og?: string }} ManifestEntry
 * @typedef {{ src: string, og: boolean, ogAlias?: string, use: string, field: string }} SiteImage  the site's own pictures (siteImages): field names the src's field in the check's lines
 * @param {{ contentDir: string, outDir: string, cacheDir: string, extra?: SiteImage[], log?: (line: string) => void, warn?: (line: string) => void }} options
 * @returns {Promise<Record<string, ManifestEntry>>}
 */
export async function buildImages({ contentDir, outDir, cacheDir, extra = [], log = console.log, warn = console.warn }) {
  const imagesDir = join(contentDir, "images");
  let catalogue;
  try {
    catalogue = JSON.parse(await readFile(join(contentDir, "catalogue.json"), "utf8"));
  } catch (err) {
    throw new ContentError([`content/catalogue.json: ${err.message}`]);
  }
  const problems = checkCatalogue(catalogue, imagesDir);
  for (const e of extra) {
    const pathWrong = pathProblem("image", e.src);
    if (pathWrong) problems.push(`${e.field}: ${pathWrong}`);
    else if (!existsSync(join(imagesDir, e.src))) problems.push(`content/images/${e.src}: does not exist (the site uses it: ${e.use})`);
  }
  if (problems.length) throw new ContentError(problems);

  // Each original is read, and its files written, inside the build's own
  // folders, or nothing is done: the rule above says so of the names; here
  // the paths themselves are resolved (symbolic links followed).
  const wanted = imagesToMake(catalogue, extra);
  // Written to a fresh folder, then swapped in: a failed build leaves the
  // previous output whole.
  const staging = `${outDir}.new`;
  const publicImages = join(staging, "public", "images");
  const outside = [];
  for (const w of wanted) {
    if (!liesInside(imagesDir, join(imagesDir, w.src), { real: true })) outside.push(`${w.field}: content/images/${w.src} leads outside content/images/ (a symbolic link?): only files inside it are read`);
    else if (!liesInside(publicImages, join(publicImages, w.src))) outside.push(`${w.field}: its resized files would be written outside the build's images: nothing was written`);
  }
  if (outside.length) throw new ContentError(outside);

  await mkdir(cacheDir, { recursive: true });
  const started = Date.now();
  const tooLarge = [];
  for (const w of wanted) {
    const { size } = await stat(join(imagesDir, w.src));
    const where = w.product ? `product ${w.product.id} (${w.product.name})` : w.use;
    if (size > MAX_ORIGINAL_BYTES) {
      tooLarge.push(`content/images/${w.src}: ${where}: ${(size / 2 ** 20).toFixed(1)} MB; an original may be at most ${MAX_ORIGINAL_BYTES / 2 ** 20} MB (export it smaller, or as JPEG)`);
    }
  }
  if (tooLarge.length) throw new ContentError(tooLarge);
  const hashes = { old: await readHashes(join(cacheDir, HASHES)), used: {} };
  const encoding = new Map();
  const made = await pool(wanted, 2, async (w) => {
    const where = w.product ? `product ${w.product.id} (${w.product.name})` : w.use;
    try {
      const r = await processImage({ src: w.src, path: join(imagesDir, w.src), cacheDir, publicBase: "/images/", withOg: w.og, ogAlias: w.ogAlias, hashes, encoding, warn });
      if (r.entry.placeholder && r.entry.width < MIN_WIDTH) {
        warn(`images: warning: ${where}: content/images/${w.src} is ${r.entry.width} px wide; under ${MIN_WIDTH} px it looks soft on phones and large screens`);
      }
      return r;
    } catch (err) {
      const why = err instanceof TooManyPixels ? err.message : `cannot be read as an image (${err.message.split("\n")[0]})`;
      return { problem: `content/images/${w.src}: ${where}: ${why}` };
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
  await writeFile(join(staging, "images.json"), JSON.stringify(manifest, null, 1) + "\n");
  await rm(outDir, { recursive: true, force: true });
  await rename(staging, outDir);
  log(`images: ${wanted.length} originals, ${made.reduce((n, m) => n + m.files.length, 0)} files in ${relative(process.cwd(), outDir) || outDir} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  return manifest;
}

// The site's own pictures, outside the catalogue: the home page's hero,
// whose link preview is also the site's (at a fixed address, for the pages
// whose meta cannot reach the manifest).
export async function siteImages(contentDir) {
  const pages = JSON.parse(await readFile(join(contentDir, "pages.json"), "utf8"));
  return [{ src: pages.home.hero.src, og: true, ogAlias: SITE_OG, use: "content/pages.json: home.hero", field: "content/pages.json: home.hero.src" }];
}
export const SITE_OG = "/images/og/site.jpg";

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const web = fileURLToPath(new URL("..", import.meta.url));
  try {
    await buildImages({
      contentDir: join(web, "..", "content"),
      outDir: join(web, ".generated"),
      cacheDir: join(web, ".image-cache"),
      extra: await siteImages(join(web, "..", "content")),
    });
  } catch (err) {
    if (!(err instanceof ContentError)) throw err;
    console.error(err.problems.join("\n"));
    console.error(`make build stopped: ${err.problems.length} problem${err.problems.length === 1 ? "" : "s"} in content/`);
    process.exit(1);
  }
}

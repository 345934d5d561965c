// Performance budgets, checked on the build output (sizes, never times):
// - first-load JavaScript of the home page at most 131.5 KB gzip (docs/benchmarks.md says why);
// - the code of the overlays (search, chat, quote dialog, offer) is not in
//   any page's first load: it loads on demand; nor is the shortlist's
//   (lib/shortlist/items.ts), but on the shortlist page itself;
// - all CSS at most 20 KB gzip;
// - no web font blocks text;
// - every <img> of every prerendered page has width and height, and the
//   first image of the home page's content is eager, with high priority;
// - no raster image that any page (or the search) may send is over 250 KB,
//   and every page's og:image (a not-found page has none) is a file of the build;
// - no script carries the catalogue: pages get their products from their
//   route data, so the JavaScript does not grow with the catalogue.
// Prints the figures; exits 1 when a budget is broken.
// node scripts/budgets.mjs [CLIENT_BUILD_DIR]
import { readdir, readFile, stat } from "node:fs/promises";
import { join, relative, resolve } from "node:path";

// This site's build, or another's (the photographed copy: make test-budgets).
const client = process.argv[2] ? resolve(process.argv[2]) : new URL("../build/client/", import.meta.url).pathname;
const KB = 1024;
const BUDGET = { homeJs: 131.5 * KB, css: 20 * KB, image: 250 * KB };
// File-name stems of code that must load on demand (see the components),
// with the one page, if any, whose first load may have it.
const ON_DEMAND = { SearchOverlay: null, QuoteDialog: null, ChatPanel: null, OfferDialog: null, items: "/shortlist" };

async function* walk(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else yield path;
  }
}

const gzipSize = async (file) => {
  try {
    return (await stat(`${file}.gz`)).size;
  } catch {
    return (await stat(file)).size; // too small to be worth compressing
  }
};

// The scripts a page loads before it is interactive: those its inline
// module script imports, and everything they import statically, in turn.
// Dynamic imports inside the chunks are the code loaded on demand.
async function firstLoadScripts(html) {
  const urls = new Set();
  const queue = [];
  const add = (url) => {
    if (!urls.has(url)) {
      urls.add(url);
      queue.push(url);
    }
  };
  for (const m of html.matchAll(/<script[^>]*src="([^"]+)"/g)) add(m[1]);
  for (const m of html.matchAll(/(?:import|from)\s*\(?\s*"(\/assets\/[^"]+\.js)"/g)) add(m[1]);
  while (queue.length) {
    const url = queue.shift();
    const code = await readFile(join(client, url), "utf8");
    for (const m of code.matchAll(/(?:import|from)\s*"\.\/([^"]+\.js)"/g)) add(`/assets/${m[1]}`);
  }
  return [...urls];
}

const failures = [];
const pages = [];
// Every image URL a page or the search index names: src, and each srcset candidate.
const imageUrls = new Set();
const addCandidates = (srcset) => {
  for (const candidate of srcset.split(",")) {
    const url = candidate.trim().split(/\s+/)[0];
    if (url?.startsWith("/images/")) imageUrls.add(url);
  }
};
const addImageUrls = (html) => {
  for (const m of html.matchAll(/\b(?:src|srcSet|srcset)="([^"]+)"/g)) addCandidates(m[1]);
};
for await (const file of walk(client)) if (file.endsWith("index.html")) pages.push(file);
pages.sort();

console.log("first-load JavaScript (gzip):");
for (const page of pages) {
  const html = await readFile(page, "utf8");
  const scripts = await firstLoadScripts(html);
  let total = 0;
  for (const url of scripts) total += await gzipSize(join(client, url));
  const name = "/" + relative(client, page).replace(/\/?index\.html$/, "");
  console.log(`  ${name.padEnd(20)} ${(total / KB).toFixed(1).padStart(6)} KB in ${scripts.length} files`);
  if (name === "/" && total > BUDGET.homeJs) failures.push(`home page first-load JS ${(total / KB).toFixed(1)} KB > ${BUDGET.homeJs / KB} KB`);
  for (const [stem, page] of Object.entries(ON_DEMAND)) {
    if (name !== page && scripts.some((url) => url.includes(`/${stem}-`))) failures.push(`${name} loads ${stem} up front; it must load on demand`);
  }
  addImageUrls(html);
  const og = /<meta property="og:image" content="([^"]+)"/.exec(html)?.[1];
  const ogPath = og && new URL(og).pathname;
  // A not-found page (404, noindex) is never shared, so it needs no link preview.
  const notFound = /<meta name="robots" content="noindex"/.test(html) && name.endsWith("__not-found");
  if (!ogPath && !notFound) failures.push(`${name}: no og:image`);
  else if (ogPath && !(await stat(join(client, ogPath)).catch(() => null))) failures.push(`${name}: og:image ${ogPath} is not in the build`);
  for (const img of html.matchAll(/<img\b[^>]*>/g)) {
    if (!/\bwidth="\d+"/.test(img[0]) || !/\bheight="\d+"/.test(img[0])) failures.push(`${name}: an image without width and height: ${img[0].slice(0, 120)}`);
  }
  if (name === "/") {
    // The largest image above the fold is the first one of the content.
    const first = html.slice(html.indexOf("<main")).match(/<img\b[^>]*>/)?.[0] ?? "";
    if (/loading="lazy"/.test(first) || !/fetchpriority="high"/i.test(first)) failures.push(`home page: the first image must be eager with fetchpriority="high": ${first}`);
  }
}

// The search overlay's pictures come from its index, not from a page.
for (const m of (await readFile(join(client, "search-index.json"), "utf8")).matchAll(/"(\/images\/[^"]+)"/g)) addCandidates(m[1]);
let largest = { url: "", size: 0 };
for (const url of imageUrls) {
  const size = (await stat(join(client, url)).catch(() => null))?.size;
  const raster = /\.(avif|webp|jpe?g|png)$/.test(url);
  if (size === undefined) failures.push(`an image named by a page is not in the build: ${url}`);
  else if (raster && size > largest.size) largest = { url, size };
  if (raster && size > BUDGET.image) failures.push(`${url} is ${(size / KB).toFixed(0)} KB > ${BUDGET.image / KB} KB`);
}
console.log(`images named by the pages: ${imageUrls.size}; the largest raster one ${largest.url ? `${(largest.size / KB).toFixed(1)} KB (${largest.url})` : "none"} (budget ${BUDGET.image / KB} KB)`);

const assets = await readdir(join(client, "assets"));

// The catalogue the build was made from: content/ beside web/build/client.
const catalogue = JSON.parse(await readFile(join(client, "../../../content/catalogue.json"), "utf8"));
const scripts = await Promise.all(assets.filter((a) => a.endsWith(".js")).map(async (a) => [a, await readFile(join(client, "assets", a), "utf8")]));
for (const p of catalogue.products) {
  const carrier = scripts.find(([, code]) => code.includes(p.description));
  if (carrier) failures.push(`${carrier[0]} carries product ${p.id}'s description: the catalogue must reach pages as route data, not code`);
}
console.log(`scripts carrying the catalogue's ${catalogue.products.length} products: ${failures.some((f) => f.includes("carries product")) ? "some" : "none"}`);
for (const stem of Object.keys(ON_DEMAND)) {
  if (!assets.some((a) => a.startsWith(`${stem}-`) && a.endsWith(".js"))) failures.push(`no separate chunk for ${stem}: it is not split out for loading on demand`);
}

let css = 0;
const fontFaces = [];
for (const name of assets.filter((a) => a.endsWith(".css"))) {
  css += await gzipSize(join(client, "assets", name));
  const text = await readFile(join(client, "assets", name), "utf8");
  for (const face of text.matchAll(/@font-face\s*{[^}]*}/g)) fontFaces.push({ name, swap: /font-display:\s*(swap|optional)/.test(face[0]) });
}
console.log(`all CSS (gzip): ${(css / KB).toFixed(1)} KB (budget ${BUDGET.css / KB} KB)`);
if (css > BUDGET.css) failures.push(`CSS ${(css / KB).toFixed(1)} KB > ${BUDGET.css / KB} KB`);
console.log(fontFaces.length ? `web fonts: ${fontFaces.length} @font-face` : "web fonts: none (system fonts)");
for (const f of fontFaces) if (!f.swap) failures.push(`${f.name}: an @font-face without font-display: swap blocks text`);
console.log(`on-demand code, not in any first load: ${Object.entries(ON_DEMAND).map(([stem, page]) => (page ? `${stem} (but ${page})` : stem)).join(", ")}`);

if (failures.length) {
  console.error("\nbudgets broken:\n  " + failures.join("\n  "));
  process.exit(1);
}
console.log("budgets: all within limits");

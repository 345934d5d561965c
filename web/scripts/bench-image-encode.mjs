// `node scripts/bench-image-encode.mjs [--photos N] [--runs R] [--module FILE]`:
// what a new photograph costs the images step. A sample catalogue (the
// shipped content plus N camera-sized photographs, default 1, each a
// product's first picture, 4000×3000 under four) is encoded once; then, R times (default
// 3), the photographs' cache entries are deleted and the step runs again in
// a process of its own, as a publish after an upload would. It prints, as
// medians: the step's time, the time until the first photograph's fallback
// JPEG (the file every browser can show) is written, the CPU time it took
// (all threads) and the process's peak memory. --module runs another copy of images.mjs (say, the previous
// commit's, to compare).
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { setInterval, clearInterval } from "node:timers";
import { parseArgs } from "node:util";
import { makeSampleContent } from "./sample-photos.mjs";

const { values } = parseArgs({ options: { photos: { type: "string", default: "1" }, runs: { type: "string", default: "3" }, module: { type: "string" }, child: { type: "string" } } });
const modulePath = resolve(values.module ?? fileURLToPath(new URL("./images.mjs", import.meta.url)));

// The fallback JPEGs written so far under cacheDir (in an entry, or in the
// folder one is made in).
function fallbacksIn(cacheDir) {
  let found = 0;
  if (!existsSync(cacheDir)) return 0;
  for (const dir of readdirSync(cacheDir, { withFileTypes: true })) {
    if (!dir.isDirectory()) continue;
    for (const name of readdirSync(join(cacheDir, dir.name))) if (/^w\.960\.jpg$/.test(name) && statSync(join(cacheDir, dir.name, name)).size > 0) found++;
  }
  return found;
}

if (values.child) {
  // One run of the step: {seconds, firstSeconds, peakMiB} on stdout.
  const { dir, cached } = JSON.parse(values.child);
  const { buildImages, siteImages } = await import(pathToFileURL(modulePath).href);
  const contentDir = join(dir, "content");
  const cacheDir = join(dir, "cache");
  const started = performance.now();
  let first = null;
  // Polled: a fallback already in the cache before the run is not counted.
  const watch = setInterval(() => {
    if (first === null && fallbacksIn(cacheDir) > cached) first = (performance.now() - started) / 1000;
  }, 10);
  await buildImages({ contentDir, outDir: join(dir, "out"), cacheDir, extra: await siteImages(contentDir), log: () => {}, warn: () => {} });
  clearInterval(watch);
  const seconds = (performance.now() - started) / 1000;
  const { user, system } = process.cpuUsage();
  console.log(JSON.stringify({ seconds, firstSeconds: first ?? seconds, cpuSeconds: (user + system) / 1e6, peakMiB: process.resourceUsage().maxRSS / 1024 }));
  process.exit(0);
}

const photos = Number(values.photos);
const dir = await mkdtemp(join(tmpdir(), "bench-image-encode-"));
try {
  const shipped = fileURLToPath(new URL("../../content", import.meta.url));
  const { products } = JSON.parse(await readFile(join(shipped, "catalogue.json"), "utf8"));
  // One photograph a product (with four or more, the first has four, of
  // several sizes: sample-photos.mjs).
  const catalogue = await makeSampleContent({ contentDir: shipped, outDir: join(dir, "content"), products: products.length + photos, photos });
  const photographs = catalogue.products.flatMap((p) => p.images.map((i) => i.src)).filter((src) => src.endsWith(".jpg") || src.endsWith(".png"));
  const step = () => JSON.parse(execFileSync(process.execPath, [fileURLToPath(import.meta.url), "--module", modulePath, "--child", JSON.stringify({ dir, cached: fallbacksIn(join(dir, "cache")) })], { encoding: "utf8" }));
  step(); // every entry made once
  // The photographs' entries: the ones whose meta.json says they are not drawings.
  const cacheDir = join(dir, "cache");
  const photoEntries = () =>
    readdirSync(cacheDir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .filter((name) => readdirSync(join(cacheDir, name)).some((f) => f.endsWith(".avif")));
  const runs = [];
  for (let i = 0; i < Number(values.runs); i++) {
    for (const name of photoEntries()) await rm(join(cacheDir, name), { recursive: true, force: true });
    runs.push(step());
  }
  const median = (key) => runs.map((r) => r[key]).sort((a, b) => a - b)[runs.length >> 1];
  console.log(
    `images, ${photographs.length} new 4000×3000 photograph${photographs.length === 1 ? "" : "s"} (${modulePath}): ` +
      `step ${median("seconds").toFixed(2)} s (${median("cpuSeconds").toFixed(2)} s of CPU), first fallback JPEG at ${median("firstSeconds").toFixed(2)} s, peak ${median("peakMiB").toFixed(0)} MiB ` +
      `(medians of ${runs.length}; all: ${runs.map((r) => r.seconds.toFixed(2)).join(", ")} s)`,
  );
} finally {
  await rm(dir, { recursive: true, force: true });
}

// `node scripts/bench-image-check.mjs [PHOTOS]` (default 10): what checking
// the image cache costs a build (images.mjs reads every cached file a build
// links and compares its SHA-256 with its entry's meta.json). A sample
// catalogue with PHOTOS camera-sized photographs (sample-photos.mjs) is
// encoded once; the images step then runs three times from the warm cache,
// and the check's own work (each file read and hashed) is timed alone.
import { createHash } from "node:crypto";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildImages, siteImages } from "./images.mjs";
import { makeSampleContent } from "./sample-photos.mjs";

const photos = Number(process.argv[2] ?? 10);
const dir = await mkdtemp(join(tmpdir(), "bench-image-check-"));
try {
  const contentDir = join(dir, "content");
  const shipped = fileURLToPath(new URL("../../content", import.meta.url));
  const { products } = JSON.parse(await readFile(join(shipped, "catalogue.json"), "utf8"));
  // The first added product has four photographs, each later one one.
  await makeSampleContent({ contentDir: shipped, outDir: contentDir, products: products.length + photos - 3, photos });
  const cacheDir = join(dir, "cache");
  const run = async () => {
    const started = performance.now();
    await buildImages({ contentDir, outDir: join(dir, "out"), cacheDir, extra: await siteImages(contentDir), log: () => {} });
    return (performance.now() - started) / 1000;
  };
  const cold = await run();
  const warm = [await run(), await run(), await run()].sort((a, b) => a - b)[1];
  // The check alone: every file of every entry, read and hashed.
  let files = 0;
  let bytes = 0;
  const checkAll = async () => {
    files = bytes = 0;
    const started = performance.now();
    for (const entry of await readdir(cacheDir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const meta = JSON.parse(await readFile(join(cacheDir, entry.name, "meta.json"), "utf8"));
      for (const name of Object.keys(meta.files)) {
        const body = await readFile(join(cacheDir, entry.name, name));
        createHash("sha256").update(body).digest("hex");
        files++;
        bytes += body.length;
      }
    }
    return (performance.now() - started) / 1000;
  };
  const check = [await checkAll(), await checkAll(), await checkAll()].sort((a, b) => a - b)[1];
  const mb = bytes / 2 ** 20;
  console.log(
    `images, ${photos} photographs: encoded from an empty cache in ${cold.toFixed(1)} s; from the warm cache ${warm.toFixed(2)} s (median of 3), ` +
      `of which checking its ${files} files (${mb.toFixed(1)} MB) ${check.toFixed(2)} s (median of 3) (${(mb / check).toFixed(0)} MB/s, ${((mb / photos) * 1024).toFixed(0)} KB a photograph)`,
  );
} finally {
  await rm(dir, { recursive: true, force: true });
}

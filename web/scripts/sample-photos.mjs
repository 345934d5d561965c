// Camera-sized photographs made on the spot, for the tests and benchmarks
// (nothing multi-megabyte is committed): soft shapes of colour, like a lit
// room, under the fine grain of a sensor, saved as a camera saves them
// (JPEG at high quality, optionally with an EXIF orientation).
//
// Also a sample site: a copy of content/ with more products and
// photographs (node scripts/sample-photos.mjs OUT --products N --photos M).
import { existsSync } from "node:fs";
import { cp, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import sharp from "sharp";

// A small deterministic generator, so a seed always makes the same picture.
function random(seed) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

/**
 * Writes a photograph to `path`: JPEG unless `format` says "png".
 * `orientation` is the EXIF tag (6: the camera was turned, so a viewer
 * rotates the stored pixels 90° clockwise).
 * @param {string} path
 * @param {{ width?: number, height?: number, seed?: number, orientation?: number, format?: "jpeg" | "png" }} [options]
 */
export async function makePhoto(path, { width = 4000, height = 3000, seed = 1, orientation, format = "jpeg" } = {}) {
  const next = random(seed);
  const cols = 24;
  const rows = Math.max(2, Math.round((cols * height) / width));
  // Warm, muted tones (sandstone, wood, brass) with light and shade.
  const base = [next() * 90 + 110, next() * 70 + 80, next() * 60 + 50];
  const cells = Buffer.alloc(cols * rows * 3);
  for (let i = 0; i < cols * rows; i++) {
    const light = (next() - 0.5) * 120;
    for (let c = 0; c < 3; c++) cells[i * 3 + c] = Math.max(0, Math.min(255, base[c] + light + (next() - 0.5) * 30));
  }
  // Soft shapes: blurred at a quarter of the size (much cheaper), then enlarged.
  const quarter = await sharp(cells, { raw: { width: cols, height: rows, channels: 3 } })
    .resize(Math.ceil(width / 4), Math.ceil(height / 4), { kernel: "cubic" })
    .blur(Math.max(1, width / 1600))
    .raw()
    .toBuffer();
  const shapes = await sharp(quarter, { raw: { width: Math.ceil(width / 4), height: Math.ceil(height / 4), channels: 3 } })
    .resize(width, height, { kernel: "cubic" })
    .raw()
    .toBuffer();
  // Grain from a tile of noise repeated (noise made at full size is slow).
  const tile = Math.min(509, width, height);
  const grain = await sharp({ create: { width: tile, height: tile, channels: 3, background: "#808080", noise: { type: "gaussian", mean: 128, sigma: 18 } } })
    .png()
    .toBuffer();
  let image = sharp(shapes, { raw: { width, height, channels: 3 } }).composite([{ input: grain, tile: true, blend: "soft-light" }]);
  if (orientation) image = image.withMetadata({ orientation });
  await (format === "png" ? image.png({ compressionLevel: 1 }) : image.jpeg({ quality: 92 })).toFile(path);
}

/**
 * A copy of contentDir in outDir whose catalogue has `products` pieces in
 * all (the shipped ones first) and `photos` photographs: the first added
 * product has four (landscape, a 6000×4000, a portrait turned by EXIF,
 * a PNG), each later one one, until the photographs run out; the rest
 * show a copy of a shipped drawing. The added pieces are in a category of
 * their own ("Lighting"), with a finish and a filter option the shipped
 * catalogue does not have, as a studio adding a line would write them.
 */
export async function makeSampleContent({ contentDir, outDir, products = 12, photos = 4, photoSize = { width: 4000, height: 3000 }, photoCache }) {
  await cp(contentDir, outDir, { recursive: true });
  const catalogue = JSON.parse(await readFile(join(outDir, "catalogue.json"), "utf8"));
  const drawings = catalogue.products.map((p) => p.images[0].src);
  // The studio may have added the same words itself.
  if (!catalogue.categories.some((c) => c.name === "Lighting")) catalogue.categories.push({ name: "Lighting" });
  if (!catalogue.finishes.includes("Antique Brass")) catalogue.finishes.push("Antique Brass");
  catalogue.filters.finish["Brass"] ??= ["Antique Brass"];
  await mkdir(join(outDir, "images", "photos"), { recursive: true });
  let made = 0;
  // A photograph made before under the same name and seed is copied from
  // photoCache, if given: making one takes about a second.
  const photo = async (name, options) => {
    made++;
    const src = `photos/${name}`;
    const target = join(outDir, "images", src);
    const cached = photoCache && join(photoCache, `${made}-${name}`);
    if (cached && existsSync(cached)) return cp(cached, target).then(() => src);
    await makePhoto(target, { ...photoSize, seed: made, ...options });
    if (cached) await mkdir(photoCache, { recursive: true }).then(() => cp(target, cached));
    return src;
  };
  for (let id = Math.max(...catalogue.products.map((p) => p.id)) + 1; catalogue.products.length < products; id++) {
    const name = `Lamp ${id}`;
    const images = [];
    if (made === 0 && photos >= 4) {
      images.push(await photo(`lamp-${id}-front.jpg`, {}));
      images.push(await photo(`lamp-${id}-wide.jpg`, { width: 6000, height: 4000 }));
      images.push(await photo(`lamp-${id}-portrait.jpg`, { width: photoSize.width, height: photoSize.height, orientation: 6 }));
      images.push(await photo(`lamp-${id}-detail.png`, { width: 2400, height: 1800, format: "png" }));
    } else if (made < photos) {
      images.push(await photo(`lamp-${id}.jpg`, {}));
    } else {
      const src = `photos/lamp-${id}.svg`;
      await cp(join(outDir, "images", drawings[id % drawings.length]), join(outDir, "images", src));
      images.push(src);
    }
    catalogue.products.push({
      id,
      name,
      type: "pendant lamp",
      category: "Lighting",
      material: ["Metal"],
      finish: ["Antique Brass", "Black"],
      description: `${name}, a pendant lamp in hand-beaten brass, photographed in the workshop.`,
      images: images.map((src, i) => ({ src, alt: `${name}, view ${i + 1}: a pendant lamp in hand-beaten brass` })),
    });
  }
  await writeFile(join(outDir, "catalogue.json"), JSON.stringify(catalogue, null, 2) + "\n");
  return catalogue;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { products: { type: "string", default: "12" }, photos: { type: "string", default: "4" }, cache: { type: "string" } },
  });
  if (positionals.length !== 1) {
    console.error("usage: node scripts/sample-photos.mjs OUT_CONTENT_DIR [--products N] [--photos M] [--cache DIR]");
    process.exit(2);
  }
  const contentDir = fileURLToPath(new URL("../../content", import.meta.url));
  const started = Date.now();
  const c = await makeSampleContent({ contentDir, outDir: positionals[0], products: Number(values.products), photos: Number(values.photos), photoCache: values.cache });
  console.log(`sample content: ${c.products.length} products, ${values.photos} photographs in ${positionals[0]} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

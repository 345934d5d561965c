import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { chmod, cp, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { createDeflate, crc32 } from "node:zlib";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ContentError, LADDER, MAX_BYTES, MAX_ORIGINAL_BYTES, MAX_PIXELS, NoSuchVariant, buildImages, describeImage, describeImages, encodeImages, makeVariant, placeholderClass, placeholderRule, siteImages, widthsFor } from "./images.mjs";
import { makePhoto } from "./sample-photos.mjs";

// The pipeline on a content folder written here: a fixture catalogue with
// photographs made on the spot, never the shipped content.
type Image = { src: string; alt: string };
const product = (id: number, images: Image[], extra: Record<string, unknown> = {}) => ({
  id,
  name: `Piece ${id}`,
  type: "chair",
  category: "Seatings",
  material: ["Wood"],
  finish: ["Walnut"],
  description: "A piece.",
  images,
  ...extra,
});
const catalogueWith = (products: unknown[]) => ({
  details: { dimensions: "Custom" },
  categories: [{ name: "Seatings" }, { name: "Tables" }],
  finishes: ["Walnut", "Black"],
  filters: { material: { Wood: ["Wood"], Other: ["Stone"] }, finish: { Walnut: ["Walnut"] } },
  featured: { whatsHot: [1], fresh: 1 },
  products,
});

type Made = Record<string, { width: number; height: number; src: string; avif?: string; webp?: string; placeholder?: string; og?: string }>;
// One picture of the manifest, with every field a photograph has.
const entry = (manifest: Made, src: string) => {
  const e = manifest[src];
  if (!e) throw new Error(`${src} is not in the manifest`);
  return e as Required<Made[string]>;
};
const urlOf = (candidate: string) => candidate.split(" ")[0]!;

let root: string;
let content: string;
const run = (contentDir = content, outDir = join(root, "out")) => {
  const warnings: string[] = [];
  const result = buildImages({ contentDir, outDir, cacheDir: join(root, "cache"), log: () => {}, warn: (w: string) => warnings.push(w) });
  return { result, warnings };
};
const writeCatalogue = (dir: string, products: unknown[]) => writeFile(join(dir, "catalogue.json"), JSON.stringify(catalogueWith(products)));
const problemsOf = async (promise: Promise<unknown>) => {
  const err = await promise.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(ContentError);
  return (err as ContentError).problems;
};

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "images-test-"));
  content = join(root, "content");
  await mkdir(join(content, "images", "photos"), { recursive: true });
  await makePhoto(join(content, "images", "photos", "camera.jpg"), { width: 4000, height: 3000, seed: 3 });
  // Stored landscape, shown portrait: the camera was turned (EXIF 6).
  await makePhoto(join(content, "images", "photos", "turned.jpg"), { width: 1200, height: 900, seed: 4, orientation: 6 });
  await makePhoto(join(content, "images", "photos", "small.png"), { width: 500, height: 400, seed: 5, format: "png" });
  await writeFile(join(content, "images", "drawing.svg"), '<svg xmlns="http://www.w3.org/2000/svg" width="800" height="1000"><rect width="800" height="1000" fill="#c84"/></svg>');
  await writeCatalogue(content, [
    product(1, [
      { src: "photos/camera.jpg", alt: "A chair in the workshop" },
      { src: "photos/turned.jpg", alt: "The chair from the side" },
    ]),
    product(2, [{ src: "drawing.svg", alt: "A drawing of a table" }], { category: "Tables" }),
    product(3, [{ src: "photos/small.png", alt: "A small picture" }]),
  ]);
}, 120_000);

afterAll(() => rm(root, { recursive: true, force: true }));

describe("the image pipeline", () => {
  it("makes AVIF and WebP at every width of the ladder up to the original's, a JPEG fallback and a link preview", async () => {
    const { result, warnings } = run();
    const manifest = await result;
    const photo = entry(manifest, "photos/camera.jpg");
    expect(photo).toMatchObject({ width: 4000, height: 3000 });
    expect(photo.placeholder).toMatch(/^ph-[0-7]{3}$/);
    const widths = (srcset: string) => srcset.split(", ").map((c: string) => Number(c.split(" ")[1]!.replace("w", "")));
    expect(widths(photo.avif)).toEqual(LADDER);
    expect(widths(photo.webp)).toEqual(LADDER);
    const out = join(root, "out", "public");
    for (const candidate of [...photo.avif.split(", "), ...photo.webp.split(", ")]) {
      const [url, w] = candidate.split(" ") as [string, string];
      const file = join(out, url);
      const meta = await sharp(file).metadata();
      expect(meta.width, url).toBe(Number(w.replace("w", "")));
      expect(meta.exif, `${url} keeps no metadata`).toBeUndefined();
      expect((await stat(file)).size).toBeLessThanOrEqual(MAX_BYTES);
    }
    expect(await sharp(join(out, photo.src)).metadata()).toMatchObject({ format: "jpeg", width: 960 });
    expect(await sharp(join(out, photo.og)).metadata()).toMatchObject({ format: "jpeg", width: 1200, height: 630 });
    // The file names carry the original's hash: a changed photograph is a new URL.
    expect(photo.src).toMatch(/^\/images\/photos\/camera\.[0-9a-f]{12}\.960w\.jpg$/);
    // Only a product's first picture gets a link preview.
    expect(manifest["photos/turned.jpg"]?.og).toBeUndefined();
    // The small PNG is made at its own width, and the build warns about it, naming the product and the file.
    expect(widths(entry(manifest, "photos/small.png").webp).at(-1)).toBe(500);
    expect(warnings).toEqual([expect.stringMatching(/product 3 \(Piece 3\): content\/images\/photos\/small\.png is 500 px wide/)]);
  }, 120_000);

  it("applies the EXIF orientation: a turned photograph is portrait", async () => {
    const manifest = await run().result;
    const turned = entry(manifest, "photos/turned.jpg");
    expect([turned.width, turned.height]).toEqual([900, 1200]);
    const first = urlOf(turned.webp.split(", ").at(-1)!);
    const meta = await sharp(join(root, "out", "public", first)).metadata();
    expect(meta.height).toBeGreaterThan(meta.width!);
  }, 60_000);

  it("keeps a drawing as SVG, with its size, and makes its link preview", async () => {
    const manifest = await run().result;
    const drawing = entry(manifest, "drawing.svg");
    expect(drawing).toMatchObject({ width: 800, height: 1000 });
    expect(drawing.src).toMatch(/^\/images\/drawing\.[0-9a-f]{12}\.svg$/);
    expect(manifest["drawing.svg"]?.avif).toBeUndefined();
    expect(await readFile(join(root, "out", "public", drawing.src), "utf8")).toContain("<svg");
    expect(await sharp(join(root, "out", "public", drawing.og)).metadata()).toMatchObject({ width: 1200, height: 630 });
  }, 60_000);

  it("makes a picture uploaded in a drawing's place as it makes the hero; the site's own drawings are left to the site", async () => {
    const dir = await mkdtemp(join(root, "drawings-"));
    await cp(content, dir, { recursive: true });
    await mkdir(join(dir, "images", "pages"));
    await makePhoto(join(dir, "images", "pages", "home-craft-3f9a1c.jpg"), { width: 1500, height: 1000, seed: 12 });
    const pages = { home: { hero: { src: "photos/camera.jpg" }, craft: { image: "pages/home-craft-3f9a1c.jpg" }, disciplines: [{ image: "/images/craft.svg" }] } };
    await writeFile(join(dir, "pages.json"), JSON.stringify(pages));
    const extra = await siteImages(dir);
    expect(extra.map((e: { src: string }) => e.src)).toEqual(["photos/camera.jpg", "pages/home-craft-3f9a1c.jpg"]);
    const manifest = await buildImages({ contentDir: dir, outDir: join(dir, "out"), cacheDir: join(root, "cache"), extra, log: () => {}, warn: () => {} });
    const made = entry(manifest, "pages/home-craft-3f9a1c.jpg");
    expect([made.width, made.height]).toEqual([1500, 1000]);
    expect(made.avif).toMatch(/\.avif 1500w$/);
    expect(manifest["/images/craft.svg"]).toBeUndefined();
  }, 120_000);

  it("says how many new pictures it has made, as it makes them, and none when all were made before", async () => {
    const dir = await mkdtemp(join(root, "count-"));
    await mkdir(join(dir, "images"));
    const images = [1, 2].map((n) => ({ src: `new-${n}.jpg`, alt: `new ${n}` }));
    for (const [n, image] of images.entries()) await makePhoto(join(dir, "images", image.src), { width: 900, height: 600, seed: 40 + n });
    // The same bytes twice: one picture to make, not two.
    await cp(join(dir, "images", "new-1.jpg"), join(dir, "images", "same-as-1.jpg"));
    await writeCatalogue(dir, [product(1, images), product(2, [{ src: "same-as-1.jpg", alt: "again" }])]);
    const cacheDir = await mkdtemp(join(root, "count-cache-"));
    const build = async () => {
      const lines: string[] = [];
      await buildImages({ contentDir: dir, outDir: join(dir, "out"), cacheDir, log: (line: string) => lines.push(line), warn: () => {} });
      return lines.filter((line) => /^images: made /.test(line));
    };
    expect(await build()).toEqual(["images: made 0 of 2 pictures", "images: made 1 of 2 pictures", "images: made 2 of 2 pictures"]);
    expect(await build()).toEqual([]);
  }, 120_000);

  it("re-encodes only the picture that changed", async () => {
    await run().result;
    const cache = join(root, "cache");
    // A folder per original encoded (beside them, the originals' hashes).
    const encoded = async () => (await readdir(cache, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
    const before = new Map<string, number>();
    for (const dir of await encoded()) before.set(dir, (await stat(join(cache, dir, "meta.json"))).mtimeMs);
    await makePhoto(join(content, "images", "photos", "turned.jpg"), { width: 1200, height: 900, seed: 40, orientation: 6 });
    await run().result;
    const after = await encoded();
    const added = after.filter((d) => !before.has(d));
    expect(added).toHaveLength(1);
    for (const [dir, mtime] of before) expect((await stat(join(cache, dir, "meta.json"))).mtimeMs, dir).toBe(mtime);
  }, 60_000);

  it("writes a placeholder rule per colour, as a stylesheet rule (no inline style)", () => {
    expect(placeholderClass({ r: 255, g: 0, b: 128 })).toBe("ph-704");
    expect(placeholderRule("ph-704")).toBe("img.ph-704{background-color:#ff0092}");
  });

  it("the site's stylesheet has the rule of every colour a picture may have (the bundle is the same for any content)", async () => {
    const css = await readFile(new URL("../app/styles/placeholders.css", import.meta.url), "utf8");
    const digits = [0, 1, 2, 3, 4, 5, 6, 7];
    for (const r of digits) for (const g of digits) for (const b of digits) expect(css).toContain(placeholderRule(`ph-${r}${g}${b}`));
  });

  it("widths: the ladder below the original, then the original (or the ladder's top)", () => {
    expect(widthsFor(100)).toEqual([96, 100]);
    expect(widthsFor(1000)).toEqual([96, 160, 320, 480, 640, 960, 1000]);
    expect(widthsFor(9000)).toEqual(LADDER);
  });
});

// A greyscale PNG of width × height black pixels, written by hand row by
// row: a small file (a few hundred KB) that decodes into width × height
// bytes, made without holding them.
async function blackPng(width: number, height: number) {
  const row = Buffer.alloc(width + 1); // filter "none", then the row's pixels
  const rows = function* () {
    for (let y = 0; y < height; y++) yield row;
  };
  const idat = await buffer(Readable.from(rows()).pipe(createDeflate({ level: 1 })));
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13); // then 8 bits a pixel, greyscale
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  return Buffer.concat([Buffer.from("\x89PNG\r\n\x1a\n", "latin1"), chunk("IHDR", header), chunk("IDAT", idat), chunk("IEND", Buffer.alloc(0))]);
}

describe("bad content stops the build with one line per problem, and writes nothing", () => {
  it.each<[string, (dir: string) => Promise<void>, RegExp]>([
    ["a missing file", (dir) => writeCatalogue(dir, [product(1, [{ src: "photos/gone.jpg", alt: "Gone" }])]), /product 1 \(Piece 1\): images\[0\]\.src: content\/images\/photos\/gone\.jpg does not exist/],
    ["an unsupported format", async (dir) => {
      await writeFile(join(dir, "images", "anim.gif"), "GIF89a");
      await writeCatalogue(dir, [product(1, [{ src: "anim.gif", alt: "A GIF" }])]);
    }, /product 1 \(Piece 1\): images\[0\]\.src: anim\.gif: not a JPEG, PNG, WebP, AVIF or SVG file/],
    ["a corrupt image", async (dir) => {
      await writeFile(join(dir, "images", "broken.jpg"), "this is not a JPEG");
      await writeCatalogue(dir, [product(1, [{ src: "broken.jpg", alt: "Broken" }])]);
    }, /content\/images\/broken\.jpg: product 1 \(Piece 1\): cannot be read as an image/],
    ["a photograph over the largest size taken", async (dir) => {
      // A sparse file: its size is what is checked, before it is read.
      await truncate(join(dir, "images", "photos", "camera.jpg"), MAX_ORIGINAL_BYTES + 2 ** 20);
    }, /content\/images\/photos\/camera\.jpg: product 1 \(Piece 1\): 31\.0 MB; an original may be at most 30 MB/],
    ["a picture of more pixels than a photograph may have", async (dir) => {
      // Just over the limit the workspace's uploads are held to too.
      await writeFile(join(dir, "images", "bomb.png"), await blackPng(10_000, Math.floor(MAX_PIXELS / 10_000) + 1));
      await writeCatalogue(dir, [product(1, [{ src: "bomb.png", alt: "Black" }])]);
    }, new RegExp(`content/images/bomb\\.png: product 1 \\(Piece 1\\): 10000 × ${Math.floor(MAX_PIXELS / 10_000) + 1} pixels; a photograph may have at most ${MAX_PIXELS / 1e6} megapixels`)],
    ["a duplicate src", (dir) => writeCatalogue(dir, [product(1, [{ src: "drawing.svg", alt: "A" }]), product(2, [{ src: "drawing.svg", alt: "B" }])]), /product 2 \(Piece 2\): images\[0\]\.src: drawing\.svg is already used by product 1 images\[0\]/],
    ["an empty alt text", (dir) => writeCatalogue(dir, [product(1, [{ src: "drawing.svg", alt: " " }])]), /product 1 \(Piece 1\): images\[0\]\.alt: the image drawing\.svg needs alt text/],
    ["no image", (dir) => writeCatalogue(dir, [product(1, [])]), /product 1 \(Piece 1\): images: a product needs at least one image/],
    ["an unknown category", (dir) => writeCatalogue(dir, [product(1, [{ src: "drawing.svg", alt: "A" }], { category: "Beds" })]), /product 1 \(Piece 1\): category: "Beds" is not one of "categories"/],
    ["an unknown finish", (dir) => writeCatalogue(dir, [product(1, [{ src: "drawing.svg", alt: "A" }], { finish: ["Gold"] })]), /product 1 \(Piece 1\): finish: "Gold" is not in "finishes"/],
    ["a material in no filter group", (dir) => writeCatalogue(dir, [product(1, [{ src: "drawing.svg", alt: "A" }], { material: ["Glass"] })]), /product 1 \(Piece 1\): material: "Glass" is in no group of "filters.material"/],
    ["an id used twice", (dir) => writeCatalogue(dir, [product(1, [{ src: "drawing.svg", alt: "A" }]), product(1, [{ src: "photos/small.png", alt: "B" }])]), /product 1 \(Piece 1\): id: 1 is used by another product/],
    ["a featured piece that does not exist", (dir) => writeCatalogue(dir, [product(7, [{ src: "drawing.svg", alt: "A" }])]), /featured: product 1 is not in the catalogue/],
  ])("%s", async (_, spoil, want) => {
    const dir = await mkdtemp(join(root, "bad-"));
    await cp(content, dir, { recursive: true });
    await spoil(dir);
    const outDir = join(dir, "out");
    await mkdir(outDir);
    await writeFile(join(outDir, "images.json"), "{}");
    const problems = await problemsOf(run(dir, outDir).result);
    expect(problems.every((p: string) => p.startsWith("content/"))).toBe(true);
    expect(problems.join("\n")).toMatch(want);
    expect(await readdir(outDir)).toEqual(["images.json"]);
    expect(await readFile(join(outDir, "images.json"), "utf8")).toBe("{}");
  }, 60_000);
});

// A path the content names that leads out of content/images/: the build
// once read the file there and wrote its resized copies beside it.
describe("a picture outside content/images/ is refused, and nothing is read or written outside the build", () => {
  const trial = `x/${"../".repeat(20)}tmp/secret/secret-plan.jpg`;
  // A copy of the content, beside it a folder outside it holding a real
  // photograph (what the build would read, and write beside); the build's
  // problems, and what the outside folder and the output hold after.
  const attempt = async (spoil: (dir: string) => Promise<void>) => {
    const dir = await mkdtemp(join(root, "outside-"));
    await cp(content, join(dir, "content"), { recursive: true });
    await mkdir(join(dir, "outside"));
    await makePhoto(join(dir, "outside", "secret-plan.jpg"), { width: 800, height: 600, seed: 11 });
    await writeFile(join(dir, "content", "pages.json"), JSON.stringify({ home: { hero: { src: "photos/camera.jpg" } } }));
    await spoil(join(dir, "content"));
    const outDir = join(dir, "out");
    await mkdir(outDir);
    await writeFile(join(outDir, "images.json"), "{}");
    const contentDir = join(dir, "content");
    const result = buildImages({ contentDir, outDir, cacheDir: join(dir, "cache"), extra: await siteImages(contentDir), log: () => {}, warn: () => {} });
    const problems = await problemsOf(result);
    return { problems, outside: await readdir(join(dir, "outside")), out: await readdir(outDir), cache: existsSync(join(dir, "cache")) };
  };
  const hero = (src: string) => (dir: string) => writeFile(join(dir, "pages.json"), JSON.stringify({ home: { hero: { src } } }));
  const inCraft = (image: string) => (dir: string) => writeFile(join(dir, "pages.json"), JSON.stringify({ home: { hero: { src: "photos/camera.jpg" }, craft: { image } } }));

  it("the trial's hero, as it was typed", async () => {
    const secret = "/tmp/secret";
    const before = existsSync(secret) ? await readdir(secret) : null;
    const { problems, out, cache } = await attempt(hero(trial));
    expect(problems).toEqual([`content/pages.json: home.hero.src: "${trial}" has a . or .. folder in it: the path must stay inside content/images/, like products/chair.jpg`]);
    expect(out).toEqual(["images.json"]);
    expect(cache, "nothing was encoded").toBe(false);
    expect(existsSync(secret) ? await readdir(secret) : null).toEqual(before);
  }, 60_000);

  it.each<[string, (dir: string) => Promise<void>, string]>([
    ["the hero", hero("x/../../outside/secret-plan.jpg"), `content/pages.json: home.hero.src: "x/../../outside/secret-plan.jpg" has a . or .. folder in it`],
    ["a product's photograph", (dir) => writeCatalogue(dir, [product(1, [{ src: "x/../../outside/secret-plan.jpg", alt: "A secret" }])]), `content/catalogue.json: product 1 (Piece 1): images[0].src: "x/../../outside/secret-plan.jpg" has a . or .. folder in it`],
    ["the hero from its absolute path", async (dir) => hero(join(dir, "..", "outside", "secret-plan.jpg"))(dir), `content/pages.json: home.hero.src: "/`],
    ["a picture in a drawing's place", async (dir) => inCraft("x/../../outside/secret-plan.jpg")(dir), `content/pages.json: home.craft.image: "x/../../outside/secret-plan.jpg" has a . or .. folder in it`],
    ["an SVG of the content in a drawing's place", async (dir) => inCraft("drawing.svg")(dir), `content/pages.json: home.craft.image: "drawing.svg" is not one of the site's drawings`],
    ["a symbolic link to it", async (dir) => {
      await symlink(join(dir, "..", "outside", "secret-plan.jpg"), join(dir, "images", "photos", "linked.jpg"));
      await writeCatalogue(dir, [product(1, [{ src: "photos/linked.jpg", alt: "A link" }])]);
    }, "content/catalogue.json: product 1 (Piece 1): images[0].src: content/images/photos/linked.jpg leads outside content/images/"],
  ])("%s", async (_, spoil, want) => {
    const { problems, outside, out, cache } = await attempt(spoil);
    expect(problems).toEqual([expect.stringContaining(want)]);
    expect(outside, "the folder outside holds only what was there").toEqual(["secret-plan.jpg"]);
    expect(out).toEqual(["images.json"]);
    expect(cache, "nothing was encoded").toBe(false);
  }, 60_000);
});

// The cache's files are linked into every build and release that serves
// them: damaged through one release's link, they must not reach the next.
describe("a damaged image cache is encoded again, never linked into a new build", () => {
  let dir: string;
  const cacheDir = () => join(dir, "cache");
  const build = (out: string, warnings: string[] = []) =>
    buildImages({ contentDir: join(dir, "content"), outDir: join(dir, out), cacheDir: cacheDir(), log: () => {}, warn: (w: string) => warnings.push(w) });
  // The 320-pixel AVIF of the photograph: its public file and its cache file.
  const variant = async (manifest: Made, out: string) => {
    const url = urlOf(entry(manifest, "photos/chair.jpg").avif.split(", ").find((c) => c.endsWith(" 320w"))!);
    const hash = url.split(".").at(-3)!;
    return { file: join(dir, out, "public", url), cached: join(cacheDir(), hash, "w.320.avif"), entry: join(cacheDir(), hash) };
  };
  const sameInode = async (a: string, b: string) => (await stat(a)).ino === (await stat(b)).ino;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "images-damage-"));
    await mkdir(join(dir, "content", "images", "photos"), { recursive: true });
    await makePhoto(join(dir, "content", "images", "photos", "chair.jpg"), { width: 1000, height: 750, seed: 9 });
    await writeCatalogue(join(dir, "content"), [product(1, [{ src: "photos/chair.jpg", alt: "A chair" }])]);
  }, 60_000);
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("keeps its files read-only, each with its size and SHA-256 in meta.json", async () => {
    const manifest = await build("first");
    const { cached, entry: folder } = await variant(manifest, "first");
    const meta = JSON.parse(await readFile(join(folder, "meta.json"), "utf8"));
    const body = await readFile(cached);
    expect(meta.files["w.320.avif"]).toEqual({ size: body.length, sha256: createHash("sha256").update(body).digest("hex") });
    for (const name of await readdir(folder)) expect(((await stat(join(folder, name))).mode & 0o777).toString(8), name).toBe("444");
  }, 60_000);

  it.each<[string, (file: string) => Promise<void>]>([
    ["truncated to 100 bytes", (file) => truncate(file, 100)],
    ["a byte changed", async (file) => {
      const body = await readFile(file);
      const at = body.length >> 1;
      body[at] = body[at]! ^ 0x20;
      await writeFile(file, body); // through the link: the same file
    }],
    ["written over", (file) => writeFile(file, "not an image")],
  ])("a variant %s through a release's link", async (_, damage) => {
    const release = `release-${Math.random().toString(36).slice(2)}`;
    const made = await build(release);
    const { file, cached } = await variant(made, release);
    expect(await sameInode(file, cached)).toBe(true); // linked, not copied: the damage reaches the cache
    const good = await readFile(file);
    await chmod(file, 0o644);
    await damage(file);
    expect((await readFile(cached)).equals(good)).toBe(false);

    const warnings: string[] = [];
    const next = `next-${release}`;
    const manifest = await build(next, warnings);
    const now = await variant(manifest, next);
    expect(warnings).toEqual([expect.stringMatching(/content\/images\/photos\/chair\.jpg .*failed its check: w\.320\.avif/)]);
    expect(await sameInode(now.file, file), "the new build links the damaged release's file").toBe(false);
    expect(await readFile(now.file)).toEqual(good); // encoded again, as it was
    expect(await sharp(now.file).metadata()).toMatchObject({ format: "heif", width: 320 });
    expect((await stat(now.file)).mode & 0o777).toBe(0o444);
    expect((await readFile(file)).equals(good), "the damaged release still has its damaged file").toBe(false);
    // Whole again, the entry is used as it is.
    const again: string[] = [];
    const after = await variant(await build(`${next}-again`, again), `${next}-again`);
    expect(again).toEqual([]);
    expect(await sameInode(after.file, now.file)).toBe(true);
  }, 60_000);

  it.each<[string, (folder: string, cached: string) => Promise<void>, RegExp]>([
    ["a variant missing", (_, cached) => rm(cached), /w\.320\.avif: ENOENT/],
    ["meta.json that is not JSON", (folder) => rm(join(folder, "meta.json")).then(() => writeFile(join(folder, "meta.json"), '{"width":')), /meta\.json: /],
    ["meta.json without the files' hashes", async (folder) => {
      const meta = JSON.parse(await readFile(join(folder, "meta.json"), "utf8"));
      delete meta.files;
      await rm(join(folder, "meta.json"));
      await writeFile(join(folder, "meta.json"), JSON.stringify(meta));
    }, /lists no sizes and hashes/],
  ])("%s: the entry is encoded again", async (_, damage, want) => {
    const { cached, entry: folder } = await variant(await build("before"), "before");
    await damage(folder, cached);
    const warnings: string[] = [];
    const now = await variant(await build("after", warnings), "after");
    expect(warnings).toEqual([expect.stringMatching(want)]);
    expect(await sharp(now.file).metadata()).toMatchObject({ width: 320 });
    expect(JSON.parse(await readFile(join(folder, "meta.json"), "utf8")).files["w.320.avif"].size).toBe((await stat(now.file)).size);
  }, 60_000);

  it("a hashes.json that is not whole is read again from the originals", async () => {
    await build("before");
    await rm(join(cacheDir(), "hashes.json"));
    await writeFile(join(cacheDir(), "hashes.json"), '{"a":');
    const manifest = await build("after");
    expect(entry(manifest, "photos/chair.jpg").width).toBe(1000);
  }, 60_000);
});

// A preview renders its pages from a manifest made without encoding
// anything, then asks for each variant alone; an upload has its entry made
// before the publish that needs it.
describe("images for a preview and for an upload", () => {
  let dir: string;
  let contentDir: string;
  const cacheOf = (name: string) => join(dir, name);
  const fullBuild = (outDir: string, cacheDir = cacheOf("cache")) =>
    siteImages(contentDir).then((extra) => buildImages({ contentDir, outDir, cacheDir, extra, log: () => {}, warn: () => {} }));
  const entries = async (cacheDir: string) =>
    existsSync(cacheDir) ? (await readdir(cacheDir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name) : [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "images-preview-"));
    contentDir = join(dir, "content");
    await cp(content, contentDir, { recursive: true });
    // The hero is a product's second picture: it gets a link preview of its own.
    await writeFile(join(contentDir, "pages.json"), JSON.stringify({ home: { hero: { src: "photos/turned.jpg" } } }));
  }, 60_000);
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("describeImages writes the manifest a full build writes, encoding nothing, before and after the build", async () => {
    const before = join(dir, "described-before");
    const described = await describeImages({ contentDir, generatedDir: before, cacheDir: cacheOf("cache") });
    expect(await entries(cacheOf("cache")), "nothing was encoded").toEqual([]);
    expect(await readdir(before)).toEqual(["images.json"]);

    const built = await fullBuild(join(dir, "built"));
    expect(described).toEqual(built);
    const text = await readFile(join(dir, "built", "images.json"), "utf8");
    expect(await readFile(join(before, "images.json"), "utf8")).toBe(text);
    // From the cache's entries now.
    const after = join(dir, "described-after");
    await describeImages({ contentDir, generatedDir: after, cacheDir: cacheOf("cache") });
    expect(await readFile(join(after, "images.json"), "utf8")).toBe(text);
  }, 120_000);

  it("describeImages keeps what it described of originals the cache has no entry for (described.json), read back after a start, a damaged file read as none", async () => {
    const cache = cacheOf("cache-described");
    const first = await describeImages({ contentDir, generatedDir: join(dir, "described-1"), cacheDir: cache });
    const drawing = entry(first, "drawing.svg");
    const hash = /\.([0-9a-f]{12})\./.exec(drawing.src)![1]!;
    const kept = JSON.parse(await readFile(join(cache, "described.json"), "utf8"));
    expect(kept[hash]).toMatchObject({ width: drawing.width, height: drawing.height, svg: true });

    // Read back, not described again: what the file says is what comes out
    // (another cache first, as another start would).
    kept[hash].width = 123;
    await writeFile(join(cache, "described.json"), JSON.stringify(kept));
    await describeImages({ contentDir, generatedDir: join(dir, "described-other"), cacheDir: cacheOf("cache-described-other") });
    const readBack = await describeImages({ contentDir, generatedDir: join(dir, "described-2"), cacheDir: cache });
    expect(entry(readBack, "drawing.svg").width).toBe(123);

    await writeFile(join(cache, "described.json"), "{ not whole");
    await describeImages({ contentDir, generatedDir: join(dir, "described-other"), cacheDir: cacheOf("cache-described-other") });
    const again = await describeImages({ contentDir, generatedDir: join(dir, "described-3"), cacheDir: cache });
    expect(again).toEqual(first);
  }, 120_000);

  it("describeImage says what the full encode's meta.json says, a drawing told by its name or its bytes", async () => {
    const manifest = await fullBuild(join(dir, "described-one"));
    for (const [src, ext] of [["photos/camera.jpg", ".jpg"], ["photos/turned.jpg", undefined], ["drawing.svg", ".svg"], ["drawing.svg", undefined]] as const) {
      const hash = /\.([0-9a-f]{12})\./.exec(entry(manifest, src).src)![1]!;
      const { og: _og, files: _files, ...meta } = JSON.parse(await readFile(join(cacheOf("cache"), hash, "meta.json"), "utf8"));
      const { dominant, ...described } = await describeImage(await readFile(join(contentDir, "images", src)), ext);
      expect(described, src).toEqual(meta);
      expect(dominant).toMatchObject({ r: expect.any(Number), g: expect.any(Number), b: expect.any(Number) });
    }
  }, 60_000);

  it("describeImages stops on the content's problems as the build does", async () => {
    const bad = await mkdtemp(join(dir, "bad-"));
    await cp(contentDir, bad, { recursive: true });
    await writeFile(join(bad, "images", "broken.jpg"), "this is not a JPEG");
    await writeCatalogue(bad, [product(1, [{ src: "broken.jpg", alt: "Broken" }])]);
    const problems = await problemsOf(describeImages({ contentDir: bad, generatedDir: join(bad, "gen"), cacheDir: cacheOf("cache-bad") }));
    expect(problems).toEqual([expect.stringMatching(/^content\/images\/broken\.jpg: product 1 \(Piece 1\): cannot be read as an image/)]);
    expect(existsSync(join(bad, "gen", "images.json"))).toBe(false);
  }, 60_000);

  it("makeVariant makes one variant alone with the bytes the full encode makes", async () => {
    const manifest = await fullBuild(join(dir, "full"));
    const turned = entry(manifest, "photos/turned.jpg");
    const camera = entry(manifest, "photos/camera.jpg");
    const names = [
      ...turned.avif.split(", ").map(urlOf),
      ...turned.webp.split(", ").map(urlOf),
      turned.src,
      turned.og,
      urlOf(camera.avif.split(", ")[0]!),
      camera.src,
      camera.og,
      entry(manifest, "drawing.svg").src,
      entry(manifest, "drawing.svg").og,
    ];
    const outDir = join(dir, "variants");
    const cacheDir = cacheOf("cache-alone"); // empty: each variant is encoded, not linked
    for (const name of names) {
      const file = await makeVariant({ contentDir, cacheDir, name, outDir });
      expect(file).toBe(join(outDir, name.replace(/^\/images\//, "")));
      expect((await readFile(file)).equals(await readFile(join(dir, "full", "public", name))), name).toBe(true);
    }
    expect(await entries(cacheDir), "makeVariant fills no cache entry").toEqual([]);
  }, 120_000);

  it("makeVariant links a variant the image cache holds whole, and answers one made before as it is", async () => {
    const manifest = await fullBuild(join(dir, "linked-build"));
    const name = urlOf(entry(manifest, "photos/camera.jpg").webp.split(", ")[2]!);
    const outDir = join(dir, "linked");
    const file = await makeVariant({ contentDir, cacheDir: cacheOf("cache"), name: name.replace(/^\/images\//, ""), outDir });
    expect((await stat(file)).ino).toBe((await stat(join(dir, "linked-build", "public", name))).ino);
    expect(await makeVariant({ contentDir, cacheDir: cacheOf("cache"), name, outDir })).toBe(file);
  }, 60_000);

  it("makeVariant refuses any name that is not one of the content's variants, and writes nothing", async () => {
    const manifest = await fullBuild(join(dir, "refusals"));
    const camera = entry(manifest, "photos/camera.jpg");
    const hash = camera.src.split(".").at(-3)!;
    const outDir = join(dir, "refused");
    const names = [
      "../../etc/passwd",
      "/etc/passwd",
      `photos/../photos/camera.${hash}.320w.avif`,
      `/images/photos/camera.${hash}.321w.avif`, // no such width
      `/images/photos/camera.${hash}.320w.png`,
      `/images/photos/camera.${hash}.1280w.jpg`, // the fallback is 960w
      `/images/photos/camera.${"0".repeat(12)}.320w.avif`, // another hash
      `/images/photos/camera.${hash}.320w.avif/x`,
      `/images/photos/camera.${hash}.320w.avif\u0000`,
      `/images/photos\\camera.${hash}.320w.avif`,
      "",
    ];
    // With the hero another picture, turned.jpg is a product's second picture: no link preview.
    const other = await mkdtemp(join(dir, "other-hero-"));
    await cp(contentDir, other, { recursive: true });
    await writeFile(join(other, "pages.json"), JSON.stringify({ home: { hero: { src: "photos/camera.jpg" } } }));
    const tries: [string, string][] = [...names.map((n): [string, string] => [contentDir, n]), [other, entry(manifest, "photos/turned.jpg").og]];
    for (const [from, name] of tries) {
      const err = await makeVariant({ contentDir: from, cacheDir: cacheOf("cache"), name, outDir }).then(() => null, (e: unknown) => e);
      expect(err, JSON.stringify(name)).toBeInstanceOf(NoSuchVariant);
      expect((err as Error).message).toContain(JSON.stringify(name));
    }
    expect(existsSync(outDir), "nothing was written").toBe(false);
  }, 60_000);

  it("encodeImages fills the image cache as a build would: the build after encodes nothing", async () => {
    const upload = await mkdtemp(join(dir, "upload-"));
    await cp(contentDir, upload, { recursive: true });
    await makePhoto(join(upload, "images", "photos", "new.jpg"), { width: 1600, height: 1200, seed: 21 });
    await makePhoto(join(upload, "images", "photos", "later.jpg"), { width: 1000, height: 750, seed: 22 });
    const cacheDir = cacheOf("cache-upload");
    await fullBuild(join(upload, "out-before"), cacheDir);
    const catalogue = JSON.parse(await readFile(join(upload, "catalogue.json"), "utf8"));
    catalogue.products[2].images.push({ src: "photos/new.jpg", alt: "A new picture" });
    await writeFile(join(upload, "catalogue.json"), JSON.stringify(catalogue));
    const before = new Set(await entries(cacheDir));
    // later.jpg is not in the content yet: it gets its link preview, to become a first picture.
    await encodeImages({ contentDir: upload, cacheDir, srcs: ["photos/new.jpg", "photos/later.jpg"], warn: () => {} });
    const made = (await entries(cacheDir)).filter((e) => !before.has(e));
    expect(made).toHaveLength(2);
    const stamps = async () => Promise.all(made.map(async (e) => (await stat(join(cacheDir, e, "meta.json"))).mtimeMs));
    const stamped = await stamps();

    catalogue.products[2].images.unshift({ src: "photos/later.jpg", alt: "Made first" });
    await writeFile(join(upload, "catalogue.json"), JSON.stringify(catalogue));
    const manifest = await siteImages(upload).then((extra) => buildImages({ contentDir: upload, outDir: join(upload, "out"), cacheDir, extra, log: () => {}, warn: () => {} }));
    expect(entry(manifest, "photos/later.jpg").og).toMatch(/\.og\.jpg$/);
    expect(await stamps(), "the build used the entries made at upload").toEqual(stamped);
    expect((await entries(cacheDir)).filter((e) => !before.has(e)).sort()).toEqual([...made].sort());
  }, 120_000);

  it("a picture that becomes a product's first keeps its encoded files: only its link preview is made", async () => {
    const moved = await mkdtemp(join(dir, "moved-"));
    await cp(contentDir, moved, { recursive: true });
    await writeFile(join(moved, "pages.json"), JSON.stringify({ home: { hero: { src: "photos/camera.jpg" } } }));
    const cacheDir = cacheOf("cache-moved");
    const build = (out: string) => siteImages(moved).then((extra) => buildImages({ contentDir: moved, outDir: join(moved, out), cacheDir, extra, log: () => {}, warn: () => {} }));
    const before = await build("before");
    expect(before["photos/turned.jpg"]?.og).toBeUndefined();
    const catalogue = JSON.parse(await readFile(join(moved, "catalogue.json"), "utf8"));
    catalogue.products[0].images.reverse();
    await writeFile(join(moved, "catalogue.json"), JSON.stringify(catalogue));
    const after = await build("after");
    const turned = entry(after, "photos/turned.jpg");
    for (const name of [...turned.avif.split(", ").map(urlOf), turned.src]) {
      expect((await stat(join(moved, "after", "public", name))).ino, name).toBe((await stat(join(moved, "before", "public", name))).ino);
    }
    expect(await sharp(join(moved, "after", "public", turned.og)).metadata()).toMatchObject({ width: 1200, height: 630 });
    // The entry is whole: the next build uses it as it is.
    const warnings: string[] = [];
    await siteImages(moved).then((extra) => buildImages({ contentDir: moved, outDir: join(moved, "again"), cacheDir, extra, log: () => {}, warn: (w: string) => warnings.push(w) }));
    expect(warnings.filter((w) => w.includes("failed its check"))).toEqual([]);
    expect((await stat(join(moved, "again", "public", turned.og))).ino).toBe((await stat(join(moved, "after", "public", turned.og))).ino);
  }, 60_000);

  it("encodeImages makes an upload's entry from a folder holding only it (no catalogue yet), link preview included", async () => {
    const alone = await mkdtemp(join(dir, "alone-"));
    await mkdir(join(alone, "images"));
    await makePhoto(join(alone, "images", "3f9a1c.jpg"), { width: 1000, height: 750, seed: 23 });
    const cacheDir = cacheOf("cache-alone-upload");
    await encodeImages({ contentDir: alone, cacheDir, srcs: ["3f9a1c.jpg"], warn: () => {} });
    const [made, ...more] = await entries(cacheDir);
    expect(more).toEqual([]);
    const meta = JSON.parse(await readFile(join(cacheDir, made!, "meta.json"), "utf8"));
    expect(meta).toMatchObject({ width: 1000, height: 750, og: true });
    expect(Object.keys(meta.files)).toContain("og.jpg");
  }, 60_000);

  it("encodeImages says which upload it could not make, and makes the others", async () => {
    const cacheDir = cacheOf("cache-bad-upload");
    const problems = await problemsOf(encodeImages({ contentDir, cacheDir, srcs: ["photos/gone.jpg", "../outside.jpg", "drawing.svg"], warn: () => {} }));
    expect(problems).toEqual([
      "content/images/photos/gone.jpg: does not exist, or leads outside content/images/",
      expect.stringContaining('"../outside.jpg" has a . or .. folder in it'),
    ]);
    expect(await entries(cacheDir)).toHaveLength(1);
  }, 60_000);
});

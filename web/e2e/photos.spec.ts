import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import sharp from "sharp";
import type { CatalogueFile } from "../app/lib/catalogue";
import { DEFAULT_LIST_STATE, listPath } from "../app/lib/filters";
import { test, expect, hydrated, nextFrames } from "./fixtures";

// The site with camera-sized photographs (scripts/photo-site.sh, built by
// `make test-e2e`): its catalogue adds pieces whose pictures are 4000×3000
// and 6000×4000 JPEGs, a portrait turned by its EXIF tag and a PNG.
const catalogue: CatalogueFile = JSON.parse(readFileSync(join(process.env.E2E_PHOTO_SITE!, "content", "catalogue.json"), "utf8"));
const photographed = catalogue.products.filter((p) => p.images.some((i) => /\.(jpe?g|png|webp|avif)$/i.test(i.src)));
// The piece with the most photographs shows the whole gallery.
const gallery = [...photographed].sort((a, b) => b.images.length - a.images.length)[0]!;
const KB = 1024;
// The tab the photographed pieces are listed under.
const galleryTab = catalogue.categories.find((c) => c.name === gallery.category)!.tabs?.[0] ?? gallery.category;
const galleryList = listPath({ ...DEFAULT_LIST_STATE, category: galleryTab });
const cardOf = (page: Page, scope: Page | ReturnType<Page["locator"]>, name: string) =>
  scope.getByRole("link").filter({ has: page.getByRole("heading", { name, exact: true }) });

// Every raster picture the page has loaded: its file's width (the
// pipeline names each file by it), and the width it is shown at, in device
// pixels, with what a cropping frame (object-fit: cover) cuts off counted.
async function loadedPictures(page: Page) {
  return page.locator("img").evaluateAll((imgs) =>
    imgs
      .map((el) => {
        const img = el as HTMLImageElement;
        const fileWidth = Number(/\.(\d+)w\.(avif|webp|jpg)$/.exec(img.currentSrc)?.[1] ?? 0);
        if (!img.complete || !fileWidth || img.naturalWidth === 0) return null;
        const box = img.getBoundingClientRect();
        const aspect = img.naturalWidth / img.naturalHeight;
        const fit = getComputedStyle(img).objectFit;
        const contentWidth = fit === "cover" ? Math.max(box.width, box.height * aspect) : fit === "contain" ? Math.min(box.width, box.height * aspect) : box.width;
        return { src: img.currentSrc, className: img.className, fileWidth, shownWidth: contentWidth * devicePixelRatio };
      })
      .filter((p) => p !== null),
  );
}

// Loads every lazy picture of the page by scrolling through it.
async function scrollThrough(page: Page) {
  const height = await page.evaluate(() => document.body.scrollHeight);
  for (let y = 0; y < height; y += 400) {
    await page.evaluate((top) => window.scrollTo({ top, behavior: "instant" }), y);
    await nextFrames(page);
  }
  await page.waitForLoadState("networkidle");
}

// The bytes of each image response, by URL.
function imageBytes(page: Page): Map<string, number> {
  const sizes = new Map<string, number>();
  page.on("response", async (res) => {
    if (res.request().resourceType() !== "image") return;
    const body = await res.body().catch(() => null);
    if (body) sizes.set(new URL(res.url()).pathname, body.length);
  });
  return sizes;
}

test("the gallery shows the product's own photographs, in order, and the first is the page's priority", async ({ page }) => {
  await page.goto(`/product/${gallery.id}`);
  await hydrated(page);
  const main = page.locator(".gallery__image");
  await expect(main).toHaveAttribute("alt", gallery.images[0]!.alt);
  await expect(main).toHaveAttribute("fetchpriority", "high");
  await expect(main).not.toHaveAttribute("loading", "lazy");
  const thumbs = page.getByRole("button", { name: new RegExp(`^Image \\d+ of ${gallery.images.length}$`) });
  await expect(thumbs).toHaveCount(gallery.images.length);
  for (const [i, image] of gallery.images.entries()) {
    await page.getByRole("button", { name: `Image ${i + 1} of ${gallery.images.length}` }).click();
    await expect(main).toHaveAttribute("alt", image.alt);
    await expect.poll(() => main.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0 && img.currentSrc)).toMatch(/\.avif$/);
  }
  // The portrait turned by its EXIF tag is shown upright.
  const portrait = gallery.images.findIndex((i) => i.src.includes("portrait"));
  await page.getByRole("button", { name: `Image ${portrait + 1} of ${gallery.images.length}` }).click();
  await expect(main).toHaveAttribute("alt", gallery.images[portrait]!.alt);
  const [w, h] = await main.evaluate((img: HTMLImageElement) => [Number(img.getAttribute("width")), Number(img.getAttribute("height"))]);
  expect(h).toBeGreaterThan(w);
});

test("the gallery wraps both ways and answers arrows, keys and swipes", async ({ page }) => {
  const count = gallery.images.length;
  await page.goto(`/product/${gallery.id}`);
  await hydrated(page);
  const slot = (n: number) => page.getByRole("button", { name: `Image ${n} of ${count}` });
  await expect(slot(1)).toHaveAttribute("aria-current", "true");

  await page.getByRole("button", { name: "Previous image" }).click();
  await expect(slot(count)).toHaveAttribute("aria-current", "true");
  await page.getByRole("button", { name: "Next image" }).click();
  await expect(slot(1)).toHaveAttribute("aria-current", "true");

  await slot(count - 1).click();
  await expect(slot(count - 1)).toHaveAttribute("aria-current", "true");
  await page.keyboard.press("ArrowRight");
  await expect(slot(count)).toHaveAttribute("aria-current", "true");
  await page.keyboard.press("ArrowRight");
  await expect(slot(1)).toHaveAttribute("aria-current", "true");
  await page.keyboard.press("ArrowLeft");
  await expect(slot(count)).toHaveAttribute("aria-current", "true");

  await page.evaluate(() => window.scrollTo({ top: 0, behavior: "instant" })); // clear of the sticky top bar
  const box = (await page.locator(".gallery__image").boundingBox())!;
  const swipe = async (dx: number) => {
    const y = box.y + box.height / 2;
    const x = box.x + box.width / 2;
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x + dx, y, { steps: 5 });
    await page.mouse.up();
  };
  await swipe(-80); // to the left: next
  await expect(slot(1)).toHaveAttribute("aria-current", "true");
  await swipe(80); // to the right: previous
  await expect(slot(count)).toHaveAttribute("aria-current", "true");
  await swipe(-40); // too short: stays
  await expect(slot(count)).toHaveAttribute("aria-current", "true");
});

test("the grid, the similar products and the search show each piece's first photograph", async ({ page }) => {
  const first = (id: number) => catalogue.products.find((p) => p.id === id)!.images[0]!.src;
  const stem = (src: string) => src.replace(/^.*\//, "").replace(/\.[^.]+$/, "");
  const category = gallery.category;

  await page.goto(galleryList);
  await hydrated(page);
  const card = cardOf(page, page, gallery.name);
  await expect(card).toBeVisible();
  await expect.poll(() => card.locator("img").evaluate((img: HTMLImageElement) => img.complete && img.currentSrc)).toContain(`/${stem(first(gallery.id))}.`);

  const similar = photographed.find((p) => p.id !== gallery.id && p.category === category)!;
  await page.goto(`/product/${similar.id}`);
  await hydrated(page);
  const carousel = page.getByRole("group", { name: "Similar products" });
  const similarCard = cardOf(page, carousel, gallery.name);
  await similarCard.scrollIntoViewIfNeeded();
  await expect.poll(() => similarCard.locator("img").evaluate((img: HTMLImageElement) => img.complete && img.currentSrc)).toContain(`/${stem(first(gallery.id))}.`);

  await page.getByRole("button", { name: "Search products" }).click();
  await page.getByRole("combobox", { name: "Search products" }).fill(gallery.name);
  const option = page.getByRole("option", { name: new RegExp(gallery.name) });
  await expect.poll(() => option.locator("img").evaluate((img: HTMLImageElement) => img.complete && img.currentSrc)).toContain(`/${stem(first(gallery.id))}.`);
});

test("no picture is downloaded at more than twice the width it is shown at", async ({ browser }, testInfo) => {
  for (const path of ["/", galleryList, `/product/${gallery.id}`]) {
    // A fresh browser for each page: a file another page fetched is reused
    // from the cache whatever its width, and is no download of this one.
    const context = await browser.newContext(testInfo.project.use);
    const page = await context.newPage();
    const downloaded = imageBytes(page);
    await page.goto(path);
    await hydrated(page);
    await scrollThrough(page);
    // A file shown in two places was downloaded for the wider one.
    const widest = new Map<string, { fileWidth: number; shownWidth: number }>();
    for (const p of await loadedPictures(page)) {
      const url = new URL(p.src).pathname;
      if (downloaded.has(url) && (widest.get(url)?.shownWidth ?? 0) < p.shownWidth) widest.set(url, p);
    }
    if (path !== "/") expect(widest.size, `${path}: photographs downloaded`).toBeGreaterThan(0);
    for (const [url, p] of widest) {
      expect.soft(p.fileWidth, `${path}: ${url} shown at ${Math.round(p.shownWidth)} device pixels`).toBeLessThanOrEqual(2 * p.shownWidth);
    }
    await context.close();
  }
});

test("a phone downloads a gallery image of at most 150 KB and thumbnails of at most 20 KB", { tag: "@narrow-only" }, async ({ page }) => {
  const bytes = imageBytes(page);
  await page.goto(`/product/${gallery.id}`);
  await hydrated(page);
  await page.locator(".gallery__thumbs").scrollIntoViewIfNeeded();
  await page.waitForLoadState("networkidle");
  const main = new URL(await page.locator(".gallery__image").evaluate((img: HTMLImageElement) => img.currentSrc)).pathname;
  const thumbs = await page.locator(".gallery__thumb img").evaluateAll((imgs) => imgs.map((img) => new URL((img as HTMLImageElement).currentSrc).pathname));
  expect(thumbs).toHaveLength(gallery.images.length);
  await expect.poll(() => bytes.has(main) && thumbs.every((t) => bytes.has(t))).toBe(true);
  expect(bytes.get(main)!, main).toBeLessThanOrEqual(150 * KB);
  for (const t of thumbs) expect(bytes.get(t)!, t).toBeLessThanOrEqual(20 * KB);
});

test("a cropped photograph has its dominant colour behind it until it loads, from the stylesheet", async ({ page }) => {
  await page.goto(galleryList);
  await hydrated(page);
  const card = cardOf(page, page, gallery.name).locator("img");
  const placeholder = (await card.getAttribute("class"))?.match(/\bph-([0-7])([0-7])([0-7])\b/);
  expect(placeholder, "a placeholder class").toBeTruthy();
  const level = (d: string) => Math.round((Number(d) * 255) / 7);
  const [r, g, b] = placeholder!.slice(1).map(level);
  expect(await card.evaluate((img) => getComputedStyle(img).backgroundColor)).toBe(`rgb(${r}, ${g}, ${b})`);
  expect(await card.getAttribute("style")).toBeNull();
  // The gallery shows the whole picture on its own background: no colour in its margins.
  await page.goto(`/product/${gallery.id}`);
  await expect(page.locator(".gallery__image")).not.toHaveClass(/\bph-/);
});

test("a photographed piece's link preview is a 1200×630 JPEG made from its first photograph", { tag: "@wide-only" }, async ({ page, request }) => {
  await page.goto(`/product/${gallery.id}`);
  const og = new URL((await page.locator('meta[property="og:image"]').getAttribute("content"))!);
  expect(og.pathname).toContain(`/${gallery.images[0]!.src.replace(/^.*\//, "").replace(/\.[^.]+$/, "")}.`);
  const response = await request.get(og.pathname);
  expect(response.status()).toBe(200);
  const { width, height, format } = await sharp(await response.body()).metadata();
  expect({ width, height, format }).toEqual({ width: 1200, height: 630, format: "jpeg" });
});

import sharp from "sharp";
import { test, expect } from "./fixtures";
import { catalogue, products, site } from "./content";
import { indexedPaths, pagePaths } from "../app/lib/paths";

const routes = pagePaths(catalogue);
const absolute = (path: string) => new URL(path, site.baseUrl).href;

type JsonLd = Record<string, unknown> & { "@type": string };
const jsonLdOf = async (page: import("@playwright/test").Page): Promise<JsonLd[]> =>
  (await page.locator('script[type="application/ld+json"]').allTextContents()).map((t) => JSON.parse(t));

test("every page has a canonical URL and link-preview tags with a picture that exists", async ({ page, request }) => {
  // Hundreds of routes: a page's head is read once its HTML is parsed (its
  // pictures need not load), with five seconds a route for a loaded machine.
  test.setTimeout(routes.length * 5_000);
  const pictures = new Set<string>(); // each checked once: many pages share one
  for (const path of routes) {
    await page.goto(path, { waitUntil: "domcontentloaded" });
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", absolute(path));
    for (const property of ["og:title", "og:description", "og:url", "og:image"]) {
      await expect(page.locator(`meta[property="${property}"]`), `${path} ${property}`).toHaveAttribute("content", /.+/);
    }
    await expect(page.locator('meta[name="twitter:card"]')).toHaveAttribute("content", "summary_large_image");
    const image = new URL((await page.locator('meta[property="og:image"]').getAttribute("content"))!);
    if (pictures.has(image.pathname)) continue;
    pictures.add(image.pathname);
    const response = await request.get(image.pathname);
    expect(response.status(), `${path}: ${image.pathname}`).toBe(200);
    expect(response.headers()["content-type"]).toBe("image/jpeg");
    const { width, height, format } = await sharp(await response.body()).metadata();
    expect({ width, height, format }, `${path}: ${image.pathname}`).toEqual({ width: 1200, height: 630, format: "jpeg" });
  }
});

test("the studio is described as a FurnitureStore on the home and contact pages", async ({ page }) => {
  for (const path of ["/", "/contact-us"]) {
    await page.goto(path);
    const store = (await jsonLdOf(page)).find((d) => d["@type"] === "FurnitureStore");
    expect(store, path).toMatchObject({
      name: site.name,
      email: site.email,
      telephone: site.phones.map((p) => p.tel),
      sameAs: site.social.map((s) => s.url),
      address: { addressLocality: site.address.locality, postalCode: site.address.postalCode },
    });
  }
});

test("product pages carry Product and BreadcrumbList data, without offers", async ({ page }) => {
  for (const product of products) {
    await page.goto(`/product/${product.id}`);
    const data = await jsonLdOf(page);
    const described = data.find((d) => d["@type"] === "Product");
    expect(described).toMatchObject({
      name: product.name,
      description: product.description,
      category: product.category,
      brand: { name: site.name },
    });
    // Each of its pictures, in gallery order, by the file the build made of it.
    const stems = product.images.map((i) => i.src.replace(/^.*\//, "").replace(/\.[^.]+$/, ""));
    const images = described!.image as string[];
    expect(images.map((url) => new URL(url).pathname.replace(/^.*\//, "").split(".")[0])).toEqual(stems);
    for (const url of images) expect(url.startsWith(site.baseUrl)).toBe(true);
    expect(described).not.toHaveProperty("offers");
    const crumbs = data.find((d) => d["@type"] === "BreadcrumbList");
    const names = (crumbs?.itemListElement as { name: string }[] | undefined)?.map((c) => c.name);
    expect(names).toEqual(["Home", "Products", product.name]);
  }
});

test("the sitemap lists every page and robots.txt names it", async ({ request }) => {
  const sitemap = await (await request.get("/sitemap.xml")).text();
  const locs = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
  expect(locs.sort()).toEqual(indexedPaths(catalogue).map(absolute).sort());
  const robots = await (await request.get("/robots.txt")).text();
  expect(robots).toContain(`Sitemap: ${absolute("/sitemap.xml")}`);
});

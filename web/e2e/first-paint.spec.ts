import type { Page } from "@playwright/test";
import { test, expect, hydrated } from "./fixtures";
import { products } from "./content";

// Each page paints from its HTML alone (its stylesheets are written into
// it, web/scripts/first-paint.mjs); its scripts are fetched once its content
// and main pictures are painted; once loaded, the stylesheets are their
// links' again, as React Router has them.
const paths = ["/", "/products", `/product/${products[0]!.id}`];

// The site's header stays at the top as the page scrolls: a rule of the
// root stylesheet, so the page is styled when it holds.
const headerIsSticky = (page: Page) => page.getByRole("banner").evaluate((header) => getComputedStyle(header).position === "sticky");

// What the page's own scripts and stylesheets are, and when they came.
const stylesheetsOf = (page: Page) =>
  page.evaluate(() => ({
    copies: document.querySelectorAll("style[data-href]").length,
    links: [...document.querySelectorAll<HTMLLinkElement>("link[rel=stylesheet]")].map((l) => ({
      href: l.getAttribute("href"),
      disabled: l.disabled,
      loaded: l.sheet !== null,
    })),
  }));

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  for (const path of paths) {
    test(`${path} is styled from its own HTML, no stylesheet fetched`, async ({ page }) => {
      const fetched: string[] = [];
      page.on("request", (request) => request.resourceType() === "stylesheet" && fetched.push(request.url()));
      await page.goto(path);
      await page.waitForLoadState("load");
      expect(await headerIsSticky(page)).toBe(true);
      expect(fetched).toEqual([]);
    });
  }
});

for (const path of paths) {
  test(`${path}: once loaded, every stylesheet is its link's again, and no copy is left`, async ({ page }) => {
    await page.goto(path);
    await hydrated(page);
    await expect.poll(async () => (await stylesheetsOf(page)).copies).toBe(0);
    const { links } = await stylesheetsOf(page);
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(link, `${link.href}: enabled and loaded`).toMatchObject({ disabled: false, loaded: true });
    expect(await headerIsSticky(page)).toBe(true);
  });
}

test("the scripts are fetched after the first contentful paint and the main pictures", async ({ page }) => {
  await page.goto("/");
  await hydrated(page);
  const timing = await page.evaluate(() => {
    const resources = performance.getEntriesByType("resource") as PerformanceResourceTiming[];
    const pictures = new Set([...document.querySelectorAll<HTMLImageElement>("img[fetchpriority=high]")].map((img) => img.currentSrc));
    return {
      paint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime,
      pictures: resources.filter((r) => pictures.has(r.name)).map((r) => r.responseEnd),
      react: resources.find((r) => /\/assets\/entry\.client-[^/]+\.js$/.test(r.name))?.startTime,
    };
  });
  expect(timing.pictures.length, "the home page has a main picture").toBeGreaterThan(0);
  expect(timing.react).toBeGreaterThan(timing.paint!);
  for (const loaded of timing.pictures) expect(timing.react).toBeGreaterThanOrEqual(loaded);
});

test("a page left by a link takes its stylesheets with it", async ({ page, request }) => {
  // The stylesheets each page names in its HTML.
  const named = async (path: string) => [...(await (await request.get(path)).text()).matchAll(/<style data-href="([^"]+)"/g)].map((m) => m[1]);
  const products = await named("/products");
  const aboutOnly = (await named("/about")).filter((href) => !products.includes(href));
  expect(aboutOnly.length, "the about page has a stylesheet of its own").toBeGreaterThan(0);

  await page.goto("/about");
  await hydrated(page);
  await expect.poll(async () => (await stylesheetsOf(page)).copies).toBe(0);
  await page.getByRole("contentinfo").getByRole("link", { name: "Products" }).click();
  await expect(page).toHaveURL(/\/products$/);
  await expect.poll(async () => (await stylesheetsOf(page)).links.filter((l) => aboutOnly.includes(l.href!))).toEqual([]);
  expect((await stylesheetsOf(page)).copies).toBe(0);
  expect(await headerIsSticky(page)).toBe(true);
});

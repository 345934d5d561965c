import type { APIRequestContext, Page } from "@playwright/test";
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

// The inlined copies left, and each stylesheet link's state.
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

// The stylesheets a page names in its HTML (the page also adds others
// later: those of the code it fetches on demand).
const namedIn = async (request: APIRequestContext, path: string) =>
  [...(await (await request.get(path)).text()).matchAll(/<style data-href="([^"]+)"/g)].map((m) => m[1]);

for (const path of paths) {
  test(`${path}: once loaded, every stylesheet is its link's again, and no copy is left`, async ({ page, request }) => {
    const named = await namedIn(request, path);
    expect(named.length).toBeGreaterThan(0);
    await page.goto(path);
    await hydrated(page);
    await expect.poll(async () => (await stylesheetsOf(page)).copies).toBe(0);
    // Each named stylesheet's link is enabled and has loaded.
    await expect
      .poll(async () => {
        const { links } = await stylesheetsOf(page);
        return named.filter((href) => !links.some((l) => l.href === href && !l.disabled && l.loaded));
      })
      .toEqual([]);
    expect(await headerIsSticky(page)).toBe(true);
  });
}

// The main pictures are the screen's own (their sizes differ): on both.
test("the scripts are fetched after the first contentful paint and the main pictures", { tag: "@both" }, async ({ page }) => {
  // When the page's script links are added to it (React Router's own
  // module script, at the end of the body, races with them on a fast machine).
  await page.addInitScript(() => {
    new MutationObserver((records, observer) => {
      const added = records.some((r) => [...r.addedNodes].some((n) => n instanceof HTMLLinkElement && n.rel === "modulepreload"));
      if (!added) return;
      (window as unknown as { __scriptsAt: number }).__scriptsAt = performance.now();
      observer.disconnect();
    }).observe(document, { childList: true, subtree: true });
  });
  await page.goto("/");
  await hydrated(page);
  const timing = await page.evaluate(() => {
    const resources = performance.getEntriesByType("resource") as PerformanceResourceTiming[];
    const pictures = new Set([...document.querySelectorAll<HTMLImageElement>("img[fetchpriority=high]")].map((img) => img.currentSrc));
    return {
      paint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime,
      pictures: resources.filter((r) => pictures.has(r.name)).map((r) => r.responseEnd),
      scripts: (window as unknown as { __scriptsAt?: number }).__scriptsAt,
    };
  });
  expect(timing.pictures.length, "the home page has a main picture").toBeGreaterThan(0);
  expect(timing.scripts).toBeGreaterThan(timing.paint!);
  for (const loaded of timing.pictures) expect(timing.scripts).toBeGreaterThanOrEqual(loaded);
});

test("a page left by a link takes its stylesheets with it", async ({ page, request }) => {
  const products = await namedIn(request, "/products");
  const aboutOnly = (await namedIn(request, "/about")).filter((href) => !products.includes(href));
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

import { test, expect, hydrated, nextFrames, recordAnalytics, trackedEvents } from "./fixtures";
import { catalogue, site } from "./content";
import { pagePaths } from "../app/lib/paths";

const routes = pagePaths(catalogue);

// Every route, in the browser: it answers 200, hydrates without an error
// (the fixture fails on any), and shows its heading, the header and the
// footer, with the site's name in its title and a description. One page
// visits the routes of a kind one after another, its cache keeping the
// scripts as a visitor's browser does: a fresh browser for each route took
// seven times as long.
const lists = routes.filter((p) => p.startsWith("/products"));
const productPages = routes.filter((p) => p.startsWith("/product/"));
const routeKinds = [
  { kind: "the product lists", paths: lists },
  { kind: "the products and their forms", paths: productPages },
  { kind: "the other pages", paths: routes.filter((p) => !lists.includes(p) && !productPages.includes(p)) },
];

test.describe("every route", () => {
  for (const { kind, paths } of routeKinds) {
    test(`${kind} render with their own titles and descriptions`, async ({ page }) => {
      test.setTimeout(paths.length * 5_000);
      for (const path of paths) {
        const response = await page.goto(path);
        expect(response?.status(), path).toBe(200);
        await hydrated(page);
        await expect(page.getByRole("heading", { level: 1 }), path).toBeVisible();
        await expect(page, path).toHaveTitle(new RegExp(site.name));
        const description = await page.locator('meta[name="description"]').getAttribute("content");
        expect(description?.length, path).toBeGreaterThan(20);
        await expect(page.getByRole("banner"), path).toBeVisible();
        await expect(page.getByRole("contentinfo"), path).toBeVisible();
      }
    });
  }

  test("titles and descriptions are unique", async ({ request }) => {
    const titles = new Set<string>();
    const descriptions = new Set<string>();
    for (const path of routes) {
      const html = await (await request.get(path)).text();
      titles.add(html.match(/<title>([^<]*)<\/title>/)?.[1] ?? "");
      descriptions.add(html.match(/<meta name="description" content="([^"]*)"/)?.[1] ?? "");
    }
    expect(titles.size).toBe(routes.length);
    expect(descriptions.size).toBe(routes.length);
  });
});

// Unknown paths, top-level and under the routes that take parameters (the
// product list's path, the thank-you page's form, a product's request):
// each is the not-found page, the home page's content with status 404, and
// hydrates without a mismatch (the fixture fails on React's #418).
const UNKNOWN_PATHS = [
  "/no-such-page",
  "/products/page/99",
  "/products/nonsense-category",
  "/thank-you/nonsense",
  `/product/${catalogue.products[0]!.id}/nonsense`,
];

// The line a page at an address of none says first in main, and its title.
async function expectNotice(page: import("@playwright/test").Page, notice: string) {
  await expect(page).toHaveTitle(`Page not found | ${site.name}`);
  const main = page.getByRole("main");
  await expect(main.getByRole("status").filter({ hasText: "There is no" })).toHaveText(notice);
  // What a screen reader meets first in main (the skip link's target).
  expect(await main.evaluate((m) => m.firstElementChild?.textContent)).toBe(notice);
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", "noindex");
}

async function expectNotFoundPage(page: import("@playwright/test").Page, path: string) {
  const response = await page.goto(path);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: site.name })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
  await expectNotice(page, `There is no page at ${path}: here is the home page`);
  await expect(page).toHaveURL(new RegExp(`${path}$`));
}

// An id no product has, removed or not: the products list, saying so.
const unknownId = Math.max(...catalogue.products.map((p) => p.id), ...(catalogue.removed ?? []).map((p) => p.id)) + 989;

async function expectUnknownProduct(page: import("@playwright/test").Page) {
  const response = await page.goto(`/product/${unknownId}`);
  expect(response?.status()).toBe(404);
  await expect(page).toHaveURL(new RegExp(`/product/${unknownId}$`)); // no redirect
  await expectNotice(page, `There is no piece at /product/${unknownId}: here are all our pieces`);
  await expect(page.getByRole("heading", { level: 1, name: "All Products" })).toBeVisible();
  const first = catalogue.products[0]!;
  await expect(page.getByRole("region", { name: "Products" }).getByRole("link", { name: new RegExp(first.name) }).first()).toBeVisible();
}

for (const path of UNKNOWN_PATHS) {
  test(`an unknown path, ${path}, shows the not-found page with status 404`, async ({ page }) => {
    await expectNotFoundPage(page, path);
    await hydrated(page);
    // Still the not-found page once the scripts run, and nothing more to fetch.
    await nextFrames(page);
    await expect(page.getByRole("heading", { level: 1, name: site.name })).toBeVisible();
    await expect(page.getByRole("heading", { level: 1 })).toHaveCount(1);
  });
}

test("a very long unknown path is named shortened, the same before and after the scripts run", async ({ page }) => {
  const path = `/${"a".repeat(80)}/more`;
  expect((await page.goto(path))?.status()).toBe(404);
  await expectNotice(page, `There is no page at /${"a".repeat(58)}…: here is the home page`);
  await hydrated(page);
  await expect(page.getByRole("main").getByRole("status").filter({ hasText: "There is no" })).toHaveText(/a…: here is the home page$/);
});

test("a product id not in the catalogue shows the products with a notice, status 404 and no redirect", async ({ page }) => {
  await expectUnknownProduct(page);
  await hydrated(page);
  await nextFrames(page);
  await expect(page).toHaveURL(new RegExp(`/product/${unknownId}$`));
  await expect(page.getByRole("heading", { level: 1, name: "All Products" })).toBeVisible();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });
  for (const path of UNKNOWN_PATHS) {
    test(`an unknown path, ${path}, shows the not-found page with status 404`, async ({ page }) => {
      await expectNotFoundPage(page, path);
    });
  }

  test("a product id not in the catalogue shows the products with a notice and status 404", async ({ page }) => {
    await expectUnknownProduct(page);
  });
});

test("the top bar offers the five links and a named search button", { tag: "@both" }, async ({ page, isMobile }) => {
  await page.goto("/");
  await hydrated(page);
  await expect(page.getByRole("button", { name: "Search products" })).toBeVisible();
  const nav = isMobile ? page.getByRole("navigation", { name: "Mobile" }) : page.getByRole("navigation", { name: "Main" });
  if (isMobile) {
    await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
    await page.getByRole("group").filter({ has: page.getByLabel("Menu") }).getByLabel("Menu").click();
  } else {
    await expect(page.getByLabel("Menu")).toBeHidden();
  }
  for (const name of ["Home", "Products", "About us", "Bespoke", "Contact us"]) {
    await expect(nav.getByRole("link", { name, exact: true })).toBeVisible();
  }
});

// The collapsible menu is the small-screen top bar.
test.describe("mobile menu", () => {
  test("opens, closes on Escape with focus back on its button, and closes on navigation", { tag: "@narrow-only" }, async ({ page }) => {
    await page.goto("/");
    await hydrated(page);
    const toggle = page.getByLabel("Menu");
    const panel = page.getByRole("navigation", { name: "Mobile" });
    await expect(panel).toBeHidden();

    await toggle.click();
    await expect(panel).toBeVisible();
    const box = await panel.boundingBox();
    expect(box!.height).toBeLessThanOrEqual(24 * 16);

    await page.keyboard.press("Escape");
    await expect(panel).toBeHidden();
    await expect(toggle).toBeFocused();

    await toggle.click();
    await panel.getByRole("link", { name: "Bespoke" }).click();
    await expect(page).toHaveURL(/\/bespoke$/);
    await expect(page.getByRole("heading", { level: 1, name: "Bespoke Solution" })).toBeVisible();
    await expect(panel).toBeHidden();
  });
});

test("the skip link is the first stop and moves focus to the content", { tag: "@both" }, async ({ page }) => {
  await page.goto("/about");
  await hydrated(page);
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press("Enter");
  await expect(page.locator("main")).toBeFocused();
});

test("focused controls show a visible focus ring", { tag: "@both" }, async ({ page }) => {
  await page.goto("/");
  await hydrated(page);
  await page.keyboard.press("Tab"); // skip link
  await page.keyboard.press("Tab"); // the studio's name
  const outline = await page.evaluate(() => {
    const el = document.activeElement as HTMLElement;
    const style = getComputedStyle(el);
    return { tag: el.tagName, style: style.outlineStyle, width: parseFloat(style.outlineWidth) };
  });
  expect(outline.tag).toBe("A");
  expect(outline.style).not.toBe("none");
  expect(outline.width).toBeGreaterThanOrEqual(2);
});

test("the top bar gains a shadow once the page is scrolled past 50 px", { tag: "@both" }, async ({ page }) => {
  await page.goto("/products");
  await hydrated(page);
  const header = page.getByRole("banner");
  const shadow = () => header.evaluate((el) => getComputedStyle(el).boxShadow);
  expect(await shadow()).toBe("none");
  await page.evaluate(() => window.scrollTo(0, 40));
  await nextFrames(page);
  expect(await shadow()).toBe("none");
  await page.evaluate(() => window.scrollTo(0, 60));
  await expect.poll(shadow).not.toBe("none");
});

test.describe("scroll to top on every path change", () => {
  test("smoothly", async ({ page }) => {
    await page.goto("/products");
    await hydrated(page);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.getByRole("contentinfo").getByRole("link", { name: "Bespoke" }).click();
    await expect(page).toHaveURL(/\/bespoke$/);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });

  test("at once under reduced motion", async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.goto("/products");
    await hydrated(page);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(100);
    await page.getByRole("contentinfo").getByRole("link", { name: "About us" }).click();
    await expect(page).toHaveURL(/\/about$/);
    // The URL changes before the new page renders; wait for the render (and its scroll effect).
    await expect(page.getByRole("heading", { level: 1, name: "All Products" })).toHaveCount(0);
    // Instant: already at the top on the next frame, no animation to wait for.
    expect(await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(window.scrollY))))).toBe(0);
  });
});

test("the footer has the quick, policy and social links", { tag: "@both" }, async ({ page }) => {
  await page.goto("/");
  const footer = page.getByRole("contentinfo");
  for (const name of ["Products", "Bespoke", "About us", "Contact us", "Terms of use", "Shipping policy", "Return & Refund policy", "Privacy policy"]) {
    await expect(footer.getByRole("link", { name, exact: true })).toBeVisible();
  }
  for (const s of site.social) {
    const link = footer.getByRole("link", { name: `${s.platform} (opens in a new tab)` });
    await expect(link).toHaveAttribute("href", s.url);
    await expect(link).toHaveAttribute("target", "_blank");
    await expect(link).toHaveAttribute("rel", "noopener noreferrer");
  }
  await expect(footer.getByRole("textbox", { name: "Your e-mail" })).toBeVisible();
  await expect(footer).toContainText(`© ${site.copyrightYear} ${site.name}`);
});

test.describe("analytics", () => {
  test("page views, navigation, scroll depth once each, and social clicks", async ({ page, context }) => {
    await context.route(/instagram\.com/, (route) => route.fulfill({ body: "ok" }));
    await recordAnalytics(page);
    await page.goto("/products");
    await hydrated(page);
    expect((await trackedEvents(page, "page_view")).map((e) => e.params.page_path)).toEqual(["/products"]);

    const depths = async () => (await trackedEvents(page, "scroll_depth")).map((e) => e.params.percent);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect.poll(depths).toEqual([25, 50, 75, 100]);
    // Back to the top and down again: nothing is sent twice.
    await page.evaluate(() => window.scrollTo(0, 0));
    await nextFrames(page);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await nextFrames(page);
    expect(await depths()).toEqual([25, 50, 75, 100]);

    await page.getByRole("contentinfo").getByRole("link", { name: "About us" }).click();
    await expect(page).toHaveURL(/\/about$/);
    await expect.poll(async () => (await trackedEvents(page, "page_view")).map((e) => e.params.page_path)).toEqual(["/products", "/about"]);
    expect((await trackedEvents(page, "page_navigation")).map((e) => e.params)).toEqual([{ from: "/products", to: "/about" }]);

    const popup = page.waitForEvent("popup");
    await page.getByRole("link", { name: "Instagram (opens in a new tab)" }).click();
    await (await popup).close();
    expect((await trackedEvents(page, "social_click")).map((e) => e.params)).toEqual([{ platform: "Instagram", location: "footer" }]);
  });

  test("time on page is sent when the page unloads", async ({ page }) => {
    await recordAnalytics(page);
    await page.clock.install();
    await page.goto("/about");
    await hydrated(page);
    await page.clock.fastForward(1100);
    const seconds = await page.evaluate(async () => {
      window.dispatchEvent(new PageTransitionEvent("pagehide"));
      const events = (window as unknown as { __events: { name: string; params: { seconds: number } }[] }).__events;
      return events.filter((e) => e.name === "time_on_page").map((e) => e.params.seconds);
    });
    expect(seconds).toHaveLength(1);
    expect(seconds[0]).toBeGreaterThanOrEqual(1);
  });

  // The site's own count (app/lib/insights.ts): the events go to
  // POST /api/events by sendBeacon, in batches, 5 s after the first queued
  // one and at once when the page is hidden or left. Answered here, so the
  // test does not depend on what the server keeps.
  test("the site's own count: events posted in batches after 5 s and when the page is left, with the referrer and campaign", async ({ page }) => {
    const posted: {
      contentType: string | null;
      body: { batchId: string; events: { name: string; path: string; params: Record<string, unknown> }[] };
    }[] = [];
    await page.route("**/api/events", (route) => {
      const req = route.request();
      posted.push({ contentType: req.headers()["content-type"] ?? null, body: req.postDataJSON() });
      return route.fulfill({ status: 204 });
    });
    await page.addInitScript(() => {
      const beacon = navigator.sendBeacon.bind(navigator);
      const w = window as unknown as { __beacons: boolean[] };
      w.__beacons = [];
      navigator.sendBeacon = (url, data) => {
        const queued = beacon(url, data);
        w.__beacons.push(queued);
        return queued;
      };
    });
    const start = new Date("2026-03-02T10:00:00+05:30");
    await page.clock.install({ time: start });
    await page.clock.pauseAt(new Date(start.getTime() + 60_000));
    await page.goto("/about?utm_source=newsletter&utm_medium=email&utm_campaign=diwali", { referer: "https://www.instagram.com/jharokhastudio" });
    await hydrated(page);
    await page.getByRole("contentinfo").getByRole("link", { name: "Bespoke" }).click();
    await expect(page).toHaveURL(/\/bespoke$/);
    await page.clock.runFor(4_000);
    expect(posted).toEqual([]);
    await page.clock.runFor(1_000);
    await expect.poll(() => posted.length).toBe(1);

    expect(posted[0]!.contentType).toBe("application/json");
    const events = posted[0]!.body.events;
    const views = events.filter((e) => e.name === "page_view");
    expect(views.map((e) => e.path)).toEqual(["/about", "/bespoke"]);
    expect(views[0]!.params).toMatchObject({ page_path: "/about", referrer: "www.instagram.com", utm_source: "newsletter", utm_medium: "email", utm_campaign: "diwali" });
    // Only the page load's first view: a client navigation keeps the same referrer.
    for (const key of ["referrer", "utm_source", "utm_medium", "utm_campaign"]) expect(views[1]!.params).not.toHaveProperty(key);
    expect(events.filter((e) => e.name === "page_navigation").map((e) => e.params)).toEqual([{ from: "/about", to: "/bespoke" }]);

    // Leaving the page sends what is left (the time on page) at once.
    await page.evaluate(() => window.dispatchEvent(new PageTransitionEvent("pagehide")));
    await expect.poll(() => posted.length).toBe(2);
    expect(posted[1]!.body.events.map((e) => [e.name, e.path])).toEqual([["time_on_page", "/bespoke"]]);
    // Each batch with an id of its own, which the server stores it once under.
    for (const { body } of posted) expect(body.batchId).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
    expect(posted[0]!.body.batchId).not.toBe(posted[1]!.body.batchId);
    expect(await page.evaluate(() => (window as unknown as { __beacons: boolean[] }).__beacons)).toEqual([true, true]);
  });

  test("the site's own count: nothing sent under Global Privacy Control, and nothing stored", async ({ page }) => {
    const posted: string[] = [];
    await page.route("**/api/events", (route) => {
      posted.push(route.request().postData() ?? "");
      return route.fulfill({ status: 204 });
    });
    await page.addInitScript(() => Object.defineProperty(Navigator.prototype, "globalPrivacyControl", { get: () => true }));
    await page.goto("/products");
    await hydrated(page);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await nextFrames(page);
    // The queue is sent synchronously on pagehide: a beacon would already have left.
    const sent = await page.evaluate(() => {
      const calls: string[] = [];
      const beacon = navigator.sendBeacon.bind(navigator);
      navigator.sendBeacon = (url, data) => (calls.push(String(url)), beacon(url, data));
      const fetcher = window.fetch.bind(window);
      window.fetch = (input, init) => (calls.push(String(input)), fetcher(input, init));
      window.dispatchEvent(new PageTransitionEvent("pagehide"));
      document.dispatchEvent(new Event("visibilitychange"));
      return calls;
    });
    expect(sent).toEqual([]);
    expect(posted).toEqual([]);
    expect(await page.context().cookies()).toEqual([]);
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
  });

  test("no third-party request but the analytics tag, and that only with a measurement id", async ({ page, context }) => {
    // The tag's hosts, if site.json names a measurement id (answered here:
    // nothing leaves the machine).
    const tagHosts = /(^|\.)(googletagmanager|google-analytics)\.com$/;
    await context.route((url) => tagHosts.test(url.hostname), (route) => route.fulfill({ contentType: "text/javascript", body: "" }));
    const foreign: string[] = [];
    page.on("request", (req) => {
      const url = new URL(req.url());
      if (url.hostname !== "127.0.0.1" && !(site.ga4MeasurementId && tagHosts.test(url.hostname))) foreign.push(req.url());
    });
    await page.goto("/");
    await hydrated(page);
    await page.waitForLoadState("networkidle");
    expect(foreign).toEqual([]);
  });
});

test.describe("with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("pages are readable", async ({ page }) => {
    test.setTimeout(routes.length * 5_000);
    for (const path of routes) {
      // Readable once parsed: the styles are in the HTML (first-paint.spec.ts).
      await page.goto(path, { waitUntil: "domcontentloaded" });
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    }
  });

  test("the mobile menu still opens", { tag: "@narrow-only" }, async ({ page }) => {
    await page.goto("/");
    await page.getByLabel("Menu").click();
    await expect(page.getByRole("navigation", { name: "Mobile" }).getByRole("link", { name: "Products" })).toBeVisible();
  });
});

import type { Page } from "@playwright/test";
import { test, expect, expectNoAxeViolations, hydrated } from "./fixtures";
import { products } from "./content";
import { pagePaths } from "../app/lib/paths";
import { catalogue } from "./content";
import { OFFER_SEEN_KEY } from "../app/components/offer/timing";
import { FLUSH_MS } from "../app/lib/insights";
import { SEARCH_SETTLE_MS } from "../app/lib/search";
import { sidewaysScroll } from "./targets";

// The site's own analytics, end to end: a visit is counted on the server
// and shows on the studio's insights page; nothing sets a cookie; a browser
// that sends Global Privacy Control is not counted.

// The server does not count browsers that say they are headless (bots), so
// the visitor here is an ordinary Chrome.
const ordinaryChrome = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";
test.use({ userAgent: ordinaryChrome });

const unique = () => `zq${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

// A row of a table on the insights page, by its first cell: its numbers.
async function insightsRow(page: Page, table: string, first: string): Promise<number[] | null> {
  await page.goto("/studio/insights");
  await page.getByRole("link", { name: "Count the latest events now" }).click();
  const row = page.getByRole("region", { name: table }).getByRole("row").filter({ has: page.getByRole("rowheader", { name: first, exact: true }) });
  if ((await row.count()) === 0) return null;
  return (await row.getByRole("cell").allTextContents()).map(Number);
}

// Searches for a word no product has, looks at a product and opens its
// quote dialog, each time moving the page's clock on until it sends the
// batch with that event in it (FLUSH_MS after the batch's first event), and
// waiting for the server's answer. A beacon sent as the page unloads would
// say "HeadlessChrome" (the context's user agent no longer applies then),
// and the server would not count it.
async function visit(page: Page, term: string, product: { id: number }) {
  // Each batch the page sends: the names of its events, and the server's answer.
  const batches: { names: string[]; status: number }[] = [];
  await page.route("**/api/events", async (route) => {
    const { events } = route.request().postDataJSON() as { events: { name: string }[] };
    const response = await route.fetch();
    batches.push({ names: events.map((e) => e.name), status: response.status() });
    await route.fulfill({ response });
  });
  const sentWith = async (name: string) => {
    await page.clock.runFor(SEARCH_SETTLE_MS + FLUSH_MS);
    await expect.poll(() => batches.find((b) => b.names.includes(name))?.status, { message: `the batch with "${name}" answered`, timeout: 60_000 }).toBe(204);
  };
  await page.clock.install();
  await page.goto("/");
  await hydrated(page);
  await page.getByRole("button", { name: "Search products" }).click();
  await page.getByRole("combobox", { name: "Search products" }).fill(term);
  await expect(page.getByText("No results found")).toBeVisible();
  await sentWith("search"); // an event once the typing settles
  await page.keyboard.press("Escape");
  await page.goto(`/product/${product.id}`);
  await hydrated(page);
  await page.getByRole("button", { name: "Get Quote" }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await sentWith("quote_request");
}

test("a visit shows on the insights page: the search that found nothing, the product looked at and asked about", async ({ browser, openStudio }) => {
  // Two visits, the batches' answers and several counts of the latest
  // events: generous, for a loaded machine.
  test.setTimeout(300_000);
  const product = products[0]!;
  const studio = await (await browser.newContext()).newPage();
  await openStudio(studio);
  const before = (await insightsRow(studio, "Products: looked at, asked about", product.name)) ?? [0, 0, 0, 0, 0];

  const term = unique();
  const visitor = await (await browser.newContext({ userAgent: ordinaryChrome })).newPage();
  await visitor.addInitScript((key) => sessionStorage.setItem(key, "1"), OFFER_SEEN_KEY); // no welcome offer over the search
  await visit(visitor, term, product);

  await expect.poll(() => insightsRow(studio, "Searches", term)).toEqual([1, 1]); // once, and it found nothing
  const after = await insightsRow(studio, "Products: looked at, asked about", product.name);
  // views, visitors, quote dialogs opened: one more of each
  expect([after![0]! - before[0]!, after![2]! - before[2]!]).toEqual([1, 1]);
  // axe finds nothing serious on the page.
  await expectNoAxeViolations(studio);
  // The searches that found nothing are listed first.
  const searches = studio.getByRole("region", { name: "Searches" }).getByRole("row");
  await expect(searches.nth(1).getByRole("cell").nth(1)).not.toHaveText("0");
});

// On a phone, with a visit of today counted: nothing scrolls sideways, the
// chart names its days and both periods, and the table of days is one card
// a day, each figure beside its column's name, dates as the workspace writes
// them.
test("on a phone the insights page fits: a chart with its days and periods named, the days' table as cards", async ({ page, openStudio, request }) => {
  const visit = await request.post("/api/events", {
    headers: { "User-Agent": ordinaryChrome },
    data: { batchId: `phone-${Date.now()}-0000000`, events: [{ name: "page_view", path: "/", params: {} }] },
  });
  expect(visit.status()).toBe(204);
  await openStudio(page);
  await page.goto("/studio/insights");
  await page.getByRole("link", { name: "Count the latest events now" }).click();
  expect(await sidewaysScroll(page)).toEqual([]); // leaves the page at 375 px
  const date = /^\d{1,2} [A-Z][a-z]{2} \d{4}$/; // 29 Nov 2026

  const chart = page.getByRole("region", { name: "Visitors per day" });
  await expect(chart.getByRole("img", { name: /^Visitors per day \d{1,2} \w{3} \d{4} to \d{1,2} \w{3} \d{4}: \d+ in all/ })).toBeVisible();
  await expect(chart.getByRole("listitem")).toHaveText([/^This period: \d{1,2} \w{3} \d{4} to \d{1,2} \w{3} \d{4}$/, /^Previous 7 days: \d{1,2} \w{3} \d{4} to \d{1,2} \w{3} \d{4}$/]);
  // The days axis names some of the seven days, the last (today) among them.
  const today = (await page.getByRole("region", { name: "Visitors and page views per day" }).getByRole("rowheader").last().textContent())!;
  expect(today).toMatch(date);
  await expect(chart.getByText(today.replace(/ \d{4}$/, ""), { exact: true })).toBeVisible();

  const days = page.getByRole("region", { name: "Visitors and page views per day" });
  await expect(days.getByRole("rowheader")).toHaveCount(7);
  for (const day of await days.getByRole("rowheader").allTextContents()) expect(day).toMatch(date);
  // Today's card: each figure on the screen, after its column's name.
  const card = days.getByRole("row").filter({ has: page.getByRole("rowheader", { name: today, exact: true }) });
  const cells = await card.getByRole("cell").evaluateAll((tds) =>
    tds.map((td) => {
      const box = td.getBoundingClientRect();
      return { label: getComputedStyle(td, "::before").content, text: td.textContent, inside: box.left >= 0 && box.right <= window.innerWidth };
    }),
  );
  expect(cells.map((c) => c.label)).toEqual(['"Visitors"', '"Page views"', '"Same day of the period before"', '"Visitors then"', '"Page views then"']);
  expect(cells.every((c) => c.inside)).toBe(true);
  expect(Number(cells[0]!.text)).toBeGreaterThanOrEqual(1);
  expect(cells[2]!.text).toMatch(date);
  await expectNoAxeViolations(page);
});

test("with Global Privacy Control, nothing is kept", async ({ browser, openStudio }) => {
  const term = unique();
  const visitor = await (await browser.newContext({ userAgent: ordinaryChrome, extraHTTPHeaders: { "Sec-GPC": "1" } })).newPage();
  await visitor.addInitScript(() => Object.defineProperty(navigator, "globalPrivacyControl", { value: true }));
  // The page's own count of what it hands to the browser for /api/events,
  // by beacon or by fetch, counted as it happens.
  await visitor.addInitScript(() => {
    const page = window as unknown as { eventsSent: number };
    page.eventsSent = 0;
    const count = (url: unknown) => void (String(url).endsWith("/api/events") && page.eventsSent++);
    const beacon = navigator.sendBeacon.bind(navigator);
    navigator.sendBeacon = (url, data) => (count(url), beacon(url, data));
    const fetcher = window.fetch.bind(window);
    window.fetch = (input, init) => (count(input instanceof Request ? input.url : input), fetcher(input, init));
  });
  await visitor.addInitScript((key) => sessionStorage.setItem(key, "1"), OFFER_SEEN_KEY);
  await visitor.goto(`/product/${products[2]!.id}`);
  await hydrated(visitor);
  await visitor.getByRole("button", { name: "Get Quote" }).click();
  // A page being left sends what it has queued at once, without waiting for
  // its timer: whatever this page had collected would be sent here.
  await visitor.evaluate(() => window.dispatchEvent(new PageTransitionEvent("pagehide")));
  const sent = await visitor.evaluate(() => (window as unknown as { eventsSent: number }).eventsSent);
  expect(sent, "the page sends nothing under GPC").toBe(0);
  // And the server keeps nothing from a browser that says it, whatever it sends.
  const response = await visitor.request.post("/api/events", {
    headers: { "Sec-GPC": "1", "User-Agent": ordinaryChrome },
    data: { batchId: `gpc-${Date.now()}-0000000`, events: [{ name: "search", path: "/", params: { search_term: term, result_count: 0 } }] },
  });
  expect(response.status()).toBe(204);
  const studio = await (await browser.newContext()).newPage();
  await openStudio(studio);
  expect(await insightsRow(studio, "Searches", term)).toBeNull();
});

test("no public page sets a cookie", async ({ request }) => {
  for (const path of [...pagePaths(catalogue), "/sitemap.xml", "/robots.txt", "/search-index.json"]) {
    const response = await request.get(path);
    expect(response.headers()["set-cookie"], path).toBeUndefined();
  }
  const events = await request.post("/api/events", {
    headers: { "User-Agent": ordinaryChrome },
    data: { batchId: "no-cookie-check-0001", events: [{ name: "page_view", path: "/", params: {} }] },
  });
  expect(events.status()).toBe(204);
  expect(events.headers()["set-cookie"]).toBeUndefined();
});

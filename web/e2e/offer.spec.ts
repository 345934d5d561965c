import type { Page } from "@playwright/test";
import { test, expect, hydrated, recordAnalytics, trackedEvents } from "./fixtures";
import { site } from "./content";
import { OFFER_DELAY_MS } from "../app/components/offer/timing";
import { whatsappNumber } from "../app/lib/facts";

// The welcome offer: 1 s after the first visit to "/" in a browser session,
// once per session. Every other test file starts with it already seen.
test.use({ welcomeOffer: true });

const WIDE_HEADING = "Welcome to a world where design whispers stories.";
const NARROW_HEADING = "Design that whispers stories.";

const offer = (page: Page) => page.getByRole("dialog", { name: /whispers stories/ });

// The page's timers on a clock the test moves: "it did not appear" is then
// a fact about the offer's delay, not about how fast the machine is.
async function pausedClock(page: Page) {
  const start = new Date("2026-03-02T10:00:00+05:30");
  await page.clock.install({ time: start });
  await page.clock.pauseAt(new Date(start.getTime() + 60_000));
}

async function offerShown(page: Page) {
  await recordAnalytics(page);
  await page.goto("/");
  await hydrated(page);
  await expect(offer(page)).toBeVisible();
}

test("appears 1 s after the first visit to the home page", async ({ page }) => {
  const start = new Date("2026-03-02T10:00:00+05:30");
  await page.clock.install({ time: start });
  // Paused before the page exists: nothing on it runs on timers until the test says so.
  await page.clock.pauseAt(new Date(start.getTime() + 60_000));
  await page.goto("/");
  await hydrated(page);
  await page.clock.runFor(OFFER_DELAY_MS - 1);
  await expect(offer(page)).toHaveCount(0);
  await page.clock.runFor(1);
  await expect(offer(page)).toBeVisible();
  await page.clock.resume();
});

test("does not appear on other pages", async ({ page }) => {
  await pausedClock(page);
  await page.goto("/about");
  await hydrated(page);
  await page.clock.runFor(OFFER_DELAY_MS * 10);
  await expect(offer(page)).toHaveCount(0);
});

test("appears once per browser session", async ({ page }) => {
  await pausedClock(page);
  await recordAnalytics(page);
  await page.goto("/");
  await hydrated(page);
  await page.clock.runFor(OFFER_DELAY_MS);
  await expect(offer(page)).toBeVisible();
  await offer(page).getByRole("button", { name: "Close the welcome note" }).click();
  await page.clock.runFor(1000); // its closing animation
  await expect(offer(page)).toBeHidden();

  await page.reload();
  await hydrated(page);
  await page.clock.runFor(OFFER_DELAY_MS * 10);
  await expect(offer(page)).toBeHidden();

  await page.getByRole("contentinfo").getByRole("link", { name: "About us" }).click();
  await expect(page).toHaveURL(/\/about$/);
  await page.goBack();
  await expect(page).toHaveURL(/\/$/);
  await page.clock.runFor(OFFER_DELAY_MS * 10);
  await expect(offer(page)).toBeHidden();
});

test("does not open over a visitor who already opened the search and is typing", async ({ page }) => {
  await pausedClock(page);
  await recordAnalytics(page);
  await page.goto("/");
  await hydrated(page);
  await page.clock.runFor(OFFER_DELAY_MS / 2);
  await page.getByRole("button", { name: "Search products" }).click();
  await page.keyboard.type("walnut ");
  const input = page.getByRole("combobox", { name: "Search products" });
  // The field has what was typed before its code arrived (the clock moved on
  // in small steps, as the overlay's opening needs); only then does the clock
  // run past the key buffer's own 10-s give-up time.
  await expect(async () => {
    await page.clock.runFor(50);
    await expect(input).toHaveValue("walnut ", { timeout: 100 });
  }).toPass({ timeout: 60_000 });
  await page.clock.runFor(OFFER_DELAY_MS * 10);
  await expect(input).toBeFocused();
  await page.keyboard.type("table");
  await expect(input).toHaveValue("walnut table");
  await expect(offer(page)).toHaveCount(0);
  expect(await trackedEvents(page, "offer_modal_close")).toEqual([]);
});

test("does not cover a chat opened in the first second", async ({ page }) => {
  await pausedClock(page);
  await page.goto("/");
  await hydrated(page);
  await page.clock.runFor(OFFER_DELAY_MS / 2);
  await page.getByRole("button", { name: "Chat with us" }).click();
  await page.clock.runFor(OFFER_DELAY_MS * 10);
  await expect(page.getByRole("dialog", { name: `Chat with ${site.name}` })).toBeVisible();
  await expect(offer(page)).toHaveCount(0);
});

test("does not open for a visitor who scrolled into the page in the first second", async ({ page }) => {
  await pausedClock(page);
  await page.goto("/");
  await hydrated(page);
  await page.mouse.wheel(0, 600);
  // The wheel is delivered to the page in its own time: the visitor has
  // scrolled once the page has moved, and only then does the time run on.
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  await page.clock.runFor(OFFER_DELAY_MS * 10);
  await expect(offer(page)).toHaveCount(0);
});

// On a small screen the offer fills the screen: there is no backdrop to click.
test("a click inside keeps it open; a click on the backdrop closes it", { tag: "@wide-only" }, async ({ page }) => {
  await offerShown(page);
  await offer(page).getByRole("heading", { name: WIDE_HEADING }).click();
  await offer(page).getByRole("img").click();
  await expect(offer(page)).toBeVisible();
  expect(await trackedEvents(page, "offer_modal_close")).toEqual([]);

  await page.mouse.click(10, 400);
  await expect(offer(page)).toBeHidden();
  expect((await trackedEvents(page, "offer_modal_close")).map((e) => e.params)).toEqual([
    { event_category: "engagement", event_label: "modal_dismissed", reason: "backdrop" },
  ]);
});

test("keeps focus inside, closes on Escape and gives focus back", async ({ page }) => {
  const start = new Date("2026-03-02T10:00:00+05:30");
  await page.clock.install({ time: start });
  await page.clock.pauseAt(new Date(start.getTime() + 60_000)); // the offer waits until the focus is placed
  await page.goto("/");
  await hydrated(page);
  await page.getByRole("link", { name: "Skip to content" }).focus();
  await page.clock.runFor(OFFER_DELAY_MS);
  await expect(offer(page)).toBeVisible();
  await page.clock.resume();
  const close = offer(page).getByRole("button", { name: "Close the welcome note" });
  const discover = offer(page).getByRole("link", { name: /Discover with us/ });
  await expect(close).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(discover).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(offer(page)).toBeHidden();
  await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
});

test("'Discover with us' opens the messaging app with a greeting, records the conversion and closes", async ({ page, context }) => {
  await context.route(/wa\.me/, (route) => route.fulfill({ body: "ok" }));
  await offerShown(page);
  expect((await trackedEvents(page, "offer_modal_view")).map((e) => e.params)).toEqual([{ event_category: "engagement", event_label: "modal_shown" }]);
  const discover = offer(page).getByRole("link", { name: "Discover with us (opens WhatsApp in a new tab)" });
  const href = new URL((await discover.getAttribute("href"))!);
  expect(href.origin + href.pathname).toBe(`https://wa.me/${whatsappNumber(site)}`);
  expect(href.searchParams.get("text")).toMatch(/furniture collection/);
  const popup = page.waitForEvent("popup");
  await discover.click();
  await (await popup).close();
  await expect(offer(page)).toBeHidden();
  expect((await trackedEvents(page, "contact_attempt")).map((e) => e.params)).toEqual([{ method: "whatsapp", location: "offer_modal" }]);
  expect((await trackedEvents(page, "offer_modal_conversion")).map((e) => e.params)).toEqual([
    { event_category: "lead_generation", event_label: "grab_deal_click", value: 1 },
  ]);
  expect(await trackedEvents(page, "offer_modal_close")).toEqual([]);
});

test("desktop: two columns with the story, the button and a product image", { tag: "@wide-only" }, async ({ page }) => {
  await offerShown(page);
  const dialog = offer(page);
  await expect(dialog.getByRole("heading", { level: 2 })).toHaveText(WIDE_HEADING);
  await expect(dialog.getByRole("paragraph")).toHaveCount(3);
  const text = await dialog.getByRole("heading").boundingBox();
  const image = await dialog.getByRole("img").boundingBox();
  expect(image!.x).toBeGreaterThan(text!.x + text!.width - 1); // side by side
  expect(image!.width).toBeGreaterThan(200);
  await expect(dialog.getByRole("link", { name: /Discover with us/ })).toBeVisible();
});

test("mobile: a full-height background image, a shorter heading, two lines and the button", { tag: "@narrow-only" }, async ({ page }) => {
  await offerShown(page);
  const dialog = offer(page);
  await expect(dialog.getByRole("heading", { level: 2 })).toHaveText(NARROW_HEADING);
  await expect(dialog.getByRole("paragraph")).toHaveCount(2);
  const viewport = page.viewportSize()!;
  const background = await dialog.locator("img").boundingBox();
  expect(background).toEqual({ x: 0, y: 0, width: viewport.width, height: viewport.height });
  await expect(dialog.getByRole("link", { name: /Discover with us/ })).toBeInViewport();
  await dialog.getByRole("heading").click(); // inside: stays
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Close the welcome note" }).click();
  await expect(dialog).toBeHidden();
});

test("moves nothing on the page and does not become its largest contentful paint", { tag: "@both" }, async ({ page }) => {
  await page.addInitScript(() => {
    const w = window as unknown as { __shift: number; __lcp: Element[] };
    w.__shift = 0;
    w.__lcp = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
        if (!e.hadRecentInput) w.__shift += e.value;
      }
    }).observe({ type: "layout-shift", buffered: true });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as (PerformanceEntry & { element: Element | null })[]) {
        if (e.element) w.__lcp.push(e.element);
      }
    }).observe({ type: "largest-contentful-paint", buffered: true });
  });
  await page.goto("/");
  await hydrated(page);
  await expect(offer(page)).toBeVisible();
  // Its image loaded and painted, its animation over: any LCP entry it makes is in by then.
  await expect.poll(() => offer(page).locator("img").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await offer(page).evaluate(async (dialog) => {
    await Promise.all(dialog.getAnimations({ subtree: true }).map((a) => a.finished));
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  });
  const result = await page.evaluate(() => {
    const w = window as unknown as { __shift: number; __lcp: Element[] };
    const dialog = document.querySelector("dialog[open]");
    return { shift: w.__shift, lcpCount: w.__lcp.length, lcpInOffer: w.__lcp.some((el) => dialog?.contains(el)) };
  });
  expect(result.shift).toBe(0);
  expect(result.lcpCount).toBeGreaterThan(0);
  expect(result.lcpInOffer).toBe(false);
});

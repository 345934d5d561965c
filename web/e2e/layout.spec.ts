import type { Page } from "@playwright/test";
import { test, expect, hydrated, nextFrames } from "./fixtures";
import { products } from "./content";
import { similarProducts } from "../app/lib/catalogue";

// The page's blocks keep one gutter and one left edge (the container:
// styles/base.css), at the narrowest phone and on a wide screen; the chat
// launcher floating over them hides no control; the category tabs say
// when they scroll on. The narrowest phone is the phone project's, with
// touch; the wide screen the laptop's.

async function box(page: Page, locator: ReturnType<Page["locator"]>) {
  const b = await locator.boundingBox();
  expect(b, "the element has a box").not.toBeNull();
  return b!;
}

type Box = { x: number; y: number; width: number; height: number };
const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

for (const [width, screen] of [
  [320, "@narrow-only"],
  [1280, "@wide-only"],
] as const) {
  test.describe(`at ${width} px`, { tag: screen }, () => {
    test.use({ viewport: { width, height: 800 } });

    test("About's Glimpses keep the gutter of the blocks around them", async ({ page }) => {
      await page.goto("/about");
      const glimpses = page.getByRole("region", { name: "Glimpses" });
      const team = page.getByRole("region", { name: "The team" });
      // The right edge of the rightmost card of each block: the same gutter.
      const rightmost = async (region: typeof glimpses) => {
        const items = region.getByRole("listitem");
        let right = 0;
        for (let i = 0; i < (await items.count()); i++) {
          const b = await box(page, items.nth(i));
          right = Math.max(right, b.x + b.width);
        }
        return Math.round(right);
      };
      expect(await rightmost(glimpses)).toBe(await rightmost(team));
      expect(await rightmost(glimpses)).toBe(Math.round((await box(page, glimpses)).x + (await box(page, glimpses)).width));
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(width);
    });

    test("Similar Products start under their heading", async ({ page }) => {
      let checked = 0;
      for (const p of products) {
        await page.goto(`/product/${p.id}`);
        const section = page.getByRole("region", { name: "Similar Products" });
        const cards = section.getByRole("listitem");
        if ((await cards.count()) === 0) continue;
        await hydrated(page);
        const heading = await box(page, section.getByRole("heading", { name: "Similar Products" }));
        const first = await box(page, cards.first());
        expect(Math.round(first.x), `/product/${p.id}`).toBe(Math.round(heading.x));
        checked++;
      }
      expect(checked).toBeGreaterThan(0);
    });

    // The launcher is fixed at the viewport's bottom right, so every part
    // of the page passes under that corner at some scroll position: each
    // Add to shortlist button (the cards' and the product page's) is
    // brought to the viewport's bottom edge, and must be clear of it there.
    test("the chat launcher covers no Add to shortlist button, wherever the page is scrolled", async ({ page }) => {
      for (const path of ["/products", `/product/${products[0]!.id}`]) {
        await page.goto(path);
        await hydrated(page);
        const launcher = page.getByRole("button", { name: "Chat with us" });
        const buttons = page.getByRole("button", { name: /^Add\b.*\bto shortlist$/ });
        let checked = 0;
        for (const button of await buttons.all()) {
          await button.evaluate((el) => window.scrollBy(0, el.getBoundingClientRect().bottom - window.innerHeight));
          await nextFrames(page);
          const b = await box(page, button);
          if (b.x >= width || b.x + b.width <= 0) continue; // a card a carousel keeps out of view
          const name = await button.evaluate((el) => el.getAttribute("aria-label") ?? el.textContent);
          expect(overlap(b, await box(page, launcher)), `${path}: ${name}`).toBe(false);
          checked++;
        }
        expect(checked, path).toBeGreaterThan(1);
      }
    });

    // Where the tabs are one row wider than the screen, its edge that
    // scrolls on fades (a mask, products.css); a row that fits has none.
    test("the category tabs fade where they scroll on, and show every name whole", async ({ page }) => {
      await page.goto("/products");
      await hydrated(page);
      const tabs = page.getByRole("navigation", { name: "Categories" });
      for (const tab of await tabs.getByRole("link").all()) {
        // A tab the row's edge cuts is cut there, never shortened in itself.
        expect(await tab.evaluate((el) => el.scrollWidth <= el.clientWidth && getComputedStyle(el).textOverflow !== "ellipsis")).toBe(true);
      }
      const seen = () => tabs.evaluate((nav) => ({ overflows: nav.scrollWidth > nav.clientWidth, cue: getComputedStyle(nav).maskImage }));
      const start = await seen();
      if (width === 1280) expect(start.overflows).toBe(false);
      expect(start.cue !== "none", `a cue where the row ${start.overflows ? "overflows" : "fits"}`).toBe(start.overflows);
      if (!start.overflows) return;
      // Scrolled to its end: the fade moves to the edge it came from.
      await tabs.evaluate((nav) => nav.scrollTo({ left: nav.scrollWidth, behavior: "instant" }));
      await nextFrames(page);
      const end = await seen();
      expect(end.cue).not.toBe("none");
      expect(end.cue).not.toBe(start.cue);
    });
  });
}

// A select's text cannot wrap: on a 390-pixel phone each of a request
// page's selects is as wide as its longest option needs, for the product
// whose options are the longest.
test.describe("at 390 px", { tag: "@narrow-only" }, () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("a request page's selects show their options whole", async ({ page }) => {
    const longest = (p: (typeof products)[number]) => Math.max(...[...p.material, ...p.finish].map((o) => o.length));
    const product = products.reduce((a, b) => (longest(b) > longest(a) ? b : a));
    await page.goto(`/product/${product.id}/quote`);
    for (const name of ["Material", "Finish"]) {
      const select = page.getByRole("combobox", { name });
      // The width it would take to show its longest option, beside the width it has.
      const { needed, has } = await select.evaluate((s: HTMLSelectElement) => {
        const probe = s.cloneNode(true) as HTMLSelectElement;
        probe.style.width = "max-content";
        probe.style.position = "absolute";
        s.after(probe);
        const widths = { needed: probe.getBoundingClientRect().width, has: s.getBoundingClientRect().width };
        probe.remove();
        return widths;
      });
      expect(has, `${name}: ${has} px for ${needed} px of text`).toBeGreaterThanOrEqual(needed);
    }
  });
});

// The chat launcher floats at the viewport's bottom right on a phone, so the
// controls that end at the column's right edge pass under it as the page
// scrolls: the pagination's Next and Similar Products' Next keep clear of
// it. Each is brought to the viewport's bottom edge and then level with the
// launcher, and at both the point at its centre must be the control itself.
const withMostSimilar = [...products].sort((a, b) => similarProducts(products, b).length - similarProducts(products, a).length)[0]!;

for (const width of [320, 375]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 700 } });

    for (const [path, control] of [
      ["/products", (page: Page) => page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Next" })],
      [`/product/${withMostSimilar.id}`, (page: Page) => page.getByRole("button", { name: "Next similar products" })],
    ] as const) {
      test(`the chat launcher does not cover ${path}'s Next, wherever the page is scrolled`, async ({ page }) => {
        await page.goto(path);
        await hydrated(page);
        const launcher = page.getByRole("button", { name: "Chat with us" });
        await expect(launcher).toBeVisible();
        const next = control(page);
        await expect(next).toBeVisible();
        const launcherBox = await box(page, launcher);
        for (const [where, y] of [
          ["at the viewport's bottom edge", null],
          ["level with the launcher", launcherBox.y + launcherBox.height / 2],
        ] as const) {
          await next.evaluate((el, level) => {
            const b = el.getBoundingClientRect();
            window.scrollBy(0, level === null ? b.bottom - window.innerHeight : b.top + b.height / 2 - level);
          }, y);
          await nextFrames(page);
          const atCentre = await next.evaluate((el) => {
            const b = el.getBoundingClientRect();
            const hit = document.elementFromPoint(b.x + b.width / 2, b.y + b.height / 2);
            return el.contains(hit) ? "the control" : (hit?.closest("button, a")?.getAttribute("aria-label") ?? hit?.tagName ?? "nothing");
          });
          expect(atCentre, `${path}, Next ${where}`).toBe("the control");
        }
      });
    }
  });
}

import type { Page } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { test, expect, hydrated, holdScripts, axeViolations } from "./fixtures";
import { catalogue, productById, site, vocabulary } from "./content";
import { DEFAULT_LIST_STATE, listPath } from "../app/lib/filters";

// axe on every page, and on every dialog and menu in its open state: no
// serious or critical violation of WCAG 2.1 A and AA. On the phone and on
// the laptop (@both): what is shown, and so what axe sees, differs.

async function expectNoSeriousViolations(page: Page, include?: string) {
  const violations = await axeViolations(page, include);
  const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`)).toEqual([]);
}

const fresh = productById(catalogue.featured.fresh);

// The two not-found pages too: the home page's and the products list's, each under its notice.
const unknownId = Math.max(...catalogue.products.map((p) => p.id), ...(catalogue.removed ?? []).map((p) => p.id)) + 989;
for (const path of ["/", "/products", `/product/${fresh.id}`, "/about", "/contact-us", "/bespoke", "/shipping-policy", "/terms-conditions", "/returns", "/privacy-policy", "/no-such-page", `/product/${unknownId}`]) {
  test(`${path}: no serious or critical violation`, { tag: "@both" }, async ({ page }) => {
    await page.route((url) => url.href.startsWith(new URL(site.map.embedUrl).origin), (route) => route.fulfill({ contentType: "text/html", body: "<title>map</title>" }));
    await page.goto(path);
    await hydrated(page);
    await expectNoSeriousViolations(page);
  });
}

test.describe("open dialogs and menus", { tag: "@both" }, () => {
  test("the quote dialog", async ({ page }) => {
    await page.goto(`/product/${fresh.id}`);
    await hydrated(page);
    await page.getByRole("button", { name: "Get Quote" }).click();
    await expect(page.getByRole("dialog")).toBeVisible();
    await expectNoSeriousViolations(page, "dialog[open]");
  });

  test("the Bespoke page's dialog, with its own styles", async ({ page }) => {
    await page.goto("/bespoke");
    await hydrated(page);
    await page.getByRole("button", { name: "Let's begin" }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog).toBeVisible();
    await expectNoSeriousViolations(page, "dialog[open]");
    // Not the band's centred text: labels start at the left.
    expect(await dialog.locator("label").first().evaluate((el) => getComputedStyle(el).textAlign)).not.toBe("center");
  });

  test("the search overlay with results", async ({ page }) => {
    await page.goto("/about");
    await hydrated(page);
    await page.getByRole("button", { name: "Search products" }).click();
    await page.getByRole("combobox", { name: "Search products" }).fill(fresh.name);
    await expect(page.getByRole("option").first()).toBeVisible();
    await expectNoSeriousViolations(page, "dialog[open]");
  });

  test("the chat panel", async ({ page }) => {
    await page.goto("/about");
    await hydrated(page);
    await page.getByRole("button", { name: "Chat with us" }).click();
    const chat = page.getByRole("dialog", { name: `Chat with ${site.name}` });
    await expect(chat.getByRole("list", { name: "Conversation" }).getByRole("button").first()).toBeVisible();
    await expectNoSeriousViolations(page, ".chat-panel");
  });

  test("the Filter menu, with its checkboxes", async ({ page }) => {
    await page.goto("/products");
    await hydrated(page);
    await page.getByText(/^Filter\b/).click();
    await expect(page.getByRole("group", { name: "Material" }).getByRole("checkbox").first()).toBeVisible();
    await expectNoSeriousViolations(page, "details.filter-menu");
  });

  // axe itself runs as a script, so the page's own scripts are held back
  // instead: the menu as it is before they run, and without them.
  test("the Filter menu before the page's script, with its links, one chosen", async ({ page }) => {
    const release = await holdScripts(page);
    await page.goto(listPath({ ...DEFAULT_LIST_STATE, materials: [vocabulary.materials[0]!.name] }), { waitUntil: "commit" });
    await page.getByText(/^Filter\b/).click();
    await expect(page.getByRole("group", { name: "Material" }).getByRole("link").first()).toBeVisible();
    await expectNoSeriousViolations(page, "details.filter-menu");
    release();
    await hydrated(page);
  });

  test("the mobile menu", { tag: "@narrow-only" }, async ({ page }) => {
    await page.goto("/about");
    await hydrated(page);
    await page.locator("summary[aria-label=Menu]").click();
    await expect(page.getByRole("navigation", { name: "Mobile" })).toBeVisible();
    await expectNoSeriousViolations(page, ".mobile-menu");
  });
});

test.describe("the welcome offer", { tag: "@both" }, () => {
  test.use({ welcomeOffer: true });
  test("open", async ({ page }) => {
    await page.goto("/");
    await hydrated(page);
    await expect(page.getByRole("dialog", { name: /whispers stories/ })).toBeVisible();
    await expectNoSeriousViolations(page, "dialog[open]");
  });
});

// axe's rules of best practice too, the moderate ones among them: each
// landmark unique by its role and name, and one banner, the page's header
// (the chat panel's top is no second one), also with the chat open.
test.describe("landmarks, with axe's best practice", { tag: "@both" }, () => {
  const bestPractice = async (page: Page) =>
    (await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]).analyze()).violations.map(
      (v) => `${v.id} (${v.impact}): ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`,
    );

  test("the home page, and with the chat open", async ({ page }) => {
    await page.goto("/");
    await hydrated(page);
    expect(await bestPractice(page)).toEqual([]);
    await page.getByRole("button", { name: "Chat with us" }).click();
    const chat = page.getByRole("dialog", { name: `Chat with ${site.name}` });
    await expect(chat.getByRole("list", { name: "Conversation" }).getByRole("button").first()).toBeVisible();
    expect(await bestPractice(page)).toEqual([]);
    await expect(page.getByRole("banner")).toHaveCount(1);
  });
});

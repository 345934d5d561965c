import { test, expect, hydrated, nextFrames } from "./fixtures";
import { catalogue, productById, vocabulary } from "./content";

// Back and Forward as a visitor uses them: the place on the page comes
// back, and ticking filters does not fill the history.

test("Back returns to the place on the home page the visitor left from", async ({ page }) => {
  await page.goto("/");
  await hydrated(page);
  const hot = productById(catalogue.featured.whatsHot[0]!);
  const row = page.getByRole("region", { name: "What's Hot" });
  await row.scrollIntoViewIfNeeded();
  await nextFrames(page);
  const left = await page.evaluate(() => window.scrollY);
  expect(left).toBeGreaterThan(200);

  await row.getByRole("link", { name: new RegExp(hot.name) }).first().click();
  await expect(page).toHaveURL(new RegExp(`/product/${hot.id}$`));
  await expect(page.getByRole("heading", { level: 1, name: hot.name })).toBeVisible();
  // A new page starts at the top.
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);

  await page.goBack();
  await expect(page).toHaveURL(/\/$/);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(left);

  await page.goForward();
  await expect(page.getByRole("heading", { level: 1, name: hot.name })).toBeVisible();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
});

test("one Back leaves the products page, however many filters were ticked", async ({ page }) => {
  await page.goto("/about");
  await page.goto("/products");
  await hydrated(page);
  await page.getByText("Sort", { exact: true }).click();
  const ticks: [string, string][] = [
    ...vocabulary.materials.slice(0, 2).map((m): [string, string] => ["Material", m.name]),
    ...vocabulary.finishes.slice(0, 1).map((f): [string, string] => ["Finish", f.name]),
  ];
  for (const [group, name] of ticks) {
    await page.getByRole("group", { name: group }).getByRole("checkbox", { name, exact: true }).check();
    await expect(page).toHaveURL(new RegExp(`${group.toLowerCase()}=${encodeURIComponent(name).replace(/%20/g, "\\+")}`));
  }
  await page.goBack();
  await expect(page).toHaveURL(/\/about$/);
});

test.describe("the first search", () => {
  test("keys typed right after the first click all arrive: the overlay's code is fetched while the page is idle", async ({ page }) => {
    await page.goto("/");
    await hydrated(page);
    await page.waitForLoadState("networkidle");
    await page.getByRole("button", { name: "Search products" }).click();
    await page.keyboard.type("walnut table");
    await expect(page.getByRole("combobox", { name: "Search products" })).toHaveValue("walnut table");
  });

  test("reopened, the previous text is selected, so typing replaces it", async ({ page }) => {
    await page.goto("/about");
    await hydrated(page);
    const button = page.getByRole("button", { name: "Search products" });
    const input = page.getByRole("combobox", { name: "Search products" });
    await button.click();
    await input.fill("walnut");
    await page.keyboard.press("Escape");
    await expect(input).toBeHidden();
    await button.click();
    await expect(input).toBeFocused();
    await page.keyboard.type("oak");
    await expect(input).toHaveValue("oak");
  });
});

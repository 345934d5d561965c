import { test, expect, holdScripts, hydrated, nextFrames, recordAnalytics, trackedEvents } from "./fixtures";
import { catalogue, home, productById, products, vocabulary } from "./content";
import { similarProducts } from "../app/lib/catalogue";
import { DEFAULT_LIST_STATE, PAGE_SIZE, filterProducts, listPath } from "../app/lib/filters";

// Back and Forward as a visitor uses them: the place on the page comes
// back, and ticking filters does not fill the history.

test("Back returns to the place on the home page the visitor left from", async ({ page }) => {
  await page.goto("/");
  await hydrated(page);
  const hot = productById(catalogue.featured.whatsHot[0]!);
  const row = page.getByRole("region", { name: home.whatsHot.title });
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

for (const reducedMotion of ["no-preference", "reduce"] as const) {
  test(`Back from the list's page 2 returns to where page 1 was left (motion: ${reducedMotion})`, async ({ page }) => {
    expect(products.length, "the catalogue fills more than one page").toBeGreaterThan(PAGE_SIZE);
    await page.emulateMedia({ reducedMotion });
    await page.goto("/products");
    await hydrated(page);
    const pageTwo = page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Page 2" });
    await pageTwo.scrollIntoViewIfNeeded();
    await nextFrames(page);
    const left = await page.evaluate(() => window.scrollY);
    expect(left).toBeGreaterThan(200);

    await pageTwo.click();
    await expect(page).toHaveURL(new RegExp(`${listPath({ ...DEFAULT_LIST_STATE, page: 2 })}$`));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);

    await page.goBack();
    await expect(page).toHaveURL(new RegExp(`${listPath(DEFAULT_LIST_STATE)}$`));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(left);
  });
}

// The filter menu and its checkboxes, and the list's address for a state
// (listPath, tested in app/lib/filters.test.ts): one option of a filter in
// the path, two or more in the query.
type Page = import("@playwright/test").Page;
const filterMenu = (page: Page) => page.getByText(/^Filter\b/);
const option = (page: Page, group: "Material" | "Finish", name: string) =>
  page.getByRole("group", { name: group }).getByRole("checkbox", { name, exact: true });
const at = (state: Partial<typeof DEFAULT_LIST_STATE>) =>
  new RegExp(`${listPath({ ...DEFAULT_LIST_STATE, ...state }).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`);
const [material1, material2] = vocabulary.materials.map((m) => m.name);
const [finish1] = vocabulary.finishes.map((f) => f.name);

// The boxes of the menu show the state, in every group.
async function expectTicked(page: Page, state: { materials: string[]; finishes: string[] }) {
  for (const m of vocabulary.materials) await expect(option(page, "Material", m.name)).toBeChecked({ checked: state.materials.includes(m.name) });
  for (const f of vocabulary.finishes) await expect(option(page, "Finish", f.name)).toBeChecked({ checked: state.finishes.includes(f.name) });
}

test("the ticks of one opening of the filter menu are one history entry: one Back returns to the list before them", async ({ page }) => {
  const before = { materials: [] as string[], finishes: [finish1!] };
  await page.goto("/about");
  await page.goto(listPath({ ...DEFAULT_LIST_STATE, ...before }));
  await hydrated(page);
  // Scrolled a little, with the menu still in view.
  await page.evaluate(() => window.scrollBy(0, 40));
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  const left = await page.evaluate(() => window.scrollY);

  await filterMenu(page).click();
  await option(page, "Material", material1!).check();
  await expect(page).toHaveURL(at({ materials: [material1!], finishes: [finish1!] }));
  await option(page, "Material", material2!).check();
  await expect(page).toHaveURL(at({ materials: [material1!, material2!], finishes: [finish1!] }));
  await option(page, "Finish", finish1!).uncheck();
  const after = { materials: [material1!, material2!], finishes: [] };
  await expect(page).toHaveURL(at(after));

  await page.goBack();
  await expect(page).toHaveURL(at(before));
  await expectTicked(page, before);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(left);
  await page.goBack();
  await expect(page).toHaveURL(/\/about$/);

  // Forward brings the opening's last state; reloaded, its address brings
  // every tick back.
  await page.goForward();
  await expect(page).toHaveURL(at(before));
  await hydrated(page); // a page of its own again: Forward waits for its script
  await page.goForward();
  await expect(page).toHaveURL(at(after));
  await page.reload();
  await hydrated(page);
  await filterMenu(page).click();
  await expectTicked(page, after);
});

test("two openings of the filter menu are two history entries, however each was closed", async ({ page }) => {
  const none = { materials: [] as string[], finishes: [] as string[] };
  const first = { materials: [material1!, material2!], finishes: [] };
  const second = { materials: [material1!, material2!], finishes: [finish1!] };
  await page.goto("/about");
  await page.goto("/products");
  await hydrated(page);

  await filterMenu(page).click();
  await option(page, "Material", material1!).check();
  await option(page, "Material", material2!).check();
  await expect(page).toHaveURL(at(first));
  await page.keyboard.press("Escape");
  await expect(option(page, "Material", material1!)).toBeHidden();

  // Closed by its summary, then by a click elsewhere: each opening is one entry.
  await filterMenu(page).click();
  await option(page, "Finish", finish1!).check();
  await expect(page).toHaveURL(at(second));
  await filterMenu(page).click();
  await expect(option(page, "Finish", finish1!)).toBeHidden();
  await filterMenu(page).click();
  await option(page, "Material", material1!).uncheck();
  const third = { materials: [material2!], finishes: [finish1!] };
  await expect(page).toHaveURL(at(third));
  await page.getByRole("heading", { level: 1 }).click();
  await expect(option(page, "Material", material1!)).toBeHidden();

  await filterMenu(page).click();
  for (const state of [second, first, none]) {
    await page.goBack();
    await expect(page).toHaveURL(at(state));
    await expectTicked(page, state);
  }
  await page.goBack();
  await expect(page).toHaveURL(/\/about$/);
});

test("a tick after Back, with the menu still open, keeps the list Back returned to", async ({ page }) => {
  await page.goto("/about");
  await page.goto("/products");
  await hydrated(page);
  await filterMenu(page).click();
  await option(page, "Material", material1!).check();
  await expect(page).toHaveURL(at({ materials: [material1!] }));
  await page.goBack();
  await expect(page).toHaveURL(at({}));
  await option(page, "Finish", finish1!).check();
  await expect(page).toHaveURL(at({ finishes: [finish1!] }));
  await page.goBack();
  await expect(page).toHaveURL(at({}));
  await page.goBack();
  await expect(page).toHaveURL(/\/about$/);
});

test.describe("Back from a product returns to the place on the list the visitor left", () => {
  // Scrolled down the list to its last card (the page scrolls, whatever the
  // catalogue: the footer is below the list).
  async function scrolledList(page: Page) {
    await page.goto("/products");
    await hydrated(page);
    const last = page.getByRole("region", { name: "Products" }).getByRole("link").last();
    await last.scrollIntoViewIfNeeded();
    await nextFrames(page);
    const left = await page.evaluate(() => window.scrollY);
    expect(left).toBeGreaterThan(0);
    return { last, left };
  }

  async function backToList(page: Page, left: number) {
    await expect(page).toHaveURL(/\/product\/\d+$/);
    // A new page starts at the top.
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await page.goBack();
    await expect(page).toHaveURL(at({}));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(left);
  }

  test("opened from its card", async ({ page }) => {
    const { last, left } = await scrolledList(page);
    await last.click();
    await backToList(page, left);
  });

  test("opened from the search, reached by the keyboard", async ({ page }) => {
    const { left } = await scrolledList(page);
    // Focus on the header's button, and back on it when the search closes,
    // leaves the page where it was.
    const search = page.getByRole("button", { name: "Search products" });
    await search.press("Enter");
    await page.keyboard.press("Escape");
    await expect(search).toBeFocused();
    await nextFrames(page);
    expect(await page.evaluate(() => window.scrollY)).toBe(left);
    await search.press("Enter");
    const product = products[0]!;
    await page.getByRole("combobox", { name: "Search products" }).fill(product.name);
    await page.getByRole("option").filter({ hasText: product.name }).first().click();
    await backToList(page, left);
  });
});

test.describe("the first search", () => {
  test("keys typed right after the first click all arrive, even while the overlay's code is on its way", async ({ page }) => {
    // The overlay's code arrives only once the keys are typed (a slow network).
    const release = await holdScripts(page, "**/assets/SearchOverlay-*.js");
    await page.goto("/");
    await hydrated(page);
    await page.getByRole("button", { name: "Search products" }).click();
    await page.keyboard.type("walnut table");
    release();
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

test("after a page change, focus is on the new page's main heading", async ({ page }) => {
  await page.goto("/products");
  await hydrated(page);
  await page.getByRole("contentinfo").getByRole("link", { name: "About us" }).click();
  await expect(page).toHaveURL(/\/about$/);
  await expect(page.getByRole("heading", { level: 1, name: "About us" })).toBeFocused();
  // Tab goes on from the top of the new page, not from the footer.
  await page.keyboard.press("Tab");
  const inFooter = await page.evaluate(() => document.activeElement?.closest("footer") !== null);
  expect(inFooter).toBe(false);
});

test.describe("analytics", () => {
  test("time_on_page is sent for a page left through a link of the site", async ({ page }) => {
    await recordAnalytics(page);
    await page.clock.install();
    await page.goto("/about");
    await hydrated(page);
    await page.clock.fastForward(3000);
    await page.getByRole("contentinfo").getByRole("link", { name: "Contact us" }).click();
    await expect(page).toHaveURL(/\/contact-us$/);
    await expect.poll(async () => (await trackedEvents(page, "time_on_page")).map((e) => e.params.page_path)).toEqual(["/about"]);
    expect((await trackedEvents(page, "time_on_page"))[0]!.params.seconds).toBeGreaterThanOrEqual(3);
  });

  test("Enter right after typing sends the search, once, with the click on its result", async ({ page }) => {
    await recordAnalytics(page);
    const product = productById(catalogue.featured.fresh);
    await page.goto("/about");
    await hydrated(page);
    await page.getByRole("button", { name: "Search products" }).click();
    const input = page.getByRole("combobox", { name: "Search products" });
    await input.fill(product.name);
    await expect(page.getByRole("option").first()).toBeVisible();
    await input.press("Enter");
    await expect(page).toHaveURL(/\/product\/\d+$/);
    const searches = await trackedEvents(page, "search");
    expect(searches.map((e) => e.params.search_term)).toEqual([product.name]);
    const selected = await trackedEvents(page, "select_item");
    expect(selected.map((e) => e.params.item_list_name)).toEqual(["Search Results"]);
  });

  test("select_item names the list a product was chosen from: What's Hot, then Similar Products", async ({ page }) => {
    await recordAnalytics(page);
    // A piece of What's Hot that has similar products (same category).
    const hot = catalogue.featured.whatsHot.map(productById).find((p) => similarProducts(products, p).length > 0)!;
    await page.goto("/");
    await hydrated(page);
    await page.getByRole("region", { name: home.whatsHot.title }).getByRole("link", { name: new RegExp(hot.name) }).first().click();
    await expect(page).toHaveURL(new RegExp(`/product/${hot.id}$`));
    await page.getByRole("group", { name: "Similar products" }).getByRole("link").first().click();
    await expect(page).not.toHaveURL(new RegExp(`/product/${hot.id}$`));
    const selected = (await trackedEvents(page, "select_item")).map((e) => e.params);
    expect(selected).toMatchObject([
      { item_list_name: "What's Hot", items: [{ item_id: String(hot.id) }] },
      { item_list_name: "Similar Products", index: 1 },
    ]);
  });
});

// Back to Products, from a product opened from the list in this tab, is
// the browser's Back: the list with its filters, page and place, and no
// entry added for Back to step through.
test("Back to Products returns to the list's filters, page and place, adding no history entry", async ({ page }) => {
  // A list of more than one row, with a filter, on its second page if it has one.
  const [material] = vocabulary.materials.map((m) => m.name);
  const filtered = filterProducts(products, { ...DEFAULT_LIST_STATE, materials: [material!] }, vocabulary);
  const state = { ...DEFAULT_LIST_STATE, materials: [material!], page: filtered.length > PAGE_SIZE ? 2 : 1 };
  const onPage = filtered.slice((state.page - 1) * PAGE_SIZE, state.page * PAGE_SIZE);
  await page.goto("/about");
  await page.goto(listPath(state));
  await hydrated(page);
  const last = page.getByRole("link").filter({ has: page.getByRole("heading", { name: onPage.at(-1)!.name, exact: true }) });
  await last.scrollIntoViewIfNeeded();
  await page.evaluate(() => window.scrollBy(0, 60));
  await nextFrames(page);
  const left = await page.evaluate(() => window.scrollY);
  expect(left).toBeGreaterThan(0);
  const entries = await page.evaluate(() => history.length);

  await last.click();
  await expect(page).toHaveURL(new RegExp(`/product/${onPage.at(-1)!.id}$`));
  await page.getByRole("link", { name: "Back to Products" }).click();
  await expect(page).toHaveURL(at(state));
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(left);
  await expect(page.getByRole("heading", { level: 2, name: onPage.at(-1)!.name, exact: true })).toBeVisible();
  // The product page is Forward, as after the browser's Back; Back leaves the list.
  expect(await page.evaluate(() => history.length)).toBe(entries + 1);
  await page.goBack();
  await expect(page).toHaveURL(/\/about$/);
  await page.goForward();
  await page.goForward();
  await expect(page).toHaveURL(new RegExp(`/product/${onPage.at(-1)!.id}$`));
});

// Forward pressed before the scripts have run moves the address to a page
// of this tab's history while the page shown is still the list; the product
// page comes, not the list's page hydrated as a product or an error.
test("an address moved to another page before the scripts ran loads that page", async ({ page }) => {
  const [product] = products;
  const release = await holdScripts(page);
  await page.goto("/products", { waitUntil: "domcontentloaded" });
  // Where Forward lands after a card was opened in this document.
  await page.evaluate((to) => history.pushState(null, "", to), `/product/${product!.id}`);
  release();
  await expect(page.getByRole("heading", { level: 1, name: product!.name, exact: true })).toBeVisible();
  await hydrated(page);
  await expect(page).toHaveURL(new RegExp(`/product/${product!.id}$`));
});

import { test, expect, holdScripts, hydrated, nextFrames, recordAnalytics, trackedEvents, type TrackedEvent } from "./fixtures";
import { catalogue, home, productById, products, service, site, vocabulary } from "./content";
import { ALL, DEFAULT_LIST_STATE, PAGE_SIZE, filterProducts, listPath, tabNames } from "../app/lib/filters";
import { similarProducts } from "../app/lib/catalogue";
import { SEARCH_SETTLE_MS, searchProducts } from "../app/lib/search";
import { warranty } from "../app/lib/facts";

// Every expectation here is read from content/ (through the same rules the
// site applies, each tested on fixtures in app/lib), so the studio's edits
// to the catalogue never need a test edit.

const productNames = (page: import("@playwright/test").Page) =>
  page.getByRole("region", { name: "Products" }).getByRole("heading", { level: 2 }).allTextContents();
const tab = (page: import("@playwright/test").Page, name: string) =>
  page.getByRole("navigation", { name: "Categories" }).getByRole("link", { name, exact: true });
// The list's address for a category and page (app/lib/filters.ts, tested on fixtures there).
const listUrl = (category: string, page = 1) => urlOf({ category, page });
const urlOf = (state: Partial<typeof DEFAULT_LIST_STATE>) => new RegExp(`${listPath({ ...DEFAULT_LIST_STATE, ...state }).replace(/\?/g, "\\?")}$`);
const none = { category: ALL, materials: [] as string[], finishes: [] as string[] };
const names = (list: { name: string }[]) => list.map((p) => p.name);
const matching = (state: Partial<typeof none>) => filterProducts(products, { ...none, ...state }, vocabulary);
const tabs = tabNames(vocabulary).slice(1);
const itemOf = (p: { id: number; name: string; category: string }) => ({ item_id: String(p.id), item_name: p.name, item_category: p.category });
// The first tab, material and finish that narrow the list step by step
// without emptying it: the path a visitor takes through the filters.
const path = (() => {
  for (const tab of tabs) {
    for (const material of vocabulary.materials) {
      const withMaterial = matching({ category: tab, materials: [material.name] });
      if (withMaterial.length === 0) continue;
      for (const finish of vocabulary.finishes) {
        const withFinish = matching({ category: tab, materials: [material.name], finishes: [finish.name] });
        if (withFinish.length > 0) return { tab, material: material.name, finish: finish.name };
      }
    }
  }
  throw new Error("content/catalogue.json: no tab, material and finish that match a product together");
})();

test.describe("home", () => {
  test("shows every section, with the hero in the first paint", { tag: "@both" }, async ({ page }) => {
    await page.goto("/");
    await hydrated(page);
    const hero = page.locator(".hero__image");
    await expect(hero).toBeVisible();
    await expect(hero).not.toHaveAttribute("loading", "lazy");
    await expect(hero).toHaveAttribute("fetchpriority", "high");
    // Every section's heading and text, as content/pages.json gives them.
    const sections = [...home.disciplines, home.intention, ...home.values, home.craft];
    for (const { title, text } of sections) {
      await expect(page.getByRole("heading", { name: title, exact: true })).toBeVisible();
      await expect(page.getByText(text, { exact: true })).toBeVisible();
    }
    for (const name of [home.whatsHot.title, home.fresh.title, home.showcase.title, ...home.showcase.items.map((i) => i.title)]) {
      await expect(page.getByRole("heading", { name, exact: true })).toBeVisible();
    }
    await expect(page.getByText(site.marquee).first()).toBeAttached();

    const hot = page.getByRole("region", { name: home.whatsHot.title });
    await expect(hot.getByRole("heading", { level: 3 })).toHaveText(catalogue.featured.whatsHot.map((id) => productById(id).name));
    await hot.getByRole("link", { name: home.whatsHot.allLink }).click();
    await expect(page).toHaveURL(/\/products$/);
  });

  test("each of the home page's links leads where content/pages.json says", async ({ page }) => {
    await page.goto("/");
    await hydrated(page);
    for (const { link } of [home.hero, ...home.disciplines, home.craft]) {
      await page.getByRole("main").getByRole("link", { name: link.label, exact: true }).first().click();
      await expect(page).toHaveURL(new RegExp(`${link.to}$`));
      await page.goBack();
    }
  });

  // Without scripts too: each is a link to a list page the build made.
  test("each space's title leads to the list content/pages.json names", async ({ page }) => {
    const spaces = home.showcase.items.filter((item) => "to" in item && item.to);
    expect(spaces.length, "a space with a page to lead to").toBeGreaterThan(0);
    await page.goto("/");
    await hydrated(page);
    for (const space of spaces) {
      const link = page.getByRole("region", { name: home.showcase.title }).getByRole("link", { name: space.title, exact: true });
      await link.click();
      await expect(page).toHaveURL(new RegExp(`${space.to}$`));
      await expect(page.getByRole("region", { name: "Products" }).getByRole("listitem").first()).toBeVisible();
      await page.goBack();
    }
  });

  test("the Fresh from banner opens the featured product", async ({ page }) => {
    const fresh = productById(catalogue.featured.fresh);
    await page.goto("/");
    await hydrated(page);
    await page.getByRole("link", { name: `${home.fresh.link} ${fresh.name}` }).click();
    await expect(page).toHaveURL(new RegExp(`/product/${fresh.id}$`));
    await expect(page.getByRole("heading", { level: 1, name: fresh.name })).toBeVisible();
  });

  test("the parallax follows the scroll, and stops under reduced motion", { tag: "@both" }, async ({ page }) => {
    const transformAt = async (y: number) => {
      await page.evaluate((top) => window.scrollTo({ top, behavior: "instant" }), y);
      await nextFrames(page);
      return page.locator(".discipline__image").first().evaluate((el) => getComputedStyle(el).transform);
    };
    await page.goto("/");
    await hydrated(page);
    expect(await transformAt(200)).not.toBe(await transformAt(700));

    await page.emulateMedia({ reducedMotion: "reduce" });
    expect(await transformAt(200)).toBe(await transformAt(700));
    expect(await page.locator(".marquee__track").evaluate((el) => getComputedStyle(el).animationName)).toBe("none");
  });
});

test.describe("products", () => {
  test("tabs, 6 per page, pages as links, marked at the ends", async ({ page }) => {
    await page.goto("/products");
    await hydrated(page);
    await expect(page.getByRole("heading", { level: 1, name: "All Products" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Categories" }).getByRole("link")).toHaveText(tabNames(vocabulary));
    await expect(tab(page, ALL)).toHaveAttribute("aria-current", "page");

    const pageCount = Math.ceil(products.length / PAGE_SIZE);
    await expect.poll(() => productNames(page)).toEqual(names(products.slice(0, PAGE_SIZE)));
    const pages = page.getByRole("navigation", { name: "Pages" });
    await expect(pages.getByRole("link", { name: "Previous" })).toHaveAttribute("aria-disabled", "true");
    await expect(pages.getByRole("link", { name: "Page 1" })).toHaveAttribute("aria-current", "page");
    for (let n = 2; n <= pageCount; n++) {
      await pages.getByRole("link", { name: "Next" }).click();
      await expect(page).toHaveURL(listUrl(ALL, n));
      await expect.poll(() => productNames(page)).toEqual(names(products.slice((n - 1) * PAGE_SIZE, n * PAGE_SIZE)));
      await expect(pages.getByRole("link", { name: "Previous" })).not.toHaveAttribute("aria-disabled");
      await expect(pages.getByRole("link", { name: `Page ${n}` })).toHaveAttribute("aria-current", "page");
    }
    await expect(pages.getByRole("link", { name: "Next" })).toHaveAttribute("aria-disabled", "true");
  });

  test("a category or filter resets to page 1 and tracks filter_usage", async ({ page }) => {
    await recordAnalytics(page);
    await page.goto(listPath({ ...DEFAULT_LIST_STATE, page: 2 }));
    await hydrated(page);
    await tab(page, path.tab).click();
    await expect(page).toHaveURL(listUrl(path.tab));
    await expect(tab(page, path.tab)).toHaveAttribute("aria-current", "page");
    await expect(page.getByRole("heading", { level: 1, name: path.tab })).toBeVisible();
    // The same page shown another way: focus stays on the tab.
    await expect(tab(page, path.tab)).toBeFocused();
    const inTab = matching({ category: path.tab });
    await expect.poll(() => productNames(page)).toEqual(names(inTab.slice(0, PAGE_SIZE)));

    await page.getByText(/^Filter\b/).click();
    await page.getByRole("group", { name: "Material" }).getByRole("checkbox", { name: path.material, exact: true }).check();
    await expect(page).toHaveURL(urlOf({ category: path.tab, materials: [path.material] }));
    const withMaterial = matching({ category: path.tab, materials: [path.material] });
    await expect.poll(() => productNames(page)).toEqual(names(withMaterial.slice(0, PAGE_SIZE)));
    await page.getByRole("group", { name: "Finish" }).getByRole("checkbox", { name: path.finish, exact: true }).check();
    const withFinish = matching({ category: path.tab, materials: [path.material], finishes: [path.finish] });
    await expect.poll(() => productNames(page)).toEqual(names(withFinish.slice(0, PAGE_SIZE)));

    // Un-ticking is told apart from ticking.
    await page.getByRole("group", { name: "Finish" }).getByRole("checkbox", { name: path.finish, exact: true }).uncheck();
    await expect(page).toHaveURL(urlOf({ category: path.tab, materials: [path.material] }));

    expect((await trackedEvents(page, "filter_usage")).map((e: TrackedEvent) => e.params)).toEqual([
      { filter_type: "category", filter_value: path.tab, action: "add", result_count: inTab.length },
      { filter_type: "material", filter_value: path.material, action: "add", result_count: withMaterial.length },
      { filter_type: "finish", filter_value: path.finish, action: "add", result_count: withFinish.length },
      { filter_type: "finish", filter_value: path.finish, action: "remove", result_count: withMaterial.length },
    ]);
  });

  test("an empty result says so", async ({ page }) => {
    // The catalogue always has a tab and a material that share no product,
    // or else a query no option can match (an unknown material is ignored,
    // so two finishes of no product of the tab are used instead).
    const empty = tabs.flatMap((tab) => vocabulary.materials.map((m) => ({ tab, material: m.name }))).find((c) => matching({ category: c.tab, materials: [c.material] }).length === 0);
    expect(empty, "content/catalogue.json has a tab with no product of some material").toBeTruthy();
    await page.goto(listPath({ ...DEFAULT_LIST_STATE, category: empty!.tab, materials: [empty!.material] }));
    await hydrated(page);
    await expect(page.getByText("No products found matching your filters.")).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Pages" })).toHaveCount(0);
  });

  test("the URL holds the state: shared, reloaded, and Back steps through it", async ({ page }) => {
    const state = { category: path.tab, finishes: [path.finish] };
    const other = tabs.find((t) => t !== path.tab && matching({ category: t, finishes: [path.finish] }).length > 0) ?? ALL;
    await page.goto(listPath({ ...DEFAULT_LIST_STATE, ...state }));
    await hydrated(page);
    await expect(tab(page, path.tab)).toHaveAttribute("aria-current", "page");
    const first = names(matching(state).slice(0, PAGE_SIZE));
    await expect.poll(() => productNames(page)).toEqual(first);

    await page.reload();
    await hydrated(page);
    await expect.poll(() => productNames(page)).toEqual(first);

    // A new category keeps the finish.
    const withFinish = (category: string) => listPath({ ...DEFAULT_LIST_STATE, category, finishes: [path.finish] });
    await tab(page, ALL).click();
    await expect(page).toHaveURL(new RegExp(`${withFinish(ALL).replace("?", "\\?")}$`));
    await tab(page, other).click();
    await expect(page).toHaveURL(new RegExp(`${withFinish(other).replace("?", "\\?")}$`));
    await expect.poll(() => productNames(page)).toEqual(names(matching({ category: other, finishes: [path.finish] }).slice(0, PAGE_SIZE)));

    await page.goBack();
    await expect(tab(page, ALL)).toHaveAttribute("aria-current", "page");
    await page.goBack();
    await expect(tab(page, path.tab)).toHaveAttribute("aria-current", "page");
    await expect.poll(() => productNames(page)).toEqual(first);
  });

  test("the older ?category=…&finish=… addresses still open their list, at its own address", async ({ page }) => {
    await page.goto(`/products?category=${encodeURIComponent(path.tab)}&finish=${encodeURIComponent(path.finish)}`);
    await hydrated(page);
    await expect(page).toHaveURL(new RegExp(`${listPath({ ...DEFAULT_LIST_STATE, category: path.tab, finishes: [path.finish] }).replace("?", "\\?")}$`));
    await expect.poll(() => productNames(page)).toEqual(names(matching({ category: path.tab, finishes: [path.finish] }).slice(0, PAGE_SIZE)));
  });

  test("each category and page is its own page, with its own title and canonical address", async ({ page }) => {
    const titles: string[] = [];
    for (const category of tabNames(vocabulary)) {
      const pageCount = Math.ceil(matching({ category }).length / PAGE_SIZE);
      for (let n = 1; n <= pageCount; n++) {
        const address = listPath({ ...DEFAULT_LIST_STATE, category, page: n });
        const response = await page.goto(address);
        expect(response?.status(), address).toBe(200);
        await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", new URL(address, site.baseUrl).href);
        titles.push(await page.title());
        await expect.poll(() => productNames(page), { message: address }).toEqual(names(matching({ category }).slice((n - 1) * PAGE_SIZE, n * PAGE_SIZE)));
      }
    }
    expect(new Set(titles).size, `titles are unique: ${titles.join("; ")}`).toBe(titles.length);
  });

  test("tabs and pages are links that work before the page's script has run", async ({ page }) => {
    // The scripts arrive late, as on a slow phone: a click before then is
    // a plain link, and lands on the list it names.
    let release!: () => void;
    const scriptsHeld = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/assets/*.js", async (route) => {
      await scriptsHeld;
      await route.continue();
    });
    await page.goto("/products", { waitUntil: "commit" });
    await tab(page, path.tab).click();
    await expect(page).toHaveURL(listUrl(path.tab));
    await expect(page.getByRole("heading", { level: 1, name: path.tab })).toBeVisible();
    await expect.poll(() => productNames(page)).toEqual(names(matching({ category: path.tab }).slice(0, PAGE_SIZE)));
    // The filters too: each option is a link to its list.
    await page.getByText(/^Filter\b/).click();
    await page.getByRole("group", { name: "Material" }).getByRole("link", { name: path.material, exact: true }).click();
    await expect(page).toHaveURL(urlOf({ category: path.tab, materials: [path.material] }));
    await expect.poll(() => productNames(page)).toEqual(names(matching({ category: path.tab, materials: [path.material] }).slice(0, PAGE_SIZE)));
    release();
    await hydrated(page);
    await page.getByText(/^Filter\b/).click();
    await expect(page.getByRole("group", { name: "Material" }).getByRole("checkbox", { name: path.material, exact: true })).toBeChecked();
  });

  test("page links scroll to the top", async ({ page }) => {
    expect(products.length, "the catalogue fills more than one page").toBeGreaterThan(PAGE_SIZE);
    await page.goto("/products");
    await hydrated(page);
    const next = page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Page 2" });
    await next.scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(200);
    await next.click();
    await expect(page).toHaveURL(listUrl(ALL, 2));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });

  test("opening a product tracks select_item and Back to Products keeps the list", async ({ page }) => {
    const chosen = matching({ category: path.tab })[0]!;
    await recordAnalytics(page);
    await page.goto(listPath({ ...DEFAULT_LIST_STATE, category: path.tab }));
    await hydrated(page);
    await page.getByRole("link").filter({ has: page.getByRole("heading", { name: chosen.name, exact: true }) }).click();
    await expect(page).toHaveURL(new RegExp(`/product/${chosen.id}$`));
    const [select] = await trackedEvents(page, "select_item");
    expect(select!.params).toMatchObject({ currency: "INR", items: [itemOf(chosen)] });

    await page.getByRole("link", { name: "Back to Products" }).click();
    await expect(page).toHaveURL(listUrl(path.tab));
    await expect(tab(page, path.tab)).toHaveAttribute("aria-current", "page");
  });

  test("the filter menu is named Filter: it filters, it does not sort", { tag: "@both" }, async ({ page }) => {
    await page.goto("/products");
    await hydrated(page);
    const menu = page.getByText(/^Filter\b/);
    await expect(menu).toHaveAccessibleName("Filter");
    await expect(page.getByText(/^Sort\b/)).toHaveCount(0);
    await menu.click();
    await page.getByRole("group", { name: "Material" }).getByRole("checkbox").first().check();
    await expect(menu).toHaveAccessibleName("Filter (1 selected)");
  });
});

test.describe("product detail", () => {
  // A product with a choice to make, if the catalogue has one.
  const product = products.find((p) => p.material.length > 1 && p.finish.length > 1) ?? products[0]!;

  test("loads by id, with options, specifications and view_item", async ({ page }) => {
    await recordAnalytics(page);
    const response = await page.goto(`/product/${product.id}`);
    expect(response?.status()).toBe(200);
    await hydrated(page);
    await expect(page.getByRole("heading", { level: 1, name: product.name })).toBeVisible();
    await expect(page.getByText(product.description)).toBeVisible();
    await expect(page.getByRole("group", { name: "Material" }).getByRole("radio", { name: product.material[0]!, exact: true })).toBeChecked();
    await expect(page.getByRole("group", { name: "Finish" }).getByRole("radio", { name: product.finish[0]!, exact: true })).toBeChecked();
    for (const [term, value] of [["Category", product.category], ["Type", product.type], ["Dimensions", catalogue.details.dimensions], ["Warranty", warranty(service.warranty.years).label]]) {
      await expect(page.locator(".product-page__specs div", { hasText: term! })).toContainText(value!, { ignoreCase: true });
    }
    await expect(page.getByRole("link", { name: "Back to Products" })).toHaveAttribute("href", "/products");
    expect((await trackedEvents(page, "view_item")).map((e: TrackedEvent) => e.params)).toEqual([{ currency: "INR", items: [itemOf(product)] }]);
  });

  test("Get Quote and Customize track quote_request with the chosen options", async ({ page }) => {
    const material = product.material.at(-1)!;
    const finish = product.finish.at(-1)!;
    await recordAnalytics(page);
    await page.goto(`/product/${product.id}`);
    await hydrated(page);
    await page.getByRole("group", { name: "Material" }).getByText(material, { exact: true }).click();
    await page.getByRole("group", { name: "Finish" }).getByText(finish, { exact: true }).click();
    await page.getByRole("button", { name: "Get Quote" }).click();
    await expect(page.getByRole("dialog")).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog")).toBeHidden();
    await page.getByRole("button", { name: "Customize" }).click();
    await expect(page.getByRole("dialog")).toBeVisible();
    const requests = (await trackedEvents(page, "quote_request")).map((e: TrackedEvent) => e.params);
    expect(requests).toHaveLength(2);
    expect(requests[0]).toMatchObject({ product_id: product.id, product_name: product.name, options: [material, finish] });
    expect(requests[1]).toMatchObject({ product_id: product.id, product_name: product.name, options: "Custom Request" });
  });

  // The gallery's arrows, keys and swipes are tested on photographs (photos.spec.ts).
  test("the gallery shows each product's own images, with controls only for more than one", async ({ page }) => {
    for (const product of products) {
      await page.goto(`/product/${product.id}`);
      await hydrated(page);
      const gallery = page.getByRole("region", { name: `Images of ${product.name}` });
      await expect(gallery.locator(".gallery__image")).toHaveAttribute("alt", product.images[0]!.alt);
      const several = product.images.length > 1;
      await expect(gallery.getByRole("button", { name: "Next image" })).toHaveCount(several ? 1 : 0);
      await expect(gallery.getByRole("button", { name: /^Image \d+ of \d+$/ })).toHaveCount(several ? product.images.length : 0);
    }
  });

  test("similar products: same category, window by width, arrows off at the ends", { tag: "@both" }, async ({ page, isMobile }) => {
    // The product with the most similar ones shows the carousel at work.
    const [withMost] = [...products].sort((a, b) => similarProducts(products, b).length - similarProducts(products, a).length);
    const similarOnes = similarProducts(products, withMost!);
    const count = similarOnes.length;
    expect(count, "some product of the catalogue has similar ones").toBeGreaterThan(1);
    await page.goto(`/product/${withMost!.id}`);
    await hydrated(page);
    const similar = page.getByRole("region", { name: "Similar Products" });
    await expect(similar.getByRole("heading", { level: 3 })).toHaveText(names(similarOnes));
    const prev = similar.getByRole("button", { name: "Previous similar products" });
    const next = similar.getByRole("button", { name: "Next similar products" });
    // 4 per view at 1280, 1 at 375.
    const perView = isMobile ? 1 : 4;
    if (count <= perView) {
      // Every card fits: nothing to move to, so no arrows and no dots.
      await expect(prev).toBeHidden();
      await expect(next).toBeHidden();
      await expect(similar.getByRole("button", { name: /^Show group/ })).toHaveCount(0);
      return;
    }
    await expect(prev).toBeDisabled();
    const steps = count - perView;
    await expect(similar.getByText(`Showing 1 to ${perView} of ${count}`)).toBeAttached();
    for (let i = 0; i < steps; i++) await next.click();
    await expect(next).toBeDisabled();
    await expect(similar.getByText(`Showing ${steps + 1} to ${count} of ${count}`)).toBeAttached();
    await prev.click();
    await expect(similar.getByText(`Showing ${steps} to ${count - 1} of ${count}`)).toBeAttached();
    await expect(next).toBeEnabled();
    const groups = Math.ceil(count / perView);
    await similar.getByRole("button", { name: `Show group 1 of ${groups}` }).click();
    await expect(prev).toBeDisabled();
    await expect(similar.getByRole("button", { name: `Show group 1 of ${groups}` })).toHaveAttribute("aria-current", "true");
  });

  test("similar products: where every card fits there are no arrows or dots, from the first paint, and nothing moves", { tag: "@both" }, async ({ page, isMobile }) => {
    const perView = isMobile ? 1 : 4;
    // The product with the most similar ones that still all fit in one view.
    const fitting = products
      .filter((p) => similarProducts(products, p).length > 0 && similarProducts(products, p).length <= perView)
      .sort((a, b) => similarProducts(products, b).length - similarProducts(products, a).length)[0];
    test.skip(!fitting, `no product of content/catalogue.json has from 1 to ${perView} similar ones`);
    const release = await holdScripts(page);
    await page.goto(`/product/${fitting!.id}`, { waitUntil: "domcontentloaded" });
    const similar = page.getByRole("region", { name: "Similar Products" });
    const arrows = similar.locator(".similar__arrows");
    const cards = similar.getByRole("group", { name: "Similar products" });
    const beforeScripts = { arrows: await arrows.evaluate((e) => getComputedStyle(e).display), cards: await cards.boundingBox() };
    expect(beforeScripts.arrows).toBe("none");
    release();
    await hydrated(page);
    await expect(similar.getByRole("heading", { level: 3 })).toHaveCount(similarProducts(products, fitting!).length);
    await expect(similar.getByRole("button", { name: "Previous similar products" })).toBeHidden();
    await expect(similar.getByRole("button", { name: "Next similar products" })).toBeHidden();
    await expect(similar.getByRole("button", { name: /^Show group/ })).toHaveCount(0);
    expect(await cards.boundingBox()).toEqual(beforeScripts.cards);
  });

  test("a product alone in its category says there are no similar ones", async ({ page }) => {
    const alone = products.find((p) => similarProducts(products, p).length === 0);
    test.skip(!alone, "every product of content/catalogue.json has a similar one");
    await page.goto(`/product/${alone!.id}`);
    await expect(page.getByText("No similar products found in this category.")).toBeVisible();
  });
});

test.describe("search overlay", () => {
  const synonyms = catalogue.synonyms ?? [];
  // Terms taken from the catalogue: a type word many products share, and a finish.
  const typeWord = (() => {
    const words = products.flatMap((p) => p.type.split(" "));
    return [...new Set(words)].sort((a, b) => searchProducts(products, b, synonyms).length - searchProducts(products, a, synonyms).length)[0]!;
  })();
  const finish = products[0]!.finish[0]!.toLowerCase();

  test("finds, counts, and opens the first result on Enter", async ({ page }) => {
    const byType = searchProducts(products, typeWord, synonyms);
    const byFinish = searchProducts(products, finish, synonyms);
    const count = (n: number) => (n === 1 ? "1 result found" : `${n} results found`);
    await recordAnalytics(page);
    await page.goto("/about");
    await hydrated(page);
    await page.getByRole("button", { name: "Search products" }).click();
    const input = page.getByRole("combobox", { name: "Search products" });
    await expect(input).toBeFocused();

    // From here the page's clock stands still, so a term settles (and is
    // sent as a search) only when the test moves it on.
    await page.clock.install();
    await page.clock.pauseAt(Date.now() + 60_000);
    await input.fill(typeWord);
    await expect(page.getByRole("status").filter({ hasText: "found" })).toHaveText(count(byType.length));
    await expect(page.getByRole("option")).toHaveCount(byType.length);

    await input.fill("zzzq");
    await expect(page.getByText("No results found")).toBeVisible();
    await expect(page.getByText("Try searching with different keywords")).toBeVisible();

    await input.fill(`  ${finish} `);
    await expect(page.getByText(count(byFinish.length))).toBeVisible();
    await page.clock.runFor(SEARCH_SETTLE_MS); // the term settles
    await input.press("Enter");
    await expect(page).toHaveURL(new RegExp(`/product/${byFinish[0]!.id}$`));
    await expect(page.getByRole("dialog", { name: "Search products" })).toBeHidden();

    const searches = (await trackedEvents(page, "search")).map((e: TrackedEvent) => e.params);
    expect(searches).toEqual([{ search_term: finish, result_count: byFinish.length, location: "navbar" }]);
    expect((await trackedEvents(page, "search_result_click")).map((e: TrackedEvent) => e.params)).toEqual([
      { search_term: finish, item_id: String(byFinish[0]!.id), item_name: byFinish[0]!.name, position: 1 },
    ]);

    // The text was cleared.
    await page.getByRole("button", { name: "Search products" }).click();
    await expect(page.getByRole("combobox", { name: "Search products" })).toHaveValue("");
  });

  // Opened from the keyboard and typed into at once, as fast as keys go:
  // nothing typed is lost, and Enter opens the first result, whether the
  // overlay's code is on the page already or still on the network.
  for (const overlayCode of ["loaded", "still loading"] as const) {
    test(`keys typed at once after opening it by keyboard all reach it (its code ${overlayCode})`, async ({ page }) => {
      const first = products[0]!;
      const term = first.name.toLowerCase();
      const found = searchProducts(products, term, synonyms)[0]!;
      let release = () => {};
      if (overlayCode === "still loading") release = await holdScripts(page, "**/assets/SearchOverlay-*.js");
      const codeLoaded = page.waitForResponse(/\/assets\/SearchOverlay-/);
      await page.goto("/about");
      await hydrated(page);
      const button = page.getByRole("button", { name: "Search products" });
      await button.focus();
      if (overlayCode === "loaded") await codeLoaded;

      await page.keyboard.press("Enter");
      await page.keyboard.type(term);
      if (overlayCode === "loaded") await expect(page.getByRole("combobox", { name: "Search products" })).toHaveValue(term);
      await page.keyboard.press("Enter");
      release();
      await expect(page).toHaveURL(new RegExp(`/product/${found.id}$`));
      await expect(page.getByRole("heading", { level: 1, name: found.name })).toBeVisible();
    });
  }

  // The studio's own words (content/catalogue.json, synonyms): each finds
  // the pieces its catalogue words find, and descriptions are searched.
  test("a search word of the catalogue's synonyms finds what its words find", async ({ page }) => {
    expect(synonyms.length, "the catalogue has synonyms").toBeGreaterThan(0);
    await page.goto("/about");
    await hydrated(page);
    await page.getByRole("button", { name: "Search products" }).click();
    const input = page.getByRole("combobox", { name: "Search products" });
    for (const { word } of synonyms) {
      const found = searchProducts(products, word, synonyms);
      expect(found.length, `"${word}" finds a piece`).toBeGreaterThan(0);
      await input.fill(word);
      await expect(page.getByRole("option"), word).toHaveText(found.map((p) => new RegExp(p.name)));
    }
  });

  // Where "outside" is depends on the overlay's size on the screen.
  test("arrow keys choose a result; Escape and a click outside close it", { tag: "@both" }, async ({ page }) => {
    const results = searchProducts(products, typeWord, synonyms);
    expect(results.length, `"${typeWord}" finds two products or more`).toBeGreaterThan(1);
    await page.goto("/");
    await hydrated(page);
    const button = page.getByRole("button", { name: "Search products" });
    await button.click();
    const input = page.getByRole("combobox", { name: "Search products" });
    await input.fill(typeWord);
    await expect(page.getByRole("option")).toHaveCount(results.length);
    await input.press("ArrowDown");
    await input.press("ArrowDown");
    await expect(page.getByRole("option", { selected: true })).toContainText(results[1]!.name);
    await input.press("Escape");
    await expect(page.getByRole("dialog", { name: "Search products" })).toBeHidden();
    await expect(button).toBeFocused();

    await button.click();
    await page.mouse.click(10, page.viewportSize()!.height - 10);
    await expect(page.getByRole("dialog", { name: "Search products" })).toBeHidden();

    await button.click();
    await page.getByRole("combobox", { name: "Search products" }).fill(typeWord);
    await page.getByRole("option").filter({ hasText: results[1]!.name }).click();
    await expect(page).toHaveURL(new RegExp(`/product/${results[1]!.id}$`));
  });
});

import { test, expect, hydrated, recordAnalytics, trackedEvents } from "./fixtures";
import { products, site } from "./content";

const productNames = (page: import("@playwright/test").Page) =>
  page.locator("#product-results").getByRole("heading", { level: 2 }).allTextContents();

test.describe("home", () => {
  test("shows every section, with the hero in the first paint", async ({ page }) => {
    await page.goto("/");
    await hydrated(page);
    const hero = page.locator(".hero__image");
    await expect(hero).toBeVisible();
    await expect(hero).not.toHaveAttribute("loading", "lazy");
    await expect(hero).toHaveAttribute("fetchpriority", "high");
    for (const name of ["Furniture Design", "Interior Design", "Lighting Design", "Our intention", "Minimum Hardware", "Maximum transparency", "What's Hot", `Fresh from ${site.name}`, "Our Craft and Creation"]) {
      await expect(page.getByRole("heading", { name, exact: true })).toBeVisible();
    }
    await expect(page.getByText("Smart joinery, cleaner lines.")).toBeVisible();
    await expect(page.getByText("Furniture . Light . Space. One language - ours.").first()).toBeAttached();

    const hot = page.getByRole("region", { name: "What's Hot" });
    await expect(hot.getByRole("heading", { level: 3 })).toHaveText(["Perennial", "Pilgrim", "Yucca"]);
    await hot.getByRole("link", { name: "All products" }).click();
    await expect(page).toHaveURL(/\/products$/);
  });

  test("the Fresh from banner opens product 2", async ({ page }) => {
    await page.goto("/");
    await hydrated(page);
    await page.getByRole("link", { name: "Discover Barbed" }).click();
    await expect(page).toHaveURL(/\/product\/2$/);
    await expect(page.getByRole("heading", { level: 1, name: "Barbed" })).toBeVisible();
  });

  test("the parallax follows the scroll, and stops under reduced motion", async ({ page }) => {
    const transformAt = async (y: number) => {
      await page.evaluate((top) => window.scrollTo({ top, behavior: "instant" }), y);
      await page.waitForTimeout(100);
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
  test("tabs, 6 per page, pagination disabled at the ends", async ({ page }) => {
    await page.goto("/products");
    await hydrated(page);
    await expect(page.getByRole("heading", { level: 1, name: "All Products" })).toBeVisible();
    const tabs = page.getByRole("tab");
    await expect(tabs).toHaveText(["All", "Seatings", "Tables", "Partition", "Storage & Shelves"]);
    await expect(page.getByRole("tab", { name: "All" })).toHaveAttribute("aria-selected", "true");

    expect(await productNames(page)).toEqual(products.slice(0, 6).map((p) => p.name));
    const pages = page.getByRole("navigation", { name: "Pages" });
    await expect(pages.getByRole("button", { name: "Previous" })).toBeDisabled();
    await expect(pages.getByRole("button", { name: "Page 1" })).toHaveAttribute("aria-current", "page");

    await pages.getByRole("button", { name: "Next" }).click();
    await expect(page).toHaveURL(/\/products\?page=2$/);
    expect(await productNames(page)).toEqual(products.slice(6).map((p) => p.name));
    await expect(pages.getByRole("button", { name: "Next" })).toBeDisabled();
    await expect(pages.getByRole("button", { name: "Previous" })).toBeEnabled();
    await expect(pages.getByRole("button", { name: "Page 2" })).toHaveAttribute("aria-current", "page");
  });

  test("a category or filter resets to page 1 and tracks filter_usage", async ({ page }) => {
    await recordAnalytics(page);
    await page.goto("/products?page=2");
    await hydrated(page);
    await page.getByRole("tab", { name: "Tables" }).click();
    await expect(page).toHaveURL(/\/products\?category=Tables$/);
    await expect(page.getByRole("tab", { name: "Tables" })).toHaveAttribute("aria-selected", "true");
    expect(await productNames(page)).toEqual(["Homage", "Pilgrim", "Nest of arches", "Modern Dining", "Minimalist"]);

    await page.getByText("Sort", { exact: true }).click();
    await page.getByRole("group", { name: "Material" }).getByRole("checkbox", { name: "Other" }).check();
    await expect(page).toHaveURL(/category=Tables&material=Other$/);
    expect(await productNames(page)).toEqual(["Homage", "Pilgrim", "Modern Dining"]);
    await page.getByRole("group", { name: "Finish" }).getByRole("checkbox", { name: "Oxidised" }).check();
    expect(await productNames(page)).toEqual(["Pilgrim"]);

    expect((await trackedEvents(page, "filter_usage")).map((e) => e.params)).toEqual([
      { filter_type: "category", filter_value: "Tables", result_count: 5 },
      { filter_type: "material", filter_value: "Other", result_count: 3 },
      { filter_type: "finish", filter_value: "Oxidised", result_count: 1 },
    ]);
  });

  test("an empty result says so", async ({ page }) => {
    await page.goto("/products?category=Seatings&material=Other");
    await hydrated(page);
    await expect(page.getByText("No products found matching your filters.")).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Pages" })).toHaveCount(0);
  });

  test("the URL holds the state: shared, reloaded, and Back steps through it", async ({ page }) => {
    await page.goto("/products?category=Seatings&finish=Black");
    await hydrated(page);
    await expect(page.getByRole("tab", { name: "Seatings" })).toHaveAttribute("aria-selected", "true");
    expect(await productNames(page)).toEqual(["Yucca", "Executive"]);

    await page.reload();
    await hydrated(page);
    expect(await productNames(page)).toEqual(["Yucca", "Executive"]);

    // A new category keeps the finish.
    await page.getByRole("tab", { name: "All" }).click();
    await expect(page).toHaveURL(/\/products\?finish=Black$/);
    await page.getByRole("tab", { name: "Partition" }).click();
    expect(await productNames(page)).toEqual(["Barbed"]);

    await page.goBack();
    await expect(page).toHaveURL(/\/products\?finish=Black$/);
    await expect(page.getByRole("tab", { name: "All" })).toHaveAttribute("aria-selected", "true");
    await page.goBack();
    await expect(page).toHaveURL(/category=Seatings&finish=Black$/);
    expect(await productNames(page)).toEqual(["Yucca", "Executive"]);
  });

  test("tabs answer the arrow keys", async ({ page }) => {
    await page.goto("/products");
    await hydrated(page);
    await page.getByRole("tab", { name: "All" }).focus();
    await page.keyboard.press("ArrowRight");
    await expect(page.getByRole("tab", { name: "Seatings" })).toBeFocused();
    await expect(page.getByRole("tab", { name: "Seatings" })).toHaveAttribute("aria-selected", "true");
    await page.keyboard.press("End");
    await expect(page.getByRole("tab", { name: "Storage & Shelves" })).toHaveAttribute("aria-selected", "true");
  });

  test("page buttons scroll to the top", async ({ page }) => {
    await page.goto("/products");
    await hydrated(page);
    const next = page.getByRole("navigation", { name: "Pages" }).getByRole("button", { name: "Page 2" });
    await next.scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(200);
    await next.click();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });

  test("opening a product tracks select_item and Back to Products keeps the list", async ({ page }) => {
    await recordAnalytics(page);
    await page.goto("/products?category=Tables&page=1");
    await hydrated(page);
    await page.getByRole("link", { name: /Pilgrim/ }).click();
    await expect(page).toHaveURL(/\/product\/5$/);
    const [select] = await trackedEvents(page, "select_item");
    expect(select!.params).toMatchObject({ currency: "INR", items: [{ item_id: "5", item_name: "Pilgrim", item_category: "Tables" }] });

    await page.getByRole("link", { name: "Back to Products" }).click();
    await expect(page).toHaveURL(/\/products\?category=Tables&page=1$/);
    await expect(page.getByRole("tab", { name: "Tables" })).toHaveAttribute("aria-selected", "true");
  });
});

test.describe("product detail", () => {
  test("loads by id, with options, specifications and view_item", async ({ page }) => {
    await recordAnalytics(page);
    const response = await page.goto("/product/4");
    expect(response?.status()).toBe(200);
    await hydrated(page);
    await expect(page.getByRole("heading", { level: 1, name: "Homage" })).toBeVisible();
    await expect(page.getByText(products[3]!.description)).toBeVisible();
    await expect(page.getByRole("group", { name: "Material" }).getByRole("radio", { name: "Marble" })).toBeChecked();
    await expect(page.getByRole("group", { name: "Finish" }).getByRole("radio", { name: "Statuario Marble" })).toBeChecked();
    for (const [term, value] of [["Category", "Tables"], ["Type", "center table"], ["Dimensions", "Custom Available"], ["Warranty", "2 Years"]]) {
      await expect(page.locator(".product-page__specs div", { hasText: term! })).toContainText(new RegExp(value!, "i"));
    }
    await expect(page.getByRole("link", { name: "Back to Products" })).toHaveAttribute("href", "/products");
    expect((await trackedEvents(page, "view_item")).map((e) => e.params)).toEqual([
      { currency: "INR", items: [{ item_id: "4", item_name: "Homage", item_category: "Tables" }] },
    ]);
  });

  test("Get Quote and Customize track quote_request with the chosen options", async ({ page }) => {
    await recordAnalytics(page);
    await page.goto("/product/4");
    await hydrated(page);
    await page.getByRole("group", { name: "Material" }).getByText("Wood").click();
    await page.getByRole("group", { name: "Finish" }).getByText("Walnut").click();
    await page.getByRole("button", { name: "Get Quote" }).click();
    await expect(page.getByRole("dialog")).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog")).toBeHidden();
    await page.getByRole("button", { name: "Customize" }).click();
    await expect(page.getByRole("dialog")).toBeVisible();
    const requests = (await trackedEvents(page, "quote_request")).map((e) => e.params);
    expect(requests).toHaveLength(2);
    expect(requests[0]).toMatchObject({ product_id: 4, product_name: "Homage", options: ["Wood", "Walnut"] });
    expect(requests[1]).toMatchObject({ product_id: 4, product_name: "Homage", options: "Custom Request" });
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

  test("similar products: same category, window by width, arrows off at the ends", async ({ page, isMobile }) => {
    await page.goto("/product/4");
    await hydrated(page);
    const similar = page.getByRole("region", { name: "Similar Products" });
    await expect(similar.getByRole("heading", { level: 3 })).toHaveText(["Pilgrim", "Nest of arches", "Modern Dining", "Minimalist"]);
    const prev = similar.getByRole("button", { name: "Previous similar products" });
    const next = similar.getByRole("button", { name: "Next similar products" });
    await expect(prev).toBeDisabled();
    if (!isMobile) {
      // 4 per view at 1280: everything is shown, nothing to move.
      await expect(next).toBeDisabled();
      return;
    }
    // 1 per view at 375: four steps, mirrored.
    await expect(similar.getByText("Showing 1 to 1 of 4")).toBeAttached();
    for (let i = 0; i < 3; i++) await next.click();
    await expect(next).toBeDisabled();
    await expect(similar.getByText("Showing 4 to 4 of 4")).toBeAttached();
    await prev.click();
    await expect(similar.getByText("Showing 3 to 3 of 4")).toBeAttached();
    await expect(next).toBeEnabled();
    await similar.getByRole("button", { name: "Show group 1 of 4" }).click();
    await expect(prev).toBeDisabled();
    await expect(similar.getByRole("button", { name: "Show group 1 of 4" })).toHaveAttribute("aria-current", "true");
  });

  test("a product alone in its category says there are no similar ones", async ({ page }) => {
    await page.goto("/product/2");
    await expect(page.getByText("No similar products found in this category.")).toBeVisible();
  });
});

test.describe("search overlay", () => {
  test("finds, counts, and opens the first result on Enter", async ({ page }) => {
    await recordAnalytics(page);
    await page.goto("/about");
    await hydrated(page);
    await page.getByRole("button", { name: "Search products" }).click();
    const input = page.getByRole("combobox", { name: "Search products" });
    await expect(input).toBeFocused();

    await input.fill("table");
    await expect(page.getByRole("status").filter({ hasText: "results found" })).toHaveText("5 results found");
    await expect(page.getByRole("option")).toHaveCount(5);

    await input.fill("zzz");
    await expect(page.getByText("No results found")).toBeVisible();
    await expect(page.getByText("Try searching with different keywords")).toBeVisible();

    await input.fill("  walnut ");
    await expect(page.getByText("3 results found")).toBeVisible();
    await page.waitForTimeout(1000); // let the term settle
    await input.press("Enter");
    await expect(page).toHaveURL(/\/product\/1$/);
    await expect(page.getByRole("dialog", { name: "Search products" })).toBeHidden();

    const searches = (await trackedEvents(page, "search")).map((e) => e.params);
    expect(searches).toEqual([{ search_term: "walnut", result_count: 3, location: "navbar" }]);
    expect((await trackedEvents(page, "search_result_click")).map((e) => e.params)).toEqual([
      { search_term: "walnut", item_id: "1", item_name: "Perennial", position: 1 },
    ]);

    // The text was cleared.
    await page.getByRole("button", { name: "Search products" }).click();
    await expect(page.getByRole("combobox", { name: "Search products" })).toHaveValue("");
  });

  test("arrow keys choose a result; Escape and a click outside close it", async ({ page }) => {
    await page.goto("/");
    await hydrated(page);
    const button = page.getByRole("button", { name: "Search products" });
    await button.click();
    const input = page.getByRole("combobox", { name: "Search products" });
    await input.fill("chair");
    await input.press("ArrowDown");
    await input.press("ArrowDown");
    await expect(page.getByRole("option", { selected: true })).toContainText("Yucca");
    await input.press("Escape");
    await expect(page.getByRole("dialog", { name: "Search products" })).toBeHidden();
    await expect(button).toBeFocused();

    await button.click();
    await page.mouse.click(10, page.viewportSize()!.height - 10);
    await expect(page.getByRole("dialog", { name: "Search products" })).toBeHidden();

    await button.click();
    await page.getByRole("combobox", { name: "Search products" }).fill("chair");
    await page.getByRole("option", { name: /Yucca/ }).click();
    await expect(page).toHaveURL(/\/product\/3$/);
  });
});

import { test, expect, hydrated, holdScripts, nextFrames, unique } from "./fixtures";
import { products } from "./content";

// What a visitor does on the prerendered page before its scripts have
// arrived (a slow phone): the scripts are held back by route interception,
// the visitor acts, the scripts are let go, and what they did survives
// hydration and the renders after it.

test("a material and a finish chosen before the scripts run stay chosen, and the quote carries them", async ({ page }) => {
  const product = products.find((p) => p.material.length > 1 && p.finish.length > 1);
  test.skip(!product, "no product of content/catalogue.json has two materials and two finishes");
  const material = product!.material.at(-1)!;
  const finish = product!.finish.at(-1)!;
  const release = await holdScripts(page);
  await page.goto(`/product/${product!.id}`, { waitUntil: "commit" });
  const materials = page.getByRole("group", { name: "Material" });
  const finishes = page.getByRole("group", { name: "Finish" });
  await materials.getByRole("radio", { name: material, exact: true }).check();
  await finishes.getByRole("radio", { name: finish, exact: true }).check();

  release();
  await hydrated(page);
  await nextFrames(page);
  await expect(materials.getByRole("radio", { name: material, exact: true })).toBeChecked();
  await expect(finishes.getByRole("radio", { name: finish, exact: true })).toBeChecked();

  await page.getByRole("button", { name: "Get Quote" }).click();
  const dialog = page.getByRole("dialog", { name: `Get a quote for ${product!.name}` });
  await expect(dialog.getByRole("combobox", { name: "Material" })).toHaveValue(material);
  await expect(dialog.getByRole("combobox", { name: "Finish" })).toHaveValue(finish);
});

// Get Quote pressed before the scripts run is a submit button of the
// options' form: the finish tapped reaches the quote page, shown there by
// the server before any script, and still chosen once the page hydrates.
test("a finish tapped and Get Quote pressed before the scripts run reach the quote page", async ({ page }) => {
  const product = products.find((p) => p.finish.length > 1)!;
  const finish = product.finish[1]!;
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  // Held on both pages; those of the page left behind are no longer wanted when let go.
  await page.route("**/assets/*.js", (route) => held.then(() => route.continue()).catch(() => {}));
  await page.goto(`/product/${product.id}`, { waitUntil: "commit" });
  await page.getByRole("group", { name: "Finish" }).getByRole("radio", { name: finish, exact: true }).check();
  await page.getByRole("button", { name: "Get Quote", exact: true }).click();

  await expect(page).toHaveURL(new RegExp(`/product/${product.id}/quote\\?`));
  const chosen = page.getByRole("form", { name: `Get a quote for ${product.name}` }).getByRole("combobox", { name: "Finish" });
  await expect(chosen).toHaveValue(finish); // before any script
  expect(await page.evaluate(() => document.documentElement.hasAttribute("data-hydrated"))).toBe(false);
  release();
  await hydrated(page);
  await nextFrames(page);
  await expect(chosen).toHaveValue(finish);
});

test("an address typed in the newsletter box before the scripts run is the one signed up", async ({ page }) => {
  const release = await holdScripts(page);
  await page.goto("/about", { waitUntil: "commit" });
  const footer = page.getByRole("contentinfo");
  const email = `${unique("early").replace(/\s/g, "-")}@example.com`;
  await footer.getByRole("textbox", { name: "Your e-mail" }).fill(email);

  release();
  await hydrated(page);
  await nextFrames(page);
  await expect(footer.getByRole("textbox", { name: "Your e-mail" })).toHaveValue(email);
  const [request] = await Promise.all([
    page.waitForRequest((r) => r.url().endsWith("/api/newsletter") && r.method() === "POST"),
    footer.getByRole("button", { name: "Subscribe" }).click(),
  ]);
  expect(request.postDataJSON()).toMatchObject({ email });
  await expect(footer.getByRole("status")).toHaveText("Thank you: you are on the list.");
});

// The dialogs' code is not in the first load but is fetched while the page
// is idle, so the first press opens them without a trip to the network:
// here, one that no longer answers. (The search's list of products is
// data, fetched on the first opening: offline, the search says so.)
test("the quote dialog and the search open on the first press with the network gone", async ({ page, context, problems }) => {
  const product = products[0]!;
  const prefetched = Promise.all([page.waitForResponse(/\/assets\/SearchOverlay-/), page.waitForResponse(/\/assets\/QuoteDialog-/)]);
  await page.goto(`/product/${product.id}`);
  await hydrated(page);
  await prefetched;
  // Nothing else on its way either (the chat's code, the stylesheets the
  // page fetches once hydrated), whose failing would be logged.
  await page.waitForLoadState("networkidle");
  await context.setOffline(true);

  await page.getByRole("button", { name: "Get Quote" }).click();
  const dialog = page.getByRole("dialog", { name: `Get a quote for ${product.name}` });
  await expect(dialog.getByRole("combobox", { name: "Finish" })).toHaveValue(product.finish[0]!);
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();

  await page.getByRole("button", { name: "Search products" }).click();
  const input = page.getByRole("combobox", { name: "Search products" });
  await expect(input).toBeFocused();
  await input.fill(product.name);
  await expect(page.getByRole("dialog", { name: "Search products" }).getByRole("status")).toHaveText(/could not load/);
  // That one failed request is the browser's to report, and expected.
  const offline = (p: string) => p.includes("ERR_INTERNET_DISCONNECTED") && p.includes("/search-index.json");
  expect(problems.filter(offline)).toHaveLength(1);
  problems.splice(0, problems.length, ...problems.filter((p) => !offline(p)));
});

import { test, expect } from "./fixtures";
import { catalogue, products, vocabulary } from "./content";
import { pagePaths } from "../app/lib/paths";
import { ALL, DEFAULT_LIST_STATE, PAGE_SIZE, filterProducts, listPath, tabNames } from "../app/lib/filters";

// The site with JavaScript off: a slow phone before the scripts arrive, a
// browser that blocks them, a crawler. Every control shown works; every
// form posts and is answered with a page of the site, never JSON.
test.use({ javaScriptEnabled: false });

// Every link, button and form on every page either works without
// JavaScript or is not shown.
test("the audit: every control shown works without JavaScript", async ({ page, request }) => {
  test.setTimeout(180_000);
  const checked = new Map<string, number>();
  const problems: string[] = [];
  for (const path of pagePaths(catalogue)) {
    // What is shown is known once the page is parsed: its styles are in it.
    await page.goto(path, { waitUntil: "domcontentloaded" });
    const controls = await page.evaluate(() => {
      const shown = (e: Element) => (e as HTMLElement).checkVisibility?.({ visibilityProperty: true }) ?? true;
      const name = (e: Element) => (e.getAttribute("aria-label") || e.textContent || "").trim().replace(/\s+/g, " ").slice(0, 40);
      const buttons = [...document.querySelectorAll("button, [role=button], summary")].filter(shown).map((b) => {
        const button = b as HTMLButtonElement;
        // A submit button goes where its formaction or its form's action says (a post, or a get
        // carrying the form's choices: the product page's options).
        const works = b.tagName === "SUMMARY" || (b.tagName === "BUTTON" && button.type === "submit" && !!(button.getAttribute("formaction") || button.form?.getAttribute("action")));
        return { name: name(b), works };
      });
      const links = [...document.querySelectorAll("a[href]")].filter(shown).map((a) => ({ name: name(a), href: (a as HTMLAnchorElement).href }));
      const fragments = links
        .map((l) => new URL(l.href))
        .filter((u) => u.origin === location.origin && u.pathname === location.pathname && u.hash)
        .map((u) => ({ hash: u.hash, found: !!document.getElementById(decodeURIComponent(u.hash.slice(1))) }));
      const forms = [...document.querySelectorAll("form")].filter(shown).map((f) => ({ action: f.getAttribute("action"), method: f.method }));
      return { buttons, links, fragments, forms };
    });
    for (const b of controls.buttons) if (!b.works) problems.push(`${path}: the button "${b.name}" needs JavaScript`);
    for (const f of controls.fragments) if (!f.found) problems.push(`${path}: a link to ${f.hash} leads nowhere`);
    for (const f of controls.forms) if (!f.action) problems.push(`${path}: a form with no action`);
    for (const { href, name } of controls.links) {
      const url = new URL(href);
      if (url.origin !== new URL(page.url()).origin) continue; // tel:, mailto:, other sites
      const target = url.pathname + url.search;
      if (!checked.has(target)) checked.set(target, (await request.get(target, { maxRedirects: 0 })).status());
      const status = checked.get(target)!;
      if (status >= 400) problems.push(`${path}: the link "${name}" to ${target} answers ${status}`);
    }
  }
  expect(problems).toEqual([]);
  expect(checked.size).toBeGreaterThan(20);
});

test("the chat and search, which need JavaScript, are not offered", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("button", { name: "Chat with us" })).toBeHidden();
  await expect(page.getByRole("button", { name: "Search products" })).toBeHidden();
});

test("every product is reached from /products by links alone", async ({ page }) => {
  const reached = new Set<string>();
  let next: string | null = "/products";
  while (next) {
    await page.goto(next);
    for (const href of await page.locator("main a[href^='/product/']").evaluateAll((as) => as.map((a) => a.getAttribute("href")!))) reached.add(href);
    const more = page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Next" });
    next = (await more.count()) && (await more.getAttribute("aria-disabled")) !== "true" ? await more.getAttribute("href") : null;
  }
  expect([...reached].sort()).toEqual(products.map((p) => `/product/${p.id}`).sort());
  // A product of the second page opens by its link.
  await page.goto(listPath({ ...DEFAULT_LIST_STATE, page: 2 }));
  const card = page.locator("main a[href^='/product/']").first();
  const href = await card.getAttribute("href");
  await card.click();
  await expect(page).toHaveURL(href!);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
});

test("Back to Products is a plain link to the list", async ({ page }) => {
  await page.goto(listPath({ ...DEFAULT_LIST_STATE, page: 2 }));
  await page.locator("main a[href^='/product/']").first().click();
  await page.getByRole("link", { name: "Back to Products" }).click();
  await expect(page).toHaveURL(/\/products$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
});

// The product page's Add to shortlist, sent as a form: nothing can be kept
// without the script, and the page says so, and how to ask for the quote.
// (A browser with scripts off shows <noscript>; Playwright's switch stops
// the scripts but not that parsing, so the page's HTML is read instead.)
test("the shortlist, opened by an Add without JavaScript, says it cannot keep the piece, and how to ask for its quote", async ({ request }) => {
  const p = products.find((q) => q.finish.length > 1) ?? products[0]!;
  const response = await request.get(`/shortlist?add=${p.id}&material=${encodeURIComponent(p.material[0]!)}&finish=${encodeURIComponent(p.finish.at(-1)!)}`);
  expect(response.status()).toBe(200);
  const noscript = [...(await response.text()).matchAll(/<noscript>([\s\S]*?)<\/noscript>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, "")).join(" ");
  expect(noscript).toContain("a piece added without JavaScript is not kept");
  expect(noscript).toContain("go back to its page and press Get Quote, which takes your choices with it, or browse the products.");
});

test("the filters are links: a material, then a finish, then the material taken off, and the pages of each", async ({ page }) => {
  const none = { category: ALL, materials: [] as string[], finishes: [] as string[] };
  const matching = (state: Partial<typeof none>) => filterProducts(products, { ...none, ...state }, vocabulary);
  const shown = () => page.locator("main a[href^='/product/']").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
  const hrefs = (list: { id: number }[]) => list.map((p) => `/product/${p.id}`);
  // A tab, a material and a finish that narrow the list without emptying it.
  const choice = tabNames(vocabulary)
    .flatMap((category) => vocabulary.materials.flatMap((m) => vocabulary.finishes.map((f) => ({ category, material: m.name, finish: f.name }))))
    .find((c) => matching({ category: c.category, materials: [c.material], finishes: [c.finish] }).length > 0)!;
  const pick = async (group: string, name: string) => {
    await page.getByText(/^Filter\b/).click();
    await page.getByRole("group", { name: group }).getByRole("link", { name }).click();
  };

  await page.goto(listPath({ ...DEFAULT_LIST_STATE, category: choice.category }));
  await pick("Material", choice.material);
  await expect(page).toHaveURL(listPath({ ...DEFAULT_LIST_STATE, category: choice.category, materials: [choice.material] }));
  expect(await shown()).toEqual(hrefs(matching({ category: choice.category, materials: [choice.material] }).slice(0, PAGE_SIZE)));
  await pick("Finish", choice.finish);
  const both = { category: choice.category, materials: [choice.material], finishes: [choice.finish] };
  await expect(page).toHaveURL(listPath({ ...DEFAULT_LIST_STATE, ...both }));
  expect(await shown()).toEqual(hrefs(matching(both).slice(0, PAGE_SIZE)));
  // The chosen material, picked again, is taken off.
  await pick("Material", `Remove the filter ${choice.material}`);
  await expect(page).toHaveURL(listPath({ ...DEFAULT_LIST_STATE, category: choice.category, finishes: [choice.finish] }));
  expect(await shown()).toEqual(hrefs(matching({ category: choice.category, finishes: [choice.finish] }).slice(0, PAGE_SIZE)));

  // Every material's list, followed by its Next links, shows all its products.
  for (const { name } of vocabulary.materials) {
    const reached: (string | null)[] = [];
    let next: string | null = listPath({ ...DEFAULT_LIST_STATE, materials: [name] });
    while (next) {
      await page.goto(next);
      reached.push(...(await shown()));
      const more = page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Next" });
      next = (await more.count()) && (await more.getAttribute("aria-disabled")) !== "true" ? await more.getAttribute("href") : null;
    }
    expect(reached, name).toEqual(hrefs(matching({ materials: [name] })));
  }
});

test("the contact form posts: problems beside the fields, then a thank-you page", async ({ page }) => {
  await page.goto("/contact-us");
  const form = page.getByRole("form", { name: "Contact form" });
  await form.getByRole("textbox", { name: "Your Email" }).fill("not an address");
  await form.getByRole("textbox", { name: "Message" }).fill("Kept as typed: two chairs, please.");
  await form.getByRole("button", { name: "Send Message" }).click();

  await expect(page).toHaveTitle(/^Error: /);
  const again = page.getByRole("form", { name: "Contact form" });
  await expect(again.getByRole("textbox", { name: "Your Name" })).toHaveAccessibleDescription("Please tell us your name.");
  await expect(again.getByRole("textbox", { name: "Your Name" })).toBeFocused();
  await expect(again.getByRole("textbox", { name: "Your Email" })).toHaveAttribute("aria-invalid", "true");
  await expect(again.getByRole("textbox", { name: "Your Email" })).toHaveValue("not an address");
  await expect(again.getByRole("textbox", { name: "Message" })).toHaveValue("Kept as typed: two chairs, please.");
  await expect(page.locator("body")).not.toContainText('"error"');

  await again.getByRole("textbox", { name: "Your Name" }).fill("Meera Rathore");
  await again.getByRole("textbox", { name: "Your Email" }).fill("meera@example.com");
  await again.getByRole("button", { name: "Send Message" }).click();
  await expect(page).toHaveURL(/\/thank-you$/);
  await expect(page.getByRole("heading", { level: 1, name: "Thank you" })).toBeVisible();
  await expect(page.getByRole("contentinfo")).toBeVisible(); // in the site's own frame
});

test("the newsletter box posts and thanks", async ({ page }) => {
  await page.goto("/about");
  await page.getByRole("textbox", { name: "Your e-mail" }).fill("reader@");
  await page.getByRole("button", { name: "Subscribe" }).click();
  await expect(page).toHaveTitle(/^Error: /);
  await expect(page.getByRole("textbox", { name: "Your e-mail" })).toHaveValue("reader@");
  await expect(page.getByRole("textbox", { name: "Your e-mail" })).toHaveAccessibleDescription(/e-mail address/);
  await page.getByRole("textbox", { name: "Your e-mail" }).fill(`reader${Date.now()}@example.com`);
  await page.getByRole("button", { name: "Subscribe" }).click();
  await expect(page).toHaveURL(/\/thank-you\/newsletter$/);
  await expect(page.getByText("You are on the list")).toBeVisible();
});

for (const [button, kind] of [
  ["Get Quote", "quote"],
  ["Customize", "customize"],
] as const) {
  test(`${button} on a product page leads to a form of its own that posts`, async ({ page }) => {
    const product = products[0]!;
    await page.goto(`/product/${product.id}`);
    await page.getByRole("button", { name: button, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/product/${product.id}/${kind}\\?`));
    const form = page.getByRole("form");
    await form.getByRole("combobox", { name: "Finish" }).selectOption(product.finish.at(-1)!);
    await form.getByRole("textbox", { name: "Your Name" }).fill("Ravi Mehta");
    await form.getByRole("textbox", { name: /^Message/ }).fill("For a veranda.");
    await form.getByRole("button").click();

    await expect(page).toHaveTitle(/^Error: /);
    await expect(page.getByRole("textbox", { name: "Your Email" })).toHaveAccessibleDescription(/e-mail/);
    await expect(page.getByRole("combobox", { name: "Finish" })).toHaveValue(product.finish.at(-1)!);
    await expect(page.getByRole("textbox", { name: /^Message/ })).toHaveValue("For a veranda.");
    await page.getByRole("textbox", { name: "Your Email" }).fill("ravi@example.com");
    await page.getByRole("form").getByRole("button").click();
    await expect(page).toHaveURL(/\/thank-you$/);
  });
}

// The options and Get Quote are one form: a finish chosen on the product
// page is the one the quote page shows and the enquiry carries. A refused
// post comes back at the form's own address, not the API's.
test("a finish chosen on the product page reaches the quote page and the enquiry", async ({ page }) => {
  const product = products.find((p) => p.finish.length > 1)!;
  const finish = product.finish[1]!;
  await page.goto(`/product/${product.id}`);
  await page.getByRole("group", { name: "Finish" }).getByText(finish, { exact: true }).click();
  await page.getByRole("button", { name: "Get Quote", exact: true }).click();
  await expect(page).toHaveURL(`/product/${product.id}/quote?${new URLSearchParams({ material: product.material[0]!, finish })}`);
  const form = page.getByRole("form", { name: `Get a quote for ${product.name}` });
  await expect(form.getByRole("combobox", { name: "Finish" })).toHaveValue(finish);
  await expect(form.getByRole("combobox", { name: "Material" })).toHaveValue(product.material[0]!);

  // Refused (no e-mail): the page again, at its own address, with the finish kept.
  await form.getByRole("textbox", { name: "Your Name" }).fill("Ravi Mehta");
  await form.getByRole("button", { name: "Request a quote" }).click();
  await expect(page).toHaveTitle(/^Error: /);
  await expect(page).toHaveURL(`/product/${product.id}/quote`);
  await expect(page.getByRole("textbox", { name: "Your Email" })).toHaveAccessibleDescription(/e-mail/);
  await expect(page.getByRole("combobox", { name: "Finish" })).toHaveValue(finish);

  await page.getByRole("textbox", { name: "Your Email" }).fill("ravi@example.com");
  const [sent] = await Promise.all([
    page.waitForRequest((r) => r.method() === "POST" && new URL(r.url()).pathname === `/product/${product.id}/quote`),
    page.getByRole("button", { name: "Request a quote" }).click(),
  ]);
  expect(new URLSearchParams(sent.postData()!).get("finish")).toBe(finish);
  await expect(page).toHaveURL(/\/thank-you$/);
});

test("the contact form refused comes back at the contact page's address", async ({ page }) => {
  await page.goto("/contact-us");
  const form = page.getByRole("form", { name: "Contact form" });
  await form.getByRole("textbox", { name: "Your Email" }).fill("not an address");
  await form.getByRole("button", { name: "Send Message" }).click();
  await expect(page).toHaveTitle(/^Error: /);
  await expect(page).toHaveURL("/contact-us");
  await expect(page.getByRole("textbox", { name: "Your Email" })).toHaveValue("not an address");
});

import type { Locator, Page } from "@playwright/test";
import { test, expect, expectNoAxeViolations, hydrated, recordAnalytics, trackedEvents, unique } from "./fixtures";
import { products, vocabulary } from "./content";
import { DEFAULT_LIST_STATE, PAGE_SIZE, filterProducts } from "../app/lib/filters";
import { SHORTLIST_KEY } from "../app/lib/shortlist/saved";

// The shortlist as a designer uses it: pieces gathered from the list and
// from a product page, their choices changed, kept across a reload, sent
// to another browser by a link, and asked for in one request that the
// studio sees as one enquiry. The pieces are read from content/, so the
// studio's edits to the catalogue need no change here.

const firstPage = filterProducts(products, DEFAULT_LIST_STATE, vocabulary).slice(0, PAGE_SIZE);
// Two pieces from the first page of /products, one with finishes to choose from; a third from its own page.
const withFinishes = firstPage.find((p) => p.finish.length > 1) ?? firstPage[0]!;
const secondFromList = firstPage.find((p) => p.id !== withFinishes.id)!;
const fromItsPage = products.find((p) => p.id !== withFinishes.id && p.id !== secondFromList.id)!;
const three = [withFinishes, secondFromList, fromItsPage];

test.beforeEach(async ({ page }) => {
  // A visitor of its own: the server limits enquiries per visitor.
  await page.setExtraHTTPHeaders({ "X-Forwarded-For": `198.18.${Math.floor(Math.random() * 250) + 1}.${Math.floor(Math.random() * 250) + 1}` });
  await recordAnalytics(page);
});

const shortlistLink = (page: Page) => page.getByRole("banner").getByRole("link", { name: /^Shortlist/ });
const piece = (page: Page, name: string) => page.getByRole("listitem").filter({ has: page.getByRole("heading", { level: 3, name, exact: true }) });

// Comma-separated values as encoding/csv writes them (quoted fields may hold commas, quotes and line breaks).
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  const endField = () => {
    row.push(field);
    field = "";
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") endField();
    else if (c === "\n") {
      endField();
      rows.push(row);
      row = [];
    } else if (c !== "\r") field += c;
  }
  if (field || row.length) {
    endField();
    rows.push(row);
  }
  return rows;
}

async function addFromList(page: Page, name: string) {
  const button = page.getByRole("button", { name: `Add ${name} to shortlist` });
  await button.click();
  await expect(button).toHaveAttribute("aria-pressed", "true");
}

test("three pieces from two pages, changed, reloaded, shared to another browser and sent as one request the studio sees whole", async ({ page, browser, context, personsPace, openStudio }) => {
  test.setTimeout(240_000);
  await personsPace(page);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto("/products");
  await hydrated(page);
  await expect(shortlistLink(page)).toHaveAccessibleName("Shortlist, 0 pieces");
  await addFromList(page, withFinishes.name);
  await addFromList(page, secondFromList.name);
  await expect(shortlistLink(page)).toHaveAccessibleName("Shortlist, 2 pieces");
  await expect(page.getByText("2 pieces in your shortlist")).toBeAttached(); // the polite announcement

  await page.goto(`/product/${fromItsPage.id}`);
  await hydrated(page);
  const add = page.getByRole("button", { name: "Add to shortlist", exact: true });
  await expect(add).toHaveAttribute("aria-pressed", "false");
  await add.click();
  await expect(add).toHaveAttribute("aria-pressed", "true");
  await expect(shortlistLink(page)).toHaveAccessibleName("Shortlist, 3 pieces");
  expect((await trackedEvents(page, "add_to_wishlist")).map((e) => (e.params.items as { item_id: string }[])[0]!.item_id)).toEqual([String(fromItsPage.id)]);

  await shortlistLink(page).click();
  await expect(page).toHaveURL(/\/shortlist$/);
  await expect(page.getByRole("heading", { level: 2, name: "3 pieces" })).toBeVisible();
  for (const p of three) await expect(piece(page, p.name)).toBeVisible();
  const viewed = await trackedEvents(page, "view_item_list");
  expect(viewed.map((e) => e.params.item_list_name)).toEqual(["Shortlist"]);
  expect((viewed[0]!.params.items as { item_id: string }[]).map((i) => i.item_id)).toEqual(three.map((p) => String(p.id)));

  // A finish and a quantity changed, kept across a reload.
  const finish = withFinishes.finish.at(-1)!;
  await piece(page, withFinishes.name).getByRole("combobox", { name: "Finish" }).selectOption(finish);
  await piece(page, secondFromList.name).getByRole("spinbutton", { name: "Quantity" }).fill("4");
  await piece(page, fromItsPage.name).getByRole("textbox", { name: /Note/ }).fill("For the hotel lobby, two metres wide");
  await page.reload();
  await hydrated(page);
  await expect(piece(page, withFinishes.name).getByRole("combobox", { name: "Finish" })).toHaveValue(finish);
  await expect(piece(page, secondFromList.name).getByRole("spinbutton", { name: "Quantity" })).toHaveValue("4");
  await expect(piece(page, fromItsPage.name).getByRole("textbox", { name: /Note/ })).toHaveValue("For the hotel lobby, two metres wide");

  // The link, opened in a browser that has never seen the site.
  await page.getByRole("button", { name: "Copy link" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Link copied" })).toBeVisible();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  expect(link).toMatch(/\/shortlist\?items=[\w.~-]+$/);
  const elsewhere = await browser.newContext();
  const other = await elsewhere.newPage();
  await other.goto(link);
  await expect(other.getByRole("heading", { level: 2, name: "3 products, 6 pieces" })).toBeVisible(); // 1 + 4 + 1
  await expect(other).toHaveURL(/\/shortlist$/); // taken in, so a reload does not ask again
  await expect(piece(other, withFinishes.name).getByRole("combobox", { name: "Finish" })).toHaveValue(finish);
  await expect(piece(other, secondFromList.name).getByRole("spinbutton", { name: "Quantity" })).toHaveValue("4");
  await expect(piece(other, fromItsPage.name).getByRole("textbox", { name: /Note/ })).toHaveValue(""); // notes stay with their writer
  expect(await other.evaluate((key) => JSON.parse(localStorage.getItem(key)!).items.length, SHORTLIST_KEY)).toBe(3);
  await elsewhere.close();

  // One request for all three.
  const name = unique("Anjali Mehta");
  await page.getByRole("textbox", { name: "Your Name" }).fill(name);
  await page.getByRole("textbox", { name: "Your Email" }).fill("anjali@studio-mehta.example");
  await page.getByRole("button", { name: "Request a quote for 3 products, 6 pieces" }).click();
  const thanks = page.getByRole("status").filter({ hasText: "Thank you" });
  await expect(thanks).toContainText("Your request for 3 products, 6 pieces has reached the studio");
  await expect(thanks).toContainText("Your shortlist is still here");
  await expect(page.getByRole("heading", { level: 2, name: "3 products, 6 pieces" })).toBeVisible();
  const lead = await trackedEvents(page, "generate_lead");
  expect(lead).toHaveLength(1);
  expect((lead[0]!.params.items as { item_id: string; quantity: number }[]).map((i) => [i.item_id, i.quantity])).toEqual([
    [String(withFinishes.id), 1],
    [String(secondFromList.id), 4],
    [String(fromItsPage.id), 1],
  ]);

  // The studio: one enquiry, every piece in it, and one row per piece in the CSV.
  await openStudio(page);
  await page.getByRole("searchbox", { name: "Search" }).fill(name);
  await page.getByRole("button", { name: "Show" }).click();
  const listed = page.getByRole("article").filter({ hasText: name });
  await expect(listed).toHaveCount(1);
  await expect(listed).toContainText("3 products, 6 pieces");
  await listed.getByRole("link", { name: new RegExp(name) }).click();
  const table = page.getByRole("table", { name: "3 products, 6 pieces" });
  for (const [p, material, fin, quantity] of [
    [withFinishes, withFinishes.material[0]!, finish, "1"],
    [secondFromList, secondFromList.material[0]!, secondFromList.finish[0]!, "4"],
    [fromItsPage, fromItsPage.material[0]!, fromItsPage.finish[0]!, "1"],
  ] as const) {
    const row = table.getByRole("row").filter({ has: page.getByRole("rowheader", { name: `${p.name} (#${p.id})` }) });
    await expect(row.getByRole("cell")).toHaveText([material, fin, quantity, p === fromItsPage ? "For the hotel lobby, two metres wide" : ""]);
  }

  const csv = parseCsv(await (await page.request.get("/studio/enquiries.csv")).text());
  const header = csv[0]!;
  const col = (row: string[], name: string) => row[header.indexOf(name)];
  const rows = csv.filter((r) => col(r, "name") === name);
  expect(rows.map((r) => [col(r, "product_id"), col(r, "finish"), col(r, "quantity")])).toEqual([
    [String(withFinishes.id), finish, "1"],
    [String(secondFromList.id), secondFromList.finish[0], "4"],
    [String(fromItsPage.id), fromItsPage.finish[0], "1"],
  ]);
  expect(new Set(rows.map((r) => col(r, "id"))).size).toBe(1);
  expect(rows.every((r) => col(r, "kind") === "quote" && col(r, "spam") === "false")).toBe(true);
});

test.describe("at 375 px, by keyboard alone", { tag: "@narrow-only" }, () => {
  test.use({ viewport: { width: 375, height: 800 } });

  // Presses Tab (or Shift+Tab, back) until the element the locator finds has focus.
  async function tabTo(page: Page, target: Locator, key: "Tab" | "Shift+Tab" = "Tab", max = 80) {
    for (let i = 0; i < max; i++) {
      if (await target.evaluate((el) => el === document.activeElement, undefined, { timeout: 30_000 })) return;
      await page.keyboard.press(key);
    }
    throw new Error(`Tab never reached ${target}`);
  }

  test("pieces added, moved, taken out and asked for without a mouse", async ({ page, personsPace }) => {
    test.setTimeout(240_000);
    await personsPace(page);
    const [a, b] = [withFinishes, secondFromList];
    await page.goto("/products");
    await hydrated(page);
    for (const p of [a, b]) {
      const button = page.getByRole("button", { name: `Add ${p.name} to shortlist` });
      await tabTo(page, button);
      await page.keyboard.press("Enter");
      await expect(button).toHaveAttribute("aria-pressed", "true");
    }
    await tabTo(page, shortlistLink(page), "Shift+Tab");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/shortlist$/);
    await expect(page.getByRole("heading", { level: 2, name: "2 pieces" })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    // The first piece moved down: it is second now, and keeps the focus.
    const down = piece(page, a.name).getByRole("button", { name: `Move down: ${a.name}` });
    await tabTo(page, down);
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { level: 3 })).toHaveText([b.name, a.name]);
    await expect(down).toBeFocused();
    await expect(page.getByText(`${a.name} moved to place 2 of 2.`)).toBeAttached();

    // A quantity out of range is named before anything is sent.
    const quantity = piece(page, b.name).getByRole("spinbutton", { name: "Quantity" });
    await tabTo(page, quantity);
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.type("1000");
    await expect(piece(page, b.name).getByText("Say how many: a whole number from 1 to 999.")).toBeVisible();
    await expect(quantity).toHaveAttribute("aria-invalid", "true");
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.type("12");
    await expect(quantity).not.toHaveAttribute("aria-invalid");

    await expectNoAxeViolations(page);

    // Taking a piece out moves the focus to what is left.
    const remove = piece(page, a.name).getByRole("button", { name: `Remove: ${a.name}` });
    await tabTo(page, remove);
    await page.keyboard.press("Enter");
    await expect(piece(page, a.name)).toHaveCount(0);
    await expect(piece(page, b.name).getByRole("button", { name: `Remove: ${b.name}` })).toBeFocused();
    expect((await trackedEvents(page, "remove_from_wishlist")).map((e) => (e.params.items as { item_id: string }[])[0]!.item_id)).toEqual([String(a.id)]);

    // The request, sent by keyboard; a wrong address is named first.
    await tabTo(page, page.getByRole("textbox", { name: "Your Name" }));
    await page.keyboard.type(unique("Kabir"));
    await page.keyboard.press("Tab");
    await page.keyboard.type("kabir@");
    await tabTo(page, page.getByRole("button", { name: "Request a quote for 1 product, 12 pieces" }));
    await page.keyboard.press("Enter");
    await expect(page.getByRole("textbox", { name: "Your Email" })).toBeFocused();
    await page.keyboard.type("studio.example");
    await tabTo(page, page.getByRole("button", { name: "Request a quote for 1 product, 12 pieces" }));
    await page.keyboard.press("Enter");
    await expect(page.getByRole("status").filter({ hasText: "Your request for 1 product, 12 pieces has reached the studio" })).toBeVisible();

    // The last piece out: the way back to the products.
    await tabTo(page, page.getByRole("button", { name: `Remove: ${b.name}` }));
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { level: 2, name: "Nothing here yet" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Browse the products" })).toBeVisible();
    await expect(shortlistLink(page)).toHaveAccessibleName("Shortlist, 0 pieces");
  });
});

test("a shared link over another shortlist asks first; Keep mine keeps it, Replace takes the link's", { tag: "@both" }, async ({ page }) => {
  const [mine, theirs] = [withFinishes, secondFromList];
  await page.goto("/products");
  await hydrated(page);
  await addFromList(page, mine.name);
  const link = `/shortlist?items=${theirs.id}...3~${fromItsPage.id}...1`;

  await page.goto(link);
  const ask = page.getByRole("region", { name: "Open the shortlist in the link?" });
  await expect(ask).toContainText(`The link holds 2 products, 4 pieces: ${theirs.name}, ${fromItsPage.name}. It would replace the 1 piece in your shortlist.`);
  await expect(ask.getByRole("heading")).toBeFocused();
  await expect(page).toHaveURL(/\/shortlist$/);
  await expectNoAxeViolations(page);
  await ask.getByRole("button", { name: "Keep mine" }).click();
  await expect(ask).toHaveCount(0);
  await expect(page.getByRole("heading", { level: 3 })).toHaveText([mine.name]);

  await page.goto(link);
  await page.getByRole("button", { name: "Replace mine with the link’s" }).click();
  await expect(page.getByRole("heading", { level: 3 })).toHaveText([theirs.name, fromItsPage.name]);
  await expect(piece(page, theirs.name).getByRole("spinbutton", { name: "Quantity" })).toHaveValue("3");
  await expect(shortlistLink(page)).toHaveAccessibleName("Shortlist, 2 products, 4 pieces");
});

test("pieces the catalogue does not have, in a link or in storage, are left out with a notice, never an error", async ({ page }) => {
  const unknownId = Math.max(...products.map((p) => p.id)) + 1000;
  const p = withFinishes;
  await page.goto(`/shortlist?items=${unknownId}..1~${p.id}.no-such-wood.no-such-finish.2~abc`);
  const notice = page.getByRole("status").filter({ hasText: "2 pieces in the link are not in the catalogue now" });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText("2 choices of material, finish or quantity in the link could not be used");
  await expect(page.getByRole("heading", { level: 3 })).toHaveText([p.name]);
  await expect(piece(page, p.name).getByRole("combobox", { name: "Material" })).toHaveValue(p.material[0]!);
  await expect(piece(page, p.name).getByRole("spinbutton", { name: "Quantity" })).toHaveValue("2");

  await page.evaluate(
    ({ key, unknownId, id }) =>
      localStorage.setItem(key, JSON.stringify({ version: 1, items: [{ productId: unknownId, material: "x", finish: "y", quantity: 1, note: "" }, { productId: id, material: "x", finish: "y", quantity: 5000, note: "" }] })),
    { key: SHORTLIST_KEY, unknownId, id: p.id },
  );
  await page.reload();
  await expect(page.getByRole("status").filter({ hasText: "1 piece in your saved shortlist is not in the catalogue now" })).toBeVisible();
  await expect(piece(page, p.name).getByRole("spinbutton", { name: "Quantity" })).toHaveValue("999");

  await page.evaluate((key) => localStorage.setItem(key, "{not json"), SHORTLIST_KEY);
  await page.reload();
  await expect(page.getByRole("status").filter({ hasText: "could not be read" })).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Nothing here yet" })).toBeVisible();
});

test("Copy link where the browser will not copy: a dialog with the address to copy by hand", { tag: "@both" }, async ({ page }) => {
  await page.addInitScript(() => {
    Object.defineProperty(navigator, "clipboard", { value: { writeText: () => Promise.reject(new Error("denied")) } });
  });
  await page.goto("/products");
  await hydrated(page);
  await addFromList(page, withFinishes.name);
  await shortlistLink(page).click();
  await page.getByRole("button", { name: "Copy link" }).click();
  const dialog = page.getByRole("dialog", { name: "Copy the link to your shortlist" });
  await expect(dialog).toBeVisible();
  const address = dialog.getByRole("textbox", { name: "Copy the link to your shortlist" });
  await expect(address).toBeFocused();
  await expect(address).toHaveValue(new RegExp(`/shortlist\\?items=${withFinishes.id}\\.\\.\\.1$`));
  expect(await address.evaluate((el: HTMLInputElement) => el.value.slice(el.selectionStart!, el.selectionEnd!))).toBe(await address.inputValue());
  await expectNoAxeViolations(page, ".share-dialog");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("button", { name: "Copy link" })).toBeFocused();
});

// Puts the given products in this browser's shortlist, one of each unless
// a quantity is given, and opens the shortlist.
async function openWith(page: Page, list: { id: number; quantity?: number }[]) {
  await page.goto("/shortlist");
  await page.evaluate(
    ({ key, items }) => localStorage.setItem(key, JSON.stringify({ version: 1, items })),
    {
      key: SHORTLIST_KEY,
      items: list.map(({ id, quantity = 1 }) => {
        const p = products.find((q) => q.id === id)!;
        return { productId: id, material: p.material[0], finish: p.finish[0], quantity, note: "" };
      }),
    },
  );
  await page.reload();
  await hydrated(page);
}

// A phone: the form is the last thing on the page, and the thanks that
// takes its place is much shorter. The visitor must see the thanks, below
// the sticky header, and a keyboard or screen reader must land on it.
for (const [width, reducedMotion] of [
  [320, "reduce"],
  [375, "no-preference"],
] as const) {
  test.describe(`at ${width} px, motion ${reducedMotion}`, () => {
    test.use({ viewport: { width, height: 640 }, reducedMotion });

    test("the thanks for a request is in view below the header and has the focus @narrow-only", async ({ page, personsPace }) => {
      await personsPace(page);
      await openWith(page, three.map((p) => ({ id: p.id })));
      await page.getByRole("textbox", { name: "Your Name" }).fill(unique("Ira Sen"));
      await page.getByRole("textbox", { name: "Your Email" }).fill("ira@example.com");
      await page.getByRole("textbox", { name: /^Message/ }).fill("For a reading room.");
      await page.getByRole("button", { name: /^Request a quote for/ }).click();

      const thanks = page.getByRole("status").filter({ hasText: "has reached the studio" });
      await expect(thanks).toBeAttached();
      const header = (await page.getByRole("banner").boundingBox())!;
      const placed = async () => {
        const box = (await thanks.boundingBox())!;
        return { belowHeader: box.y >= header.y + header.height, inViewport: box.y + box.height <= 640 };
      };
      const inView = { belowHeader: true, inViewport: true };
      // Without motion the page is there at once; with it, once the smooth scroll ends.
      if (reducedMotion === "reduce") expect(await placed()).toEqual(inView);
      else await expect.poll(placed).toEqual(inView);
      await expect(thanks).toBeFocused();
    });
  });
}

// The thanks gives way to the form again: the button pressed goes with the
// thanks, and the focus goes to the form's first field, not to <body>.
test("Write another request puts the focus on the form's first field", async ({ page, personsPace }) => {
  await personsPace(page);
  await openWith(page, [{ id: three[0]!.id }]);
  await page.getByRole("textbox", { name: "Your Name" }).fill(unique("Ira Sen"));
  await page.getByRole("textbox", { name: "Your Email" }).fill("ira@example.com");
  await page.getByRole("button", { name: /^Request a quote for/ }).click();
  await expect(page.getByRole("status").filter({ hasText: "has reached the studio" })).toBeFocused();

  await page.getByRole("button", { name: "Write another request" }).click();
  const name = page.getByRole("textbox", { name: "Your Name" });
  await expect(name).toBeFocused();
  await expect(name).toBeInViewport();
});

// The pieces a shortlist holds are the sum of its quantities, and every
// place that counts them says so: the list's heading, the request's button
// and the header's shortlist link.
test("a shortlist counts its pieces by their quantities, not its products", async ({ page }) => {
  const chosen = products.slice(0, 10);
  const list = chosen.map((p, i) => ({ id: p.id, quantity: 5 + (i % 2) }));
  await openWith(page, list);
  const words = (quantities: number[]) => {
    const total = quantities.reduce((a, b) => a + b, 0);
    const n = quantities.length;
    return total === n ? `${n} ${n === 1 ? "piece" : "pieces"}` : `${n} ${n === 1 ? "product" : "products"}, ${total} pieces`;
  };
  const expectSaid = async (said: string) => {
    await expect(page.getByRole("heading", { level: 2, name: said, exact: true })).toBeVisible();
    await expect(page.getByRole("button", { name: `Request a quote for ${said}`, exact: true })).toBeVisible();
    await expect(shortlistLink(page)).toHaveAccessibleName(`Shortlist, ${said}`);
  };
  const quantities = list.map((i) => i.quantity);
  expect(words(quantities)).not.toBe(`${chosen.length} pieces`);
  await expectSaid(words(quantities));

  // A quantity changed: the count follows it.
  quantities[0] = 12;
  await piece(page, chosen[0]!.name).getByRole("spinbutton", { name: "Quantity" }).fill("12");
  await expectSaid(words(quantities));
  await expect(page.getByText(`${words(quantities)} in your shortlist`, { exact: true })).toBeAttached(); // the polite announcement
});

// A line is one product in one material and one finish: the same product
// in two finishes is two lines, on the page, in the header's count, in the
// shared link and in the request.
test("one product in two finishes: two lines, on the shortlist and in the shared link", { tag: "@both" }, async ({ page, browser, context }) => {
  test.skip(withFinishes.finish.length < 2, "no product of content/catalogue.json has two finishes");
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const p = withFinishes;
  const [first, second] = [p.finish[0]!, p.finish[1]!];
  const material = p.material[0]!;
  await page.goto(`/product/${p.id}`);
  await hydrated(page);
  const add = page.getByRole("button", { name: "Add to shortlist", exact: true });
  const finishes = page.getByRole("group", { name: "Finish" });
  await add.click();
  await expect(add).toHaveAttribute("aria-pressed", "true");
  // Another finish is another line: not on the list yet, and added beside the first.
  await finishes.getByRole("radio", { name: second, exact: true }).check();
  await expect(add).toHaveAttribute("aria-pressed", "false");
  await add.click();
  await expect(add).toHaveAttribute("aria-pressed", "true");
  await finishes.getByRole("radio", { name: first, exact: true }).check();
  await expect(add).toHaveAttribute("aria-pressed", "true");
  await expect(shortlistLink(page)).toHaveAccessibleName("Shortlist, 1 product, 2 pieces");

  await shortlistLink(page).click();
  await expect(page).toHaveURL(/\/shortlist$/);
  const lines = piece(page, p.name);
  await expect(lines).toHaveCount(2);
  await expect(lines.nth(0).getByRole("combobox", { name: "Finish" })).toHaveValue(first);
  await expect(lines.nth(1).getByRole("combobox", { name: "Finish" })).toHaveValue(second);
  // Their buttons tell them apart.
  await expect(lines.nth(1).getByRole("button", { name: `Remove: ${p.name} (${material}, ${second})` })).toBeVisible();

  // A finish that would repeat the other line is not taken, and the reason is beside it.
  const secondFinish = lines.nth(1).getByRole("combobox", { name: "Finish" });
  await secondFinish.selectOption(first);
  await expect(secondFinish).toHaveValue(second);
  await expect(secondFinish).toHaveAccessibleDescription(`${p.name} in ${material}, ${first} is on your shortlist already, at place 1: change its quantity there.`);

  await page.getByRole("button", { name: "Copy link" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Link copied" })).toHaveText("Link copied. It opens these 2 pieces, with their choices and quantities (not your notes), on any device.");
  const link = await page.evaluate(() => navigator.clipboard.readText());

  const elsewhere = await browser.newContext();
  const other = await elsewhere.newPage();
  await other.goto(link);
  await expect(other.getByRole("heading", { level: 2, name: "1 product, 2 pieces" })).toBeVisible();
  await expect(other).toHaveURL(/\/shortlist$/);
  const theirs = piece(other, p.name);
  await expect(theirs).toHaveCount(2);
  await expect(theirs.nth(0).getByRole("combobox", { name: "Finish" })).toHaveValue(first);
  await expect(theirs.nth(1).getByRole("combobox", { name: "Finish" })).toHaveValue(second);
  await elsewhere.close();

  // Taking one line out leaves the other.
  await lines.nth(0).getByRole("button", { name: `Remove: ${p.name} (${material}, ${first})` }).click();
  await expect(lines).toHaveCount(1);
  await expect(lines.getByRole("combobox", { name: "Finish" })).toHaveValue(second);
  await expect(shortlistLink(page)).toHaveAccessibleName("Shortlist, 1 piece");
});

// The product page's Add to shortlist as a form (it works before the
// scripts run): /shortlist?add=<id>&material=…&finish=….
test("/shortlist?add= adds the line asked for, once, and the address drops it", { tag: "@both" }, async ({ page }) => {
  test.skip(withFinishes.finish.length < 2, "no product of content/catalogue.json has two finishes");
  const p = withFinishes;
  const second = p.finish[1]!;
  await page.goto("/about");
  await page.goto(`/shortlist?add=${p.id}&finish=${encodeURIComponent(second)}`);
  await expect(page.getByRole("status").filter({ hasText: "added" })).toHaveText(`${p.name} in ${p.material[0]}, ${second} is added to your shortlist.`);
  await expect(page).toHaveURL(/\/shortlist$/);
  const lines = piece(page, p.name);
  await expect(lines).toHaveCount(1);
  await expect(lines.getByRole("combobox", { name: "Finish" })).toHaveValue(second);
  expect((await trackedEvents(page, "add_to_wishlist")).map((e) => (e.params.items as { item_id: string }[])[0]!.item_id)).toEqual([String(p.id)]);

  // Neither a reload nor Back and Forward add it again.
  await page.reload();
  await hydrated(page);
  await expect(lines).toHaveCount(1);
  await expect(lines.getByRole("spinbutton", { name: "Quantity" })).toHaveValue("1");
  await page.goBack();
  await expect(page).toHaveURL(/\/about$/);
  await page.goForward();
  await expect(page).toHaveURL(/\/shortlist$/);
  await hydrated(page);
  await expect(lines).toHaveCount(1);

  // Asked again: it is there already, and says so.
  await page.goto(`/shortlist?add=${p.id}&material=${encodeURIComponent(p.material[0]!)}&finish=${encodeURIComponent(second)}`);
  await expect(page.getByRole("status").filter({ hasText: "already" })).toHaveText(`${p.name} in ${p.material[0]}, ${second} is on your shortlist already.`);
  await expect(lines).toHaveCount(1);

  // What the catalogue does not have is named, and nothing is added.
  const unknownFinish = "Plastic";
  expect(p.finish).not.toContain(unknownFinish);
  await page.goto(`/shortlist?add=${p.id}&finish=${unknownFinish}`);
  await expect(page.getByRole("status").filter({ hasText: "nothing was added" })).toHaveText(`${p.name} is not made with a ${unknownFinish} finish, so nothing was added.`);
  const unknownId = Math.max(...products.map((q) => q.id)) + 1000;
  await page.goto(`/shortlist?add=${unknownId}`);
  await expect(page.getByRole("status").filter({ hasText: "nothing was added" })).toHaveText("The piece you asked to add is not in the catalogue now, so nothing was added.");
  await expect(page).toHaveURL(/\/shortlist$/);
  await expect(lines).toHaveCount(1);
});

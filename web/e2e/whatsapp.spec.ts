import { test, expect, hydrated, recordAnalytics, trackedEvents } from "./fixtures";
import { products, site } from "./content";
import { whatsappNumber, whatsappPhone } from "../app/lib/facts";

// WhatsApp, where most visitors in India reach a studio: a click-to-chat
// link on every product page, on the contact page and in the footer, plain
// links that work without scripts.

const waNumber = `https://wa.me/${whatsappNumber(site)}`;

// The link's number and the message it starts the chat with.
async function chat(link: import("@playwright/test").Locator): Promise<{ to: string; text: string }> {
  const href = new URL((await link.getAttribute("href"))!);
  return { to: href.origin + href.pathname, text: href.searchParams.get("text") ?? "" };
}

test.beforeEach(async ({ context }) => {
  // The chat opens in a new tab; wa.me itself is not this test's to reach.
  await context.route("https://wa.me/**", (route) => route.fulfill({ contentType: "text/html", body: "<title>WhatsApp</title>" }));
});

test("a product page's WhatsApp link names the piece and the chosen finish, and is tracked", async ({ page }) => {
  const product = products.find((p) => p.finish.length > 1)!;
  await recordAnalytics(page);
  await page.goto(`/product/${product.id}`);
  await hydrated(page);
  const link = page.getByRole("link", { name: "Ask about it on WhatsApp (opens in a new tab)" });
  let message = await chat(link);
  expect(message.to).toBe(waNumber);
  expect(message.text).toContain(product.name);
  expect(message.text).toContain(`${product.material[0]}, ${product.finish[0]} finish`);

  const finish = product.finish[1]!;
  await page.getByRole("group", { name: "Finish" }).getByRole("radio", { name: finish, exact: true }).check();
  await expect(link).toHaveAttribute("href", new RegExp(encodeURIComponent(`${finish} finish`)));
  message = await chat(link);
  expect(message.text).toContain(`${product.material[0]}, ${finish} finish`);
  await expect(link).toHaveAttribute("target", "_blank");

  const popup = page.waitForEvent("popup");
  await link.click();
  await (await popup).close();
  expect((await trackedEvents(page, "contact_attempt")).map((e) => e.params)).toEqual([{ method: "whatsapp", location: "product_page" }]);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the product page, the contact page and the footer each have a WhatsApp link", async ({ page }) => {
    const product = products[0]!;
    await page.goto(`/product/${product.id}`);
    const onProduct = await chat(page.getByRole("link", { name: "Ask about it on WhatsApp (opens in a new tab)" }));
    expect(onProduct.to).toBe(waNumber);
    expect(onProduct.text).toContain(`${product.name} (${product.type}, ${product.material[0]}, ${product.finish[0]} finish)`);

    const footer = page.getByRole("contentinfo");
    const inFooter = footer.getByRole("list", { name: "Social media" }).getByRole("link", { name: "WhatsApp (opens in a new tab)" });
    expect((await chat(inFooter)).to).toBe(waNumber);

    await page.goto("/contact-us");
    const details = page.getByRole("region", { name: "Call, write or visit" });
    const term = details.getByRole("term").filter({ hasText: "WhatsApp" });
    await expect(term).toBeVisible();
    const onContact = details.getByRole("link", { name: `WhatsApp ${whatsappPhone(site).display} (opens in a new tab)` });
    expect((await chat(onContact)).to).toBe(waNumber);
    // The number is given under the term that names it.
    expect(await term.evaluate((dt) => dt.parentElement!.querySelector("dd a")?.getAttribute("href"))).toBe(await onContact.getAttribute("href"));
  });
});

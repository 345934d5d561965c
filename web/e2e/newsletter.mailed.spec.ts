import type { Page } from "@playwright/test";
import { test, expect, expectNoAxeViolations, unique } from "./fixtures";
import { lastMailTo, linkIn, mailedServer } from "./mail";

// The newsletter with double opt-in, as a reader lives it: signing up in
// the footer, confirming through the mailed link, then leaving through the
// unsubscribe link the mail carries; the studio's list follows each step.

// A mailed link is on the server's own address (mailedServer): the test
// opens its path and query on the page's server, which is that one.
function local(link: string): string {
  const url = new URL(link);
  return url.pathname + url.search;
}

async function newsletterCSV(page: Page): Promise<string> {
  const res = await page.request.get("/studio/newsletter.csv");
  expect(res.status()).toBe(200);
  return res.text();
}

test("sign up, confirm through the mailed link, unsubscribe through the mailed link", async ({ page, browser, openStudio }) => {
  test.slow(); // mail round trips, on a loaded machine
  const address = `${unique("reader").replace(/\s/g, "-").toLowerCase()}@example.com`;
  const studio = await browser.newPage();
  await openStudio(studio);

  await page.goto("/about");
  const footer = page.getByRole("contentinfo");
  await footer.getByRole("textbox", { name: "Your e-mail" }).fill(address);
  await footer.getByRole("button", { name: "Subscribe" }).click();
  await expect(footer.getByRole("status")).toHaveText("Thank you. Unless you are on the list already, we have sent you an e-mail: open its link to finish.");
  // Not on the list until confirmed.
  expect(await newsletterCSV(studio)).not.toContain(address);

  const mail = await lastMailTo(address, /please confirm your subscription/);
  const base = mailedServer;
  // RFC 8058: the mail program's own button posts to this link.
  const unsubscribe = linkIn(mail, `${base}/newsletter/unsubscribe?`);
  // (mailparser gathers the List-* headers into one, "list".)
  const list = JSON.parse(mail.headers["list"] ?? "{}") as { unsubscribe?: { url?: string }; "unsubscribe-post"?: { name?: string } };
  expect(list.unsubscribe?.url).toBe(unsubscribe);
  expect(list["unsubscribe-post"]?.name).toBe("List-Unsubscribe=One-Click");

  // Following the link changes nothing by itself (a mail scanner follows links): its button does.
  await page.goto(local(linkIn(mail, `${base}/newsletter/confirm?`)));
  await expect(page.getByRole("heading", { level: 1, name: "Confirm your subscription" })).toBeVisible();
  await expectNoAxeViolations(page);
  expect(await newsletterCSV(studio)).not.toContain(address);
  await page.getByRole("button", { name: "Confirm my subscription" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "You are on the list" })).toBeVisible();
  expect(await newsletterCSV(studio)).toContain(address);

  // A link whose signature was changed does nothing, and says so.
  const tampered = new URL(unsubscribe);
  const signature = tampered.searchParams.get("s")!;
  tampered.searchParams.set("s", signature.slice(0, -2) + (signature.endsWith("AA") ? "BB" : "AA"));
  await page.goto(local(tampered.toString()));
  await expect(page.getByRole("heading", { level: 1, name: "This link does not work" })).toBeVisible();
  await expect(page.getByText(/^This link is not valid/)).toBeVisible();
  await expect(page.getByRole("button", { name: /Unsubscribe/ })).toHaveCount(0);
  expect(await newsletterCSV(studio)).toContain(address);

  await page.goto(local(unsubscribe));
  await expect(page.getByRole("heading", { level: 1, name: "Unsubscribe" })).toBeVisible();
  await page.getByRole("button", { name: `Unsubscribe ${address}` }).click();
  await expect(page.getByRole("heading", { level: 1, name: "You are unsubscribed" })).toBeVisible();
  expect(await newsletterCSV(studio)).not.toContain(address);
  await studio.close();
});

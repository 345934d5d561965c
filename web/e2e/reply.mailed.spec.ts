import type { Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import { test, expect, expectNoAxeViolations, unique } from "./fixtures";
import { products, site } from "./content";
import { lastMailTo, linkIn, mailedServer } from "./mail";

// The studio answers a customer without leaving the workspace: from the
// link in its copy of the enquiry, a reply made from one of its templates
// with a PDF quote, seen in the enquiry's history and on the customer's
// page, and in the customer's mailbox as written; then, asked to forget
// them, the studio erases them.

const replies: { templates: { name: string; body: string }[] } = JSON.parse(
  readFileSync(new URL("../../content/replies.json", import.meta.url), "utf8"),
);
const product = products[0]!;

// A quote request the way the site's form sends it, from address.
async function requestQuote(page: Page, name: string, email: string) {
  const res = await page.request.post("/api/enquiries", {
    data: { kind: "quote", productId: product.id, material: product.material[0], finish: product.finish[0], name, email, message: `For our living room.\n${name}` },
    headers: { "X-Forwarded-For": `198.51.100.${Math.floor(Math.random() * 250) + 1}` },
  });
  expect(res.status()).toBe(201);
}

// A PDF made here: a real quote's first bytes and some size.
const quotePDF = Buffer.concat([Buffer.from("%PDF-1.4\n% a quote\n"), Buffer.alloc(200_000, "0")]);

test("reply from an enquiry with a template and a PDF, see it on the customer’s page, then erase the customer", async ({ page, openStudio }) => {
  test.slow(); // sign-in, mail round trips and axe on a loaded two-core machine
  const name = unique("Meera");
  const email = `${name.split(" ")[1]}@example.com`;
  await requestQuote(page, name, email);

  // The studio's copy links to the enquiry in the workspace.
  const copy = await lastMailTo("studio@jharokha.test", new RegExp(name));
  const link = new URL(linkIn(copy, mailedServer + "/studio/enquiries/"));
  await openStudio(page);
  await page.goto(link.pathname);
  await expect(page.getByRole("heading", { level: 1, name: new RegExp(name) })).toBeVisible();

  // A template, put in at the cursor by the page's script.
  const template = replies.templates.find((t) => t.body.includes("{{name}}"))!;
  await page.getByRole("link", { name: "Write a reply" }).click();
  await page.getByRole("combobox", { name: "Template" }).selectOption({ label: template.name });
  await page.getByRole("button", { name: "Use this template" }).click();
  const reply = page.getByRole("form", { name: "Reply" });
  const message = reply.getByRole("textbox", { name: "Message" });
  await expect(message).toHaveValue(new RegExp(`^Dear ${name},`));
  // The replies answer the acknowledgement, under its subject.
  const ack = await lastMailTo(email, /we have your quote request/);
  await expect(reply.getByRole("textbox", { name: "Subject" })).toHaveValue(`Re: ${ack.subject}`);
  await expect(reply.getByRole("textbox", { name: "To" })).toHaveValue(email);
  await reply.getByLabel(/PDF to attach/).setInputFiles({ name: "Quote.pdf", mimeType: "application/pdf", buffer: quotePDF });
  await expectNoAxeViolations(page);
  await reply.getByRole("button", { name: "Send reply" }).click();

  await expect(page.getByRole("status")).toContainText("Your reply is on its way");
  const history = page.getByRole("list").filter({ hasText: "received from the website" });
  await expect(history).toContainText("sent a reply");
  await expect(history).toContainText("moved it from New to Replied");

  // In the customer's mailbox, as written, from the studio, in the
  // acknowledgement's conversation, as text and as HTML.
  const sent = await lastMailTo(email, /^Re: /);
  expect(sent.subject).toBe(`Re: ${ack.subject}`);
  expect(sent.headers["in-reply-to"]).toBe(ack.headers["message-id"]);
  expect(sent.headers["references"]).toBe(ack.headers["message-id"]);
  expect(sent.text).toContain(`Dear ${name},`);
  expect(sent.html).toContain(`<p style="margin:0 0 1em">Dear ${name},</p>`);
  expect(sent.replyTo).toContain(site.email);
  expect(sent.attachments).toEqual([expect.objectContaining({ filename: "Quote.pdf", contentType: "application/pdf", size: quotePDF.length })]);
  // And the enquiry says it was delivered.
  const sentReply = page.getByRole("listitem").filter({ hasText: `to ${email}` });
  await expect(async () => {
    await page.reload();
    await expect(sentReply).toContainText(/: sent \d+ \w+ \d{4}/, { timeout: 1000 });
  }).toPass({ timeout: 60_000 });

  // The customer's page: what they asked and what the studio answered.
  await page.getByRole("link", { name: "Everything from this customer" }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  const timeline = page.getByRole("list").filter({ hasText: "replied:" });
  await expect(timeline).toContainText(`sent quote request`);
  await expect(timeline).toContainText(product.name);
  await expect(timeline).toContainText(`Dear ${name},`);
  await expectNoAxeViolations(page);

  // Asked to be forgotten: an owner erases them, after a question.
  const customerPage = page.url();
  await page.getByRole("link", { name: "Erase this person’s data…" }).click();
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: `Erase ${email}’s data for good` }).click();
  await expect(page.getByRole("status")).toHaveText("Erased 1 enquiry of that person.");
  expect((await page.goto(customerPage))!.status()).toBe(404);
  await page.goto(link.pathname);
  await expect(page.getByRole("heading", { level: 1 })).not.toContainText(name);
  await expect(page.getByText(email)).toHaveCount(0);
  await expect(page.getByRole("list").filter({ hasText: "received from the website" })).toContainText("erased the person's data");
});

test("a reply to a mailbox that does not exist shows as not delivered", async ({ page, openStudio }) => {
  const name = unique("Ravi");
  await requestQuote(page, name, `${name.split(" ")[1]}@example.com`);
  await openStudio(page);
  await page.getByRole("searchbox", { name: "Search" }).fill(name);
  await page.getByRole("button", { name: "Show" }).click();
  await page.getByRole("article").getByRole("link", { name: new RegExp(name) }).click();

  const reply = page.getByRole("form", { name: "Reply" });
  await reply.getByRole("textbox", { name: "To" }).fill("nobody@bounce.invalid");
  await reply.getByRole("textbox", { name: "Message" }).fill("Dear Ravi,\nthe quote follows.");
  await reply.getByRole("button", { name: "Send reply" }).click();
  await expect(page.getByRole("status")).toContainText("Your reply is on its way");
  await expect(async () => {
    await page.reload();
    await expect(page.getByText(/not delivered.*no such mailbox/)).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 60_000 });
  // The enquiry is as it was: the customer's own address, untouched.
  await expect(page.getByText(`${name.split(" ")[1]}@example.com`).first()).toBeVisible();
});

// What was typed stays when a template goes in: with the page's script at
// the cursor, without it after the message (the server puts it there).
for (const javaScriptEnabled of [true, false]) {
  test.describe(javaScriptEnabled ? "with JavaScript" : "without JavaScript", () => {
    test.use({ javaScriptEnabled });
    test("a template goes into the reply without losing what was typed", async ({ page, openStudio }) => {
      const name = unique("Kavya");
      await requestQuote(page, name, `${name.split(" ")[1]}@example.com`);
      const copy = await lastMailTo("studio@jharokha.test", new RegExp(name));
      await openStudio(page);
      await page.goto(new URL(linkIn(copy, mailedServer + "/studio/enquiries/")).pathname);

      const reply = page.getByRole("form", { name: "Reply" });
      const subject = reply.getByRole("textbox", { name: "Subject" });
      const message = reply.getByRole("textbox", { name: "Message" });
      await subject.fill("Your living room");
      await message.fill("Dear Kavya,\n\nThe first part.\n\nWarm regards");
      const chosen = replies.templates.find((t) => t.body.startsWith("Dear {{name}},"))!;
      // With the script, the template goes where the cursor is: after "The first part.".
      if (javaScriptEnabled) {
        await message.evaluate((area: HTMLTextAreaElement) => {
          const at = area.value.indexOf("part.") + "part.".length;
          area.setSelectionRange(at, at);
        });
      }
      await reply.getByRole("combobox", { name: "Template" }).selectOption({ label: chosen.name });
      await reply.getByRole("button", { name: "Use this template" }).click();

      const typedFirst = javaScriptEnabled ? "Dear Kavya,\n\nThe first part.\n\n" : "Dear Kavya,\n\nThe first part.\n\nWarm regards\n\n";
      await expect(message).toHaveValue(new RegExp(`^${escapeRegExp(typedFirst)}`));
      if (javaScriptEnabled) await expect(message).toHaveValue(/\n\nWarm regards$/);
      else await expect(reply.getByRole("status")).toContainText("is in the message, after what you had written");
      await expect(message).toHaveValue(new RegExp(`${escapeRegExp(typedFirst)}Dear ${name},`));
      await expect(subject).toHaveValue("Your living room");
      if (javaScriptEnabled) await expectNoAxeViolations(page); // axe is a script
    });
  });
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

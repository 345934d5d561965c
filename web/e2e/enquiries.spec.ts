import type { Page } from "@playwright/test";
import { test, expect, holdScripts, hydrated, recordAnalytics, trackedEvents, unique } from "./fixtures";
import { products, site } from "./content";
import { whatsappNumber } from "../app/lib/facts";
import { readFileSync } from "node:fs";

const product = products.find((p) => p.id === 1)!;

// The enquiry rules the form and the server share.
const rules = JSON.parse(readFileSync(new URL("../../contracts/enquiry-rules.json", import.meta.url), "utf8"));

// Each test is a visitor of its own (the server limits enquiries per
// visitor), on a page whose clock the test holds (a robot's pace, below).
// A form sent at a person's pace is given an earlier start time (personsPace).
test.beforeEach(async ({ page }) => {
  const ip = `198.18.${Math.floor(Math.random() * 250) + 1}.${Math.floor(Math.random() * 250) + 1}`;
  await page.setExtraHTTPHeaders({ "X-Forwarded-For": ip });
  await recordAnalytics(page);
  await page.clock.install();
  // The messaging app is another site: answer for it, so nothing leaves the machine.
  await page.context().route("https://wa.me/**", (route) => route.fulfill({ status: 200, contentType: "text/html", body: "<title>chat</title>" }));
});

// The browser reports a failed request on the console; where a test makes
// the API fail on purpose, that one report is expected and only that one.
function expectFailedRequests(problems: string[], path: string) {
  const expected = (p: string) => p.includes("Failed to load resource") && p.includes(path);
  expect(problems.filter(expected).length).toBeGreaterThan(0);
  const rest = problems.filter((p) => !expected(p));
  problems.splice(0, problems.length, ...rest);
}

async function open(page: Page, path: string) {
  await page.goto(path);
  await hydrated(page);
}

// The enquiry in the studio's inbox, opened in the same browser.
async function expectInInbox(page: Page, openStudio: (page: Page) => Promise<void>, text: string) {
  await openStudio(page);
  await expect(page.getByRole("article").filter({ hasText: text })).toBeVisible();
  return page.getByRole("article").filter({ hasText: text });
}

test.describe("contact form", () => {
  test("missing fields: messages beside them, validation_error, nothing sent", async ({ page }) => {
    await open(page, "/contact-us");
    let posted = false;
    page.on("request", (r) => {
      if (r.url().includes("/api/enquiries")) posted = true;
    });
    await page.getByRole("button", { name: "Send Message" }).click();

    for (const [name, message] of [
      ["Your Name", "Please tell us your name."],
      ["Your Email", "Please give your e-mail address."],
      ["Message", "Please write a message."],
    ]) {
      const field = page.getByRole("textbox", { name: name! });
      await expect(field).toHaveAttribute("aria-invalid", "true");
      await expect(field).toHaveAccessibleDescription(message!);
    }
    await expect(page.getByRole("textbox", { name: "Your Name" })).toBeFocused();
    const errors = await trackedEvents(page, "validation_error");
    expect(errors).toHaveLength(1);
    expect(errors[0]!.params).toMatchObject({ form_name: "contact", error_message: "Missing required fields" });
    expect(posted).toBe(false);

    // A wrong address is named as wrong, not missing.
    await page.getByRole("textbox", { name: "Your Email" }).fill("asha.example.com");
    await expect(page.getByRole("textbox", { name: "Your Email" })).not.toHaveAttribute("aria-invalid");
    await page.getByRole("button", { name: "Send Message" }).click();
    await expect(page.getByRole("textbox", { name: "Your Email" })).toHaveAccessibleDescription(/check your e-mail address/);
  });

  test("a message is sent, the form resets, a thank-you shows, and the studio's inbox has it", async ({ page, personsPace, openStudio }) => {
    await personsPace(page);
    await open(page, "/contact-us");
    const message = unique("I would like a low chair for a reading corner.");
    await page.getByRole("textbox", { name: "Your Name" }).fill("Asha Rao");
    expect(await trackedEvents(page, "form_start")).toHaveLength(1);
    await page.getByRole("textbox", { name: "Your Email" }).fill("asha@example.com");
    await page.getByRole("textbox", { name: "Message" }).fill(message);

    const [request] = await Promise.all([
      page.waitForRequest((r) => r.url().endsWith("/api/enquiries") && r.method() === "POST"),
      page.getByRole("button", { name: "Send Message" }).click(),
    ]);
    expect(request.postDataJSON()).toMatchObject({ kind: "contact", name: "Asha Rao", email: "asha@example.com", message, website: "" });
    expect((await request.response())?.status()).toBe(201);

    await expect(page.getByRole("form", { name: "Contact form" }).getByRole("status")).toContainText(
      "Thank you. Your message has reached the studio",
    );
    for (const name of ["Your Name", "Your Email", "Message"]) {
      await expect(page.getByRole("textbox", { name })).toHaveValue("");
    }
    expect(await trackedEvents(page, "form_submit")).toEqual([{ name: "form_submit", params: { form_name: "contact" } }]);
    // The started flag cleared: the next edit starts a new form.
    await page.getByRole("textbox", { name: "Your Name" }).fill("A");
    expect(await trackedEvents(page, "form_start")).toHaveLength(2);

    const stored = await expectInInbox(page, openStudio, message);
    await expect(stored).toContainText("asha@example.com");
  });

  test("what was typed before the scripts ran is what is sent", async ({ page, personsPace, openStudio }) => {
    await personsPace(page);
    const release = await holdScripts(page);
    await page.goto("/contact-us", { waitUntil: "commit" });
    const message = unique("Typed on a slow phone, before the page was ready.");
    await page.getByRole("textbox", { name: "Your Name" }).fill("Kavya Mehta");
    await page.getByRole("textbox", { name: "Your Email" }).fill("kavya@example.com");
    await page.getByRole("textbox", { name: "Message" }).fill(message);
    release();
    await hydrated(page);
    expect(await trackedEvents(page, "form_start")).toHaveLength(1);

    const [request] = await Promise.all([
      page.waitForRequest((r) => r.url().endsWith("/api/enquiries") && r.method() === "POST"),
      page.getByRole("button", { name: "Send Message" }).click(),
    ]);
    expect(request.postDataJSON()).toMatchObject({ kind: "contact", name: "Kavya Mehta", email: "kavya@example.com", message });
    expect((await request.response())?.status()).toBe(201);
    await expect(await expectInInbox(page, openStudio, message)).toContainText("kavya@example.com");
  });

  test("a form sent faster than a person types is thanked but kept out of the inbox's default view", async ({ page, openStudio }) => {
    // The page's clock stands still from before the page loads: the form is
    // filled in no time at all, however busy the machine running the test.
    await page.clock.pauseAt(Date.now() + 1000);
    await open(page, "/contact-us");
    const message = unique("Cheap watches");
    await page.getByRole("textbox", { name: "Your Name" }).fill("Bot");
    await page.getByRole("textbox", { name: "Your Email" }).fill("bot@example.com");
    await page.getByRole("textbox", { name: "Message" }).fill(message);
    await page.getByRole("button", { name: "Send Message" }).click(); // no time taken
    await expect(page.getByRole("form", { name: "Contact form" }).getByRole("status")).toContainText("Thank you");

    await openStudio(page);
    await expect(page.getByRole("article").filter({ hasText: message })).toHaveCount(0);
    await page.getByLabel("Status").selectOption({ label: "Spam" });
    await page.getByRole("button", { name: "Show" }).click();
    await expect(page.getByRole("article").filter({ hasText: message })).toBeVisible();
  });

  for (const failure of ["server error", "network failure"] as const) {
    test(`on a ${failure} what was typed stays and phone and e-mail are offered`, async ({ page, problems }) => {
      await page.route("**/api/enquiries", (route) =>
        failure === "server error"
          ? route.fulfill({ status: 500, contentType: "application/json", body: '{"error":"boom"}' })
          : route.abort("connectionrefused"),
      );
      await open(page, "/contact-us");
      await page.getByRole("textbox", { name: "Your Name" }).fill("Asha Rao");
      await page.getByRole("textbox", { name: "Your Email" }).fill("asha@example.com");
      await page.getByRole("textbox", { name: "Message" }).fill("Please call me back.");
      await page.getByRole("button", { name: "Send Message" }).click();

      const alert = page.getByRole("alert");
      await expect(alert).toContainText("nothing was sent");
      await expect(alert.getByRole("link", { name: site.phones[0]!.display })).toHaveAttribute("href", `tel:${site.phones[0]!.tel}`);
      await expect(alert.getByRole("link", { name: site.email })).toHaveAttribute("href", `mailto:${site.email}`);
      await expect(page.getByRole("textbox", { name: "Message" })).toHaveValue("Please call me back.");
      await expect(page.getByRole("textbox", { name: "Your Name" })).toHaveValue("Asha Rao");
      await expect(page.getByText("Thank you")).toHaveCount(0);
      expect(await trackedEvents(page, "submission_error")).toHaveLength(1);
      expect(await trackedEvents(page, "form_submit")).toHaveLength(0);
      expectFailedRequests(problems, "/api/enquiries");
    });
  }

  test("the server's field messages show beside the fields", async ({ page, problems }) => {
    await page.route("**/api/enquiries", (route) =>
      route.fulfill({ status: 422, contentType: "application/json", body: JSON.stringify({ error: "Some fields need another look.", fields: { name: "Please keep your name under 121 characters." } }) }),
    );
    await open(page, "/contact-us");
    await page.getByRole("textbox", { name: "Your Name" }).fill("Asha");
    await page.getByRole("textbox", { name: "Your Email" }).fill("asha@example.com");
    await page.getByRole("textbox", { name: "Message" }).fill("Hello");
    await page.getByRole("button", { name: "Send Message" }).click();
    await expect(page.getByRole("textbox", { name: "Your Name" })).toHaveAccessibleDescription("Please keep your name under 121 characters.");
    expect(await trackedEvents(page, "form_error")).toHaveLength(1);
    expectFailedRequests(problems, "/api/enquiries");
  });
});

test.describe("quote dialog", () => {
  test("its code is not in the page's first load; it is fetched once, after the page has loaded", async ({ page }) => {
    // Each request for the dialog's code, and whether the page had loaded by then.
    const dialogCode: boolean[] = [];
    let loaded = false;
    page.on("load", () => (loaded = true));
    page.on("request", (r) => {
      if (r.resourceType() === "script" && r.url().includes("/QuoteDialog-")) dialogCode.push(loaded);
    });
    await open(page, `/product/${product.id}`);
    await page.waitForLoadState("networkidle");
    // Asked for once the page had loaded: the browser was idle, the visitor had pressed nothing.
    expect(dialogCode).toEqual([true]);
    await page.getByRole("button", { name: "Get Quote" }).click();
    await expect(page.getByRole("dialog")).toBeVisible();
    expect(dialogCode, "fetched again on the press").toEqual([true]);
  });

  test("the Bespoke page's 'Let's begin' starts a customisation with no product", async ({ page, personsPace, openStudio }) => {
    await personsPace(page);
    await open(page, "/bespoke");
    const trigger = page.getByRole("button", { name: "Let's begin" });
    await trigger.click();
    const dialog = page.getByRole("dialog", { name: "Begin a bespoke piece" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("combobox", { name: "Material" })).toHaveCount(0);

    const note = unique("A dining table for ten, in sheesham.");
    await dialog.getByRole("textbox", { name: "Your Name" }).fill("Meera Joshi");
    await dialog.getByRole("textbox", { name: "Your Email" }).fill("meera@example.com");
    await dialog.getByRole("textbox", { name: /^Message/ }).fill(note);
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.url().endsWith("/api/enquiries")),
      dialog.getByRole("button", { name: /Send|Request/ }).click(),
    ]);
    const sent = request.postDataJSON();
    expect(sent).toMatchObject({ kind: "customize", name: "Meera Joshi", email: "meera@example.com", message: note });
    expect(sent).not.toHaveProperty("productId");
    await expect(dialog.getByRole("status")).toContainText("Your request has reached the studio");
    await dialog.getByRole("button", { name: "Done" }).click();
    await expect(trigger).toBeFocused();
    await expect(await expectInInbox(page, openStudio, note)).toContainText("Customisation · Meera Joshi");
  });

  // On a phone the dialog fills the screen: the thanks must be in it there too.
  test("Get Quote opens it prefilled, posts a quote, and focus returns to the button", { tag: "@both" }, async ({ page, personsPace, openStudio }) => {
    await personsPace(page);
    await open(page, `/product/${product.id}`);
    const trigger = page.getByRole("button", { name: "Get Quote" });
    await trigger.click();
    const dialog = page.getByRole("dialog", { name: `Get a quote for ${product.name}` });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("combobox", { name: "Material" })).toHaveValue(product.material[0]!);
    await expect(dialog.getByRole("combobox", { name: "Finish" })).toHaveValue(product.finish[0]!);
    expect((await trackedEvents(page, "quote_request"))[0]!.params).toMatchObject({ product_id: product.id, options: [product.material[0], product.finish[0]] });

    // Focus stays inside while it is open: no control of the page behind
    // it gets focus (between the last control and the first, the browser's
    // own toolbar may have it, which leaves the document's body active).
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press("Tab");
      const inside = await dialog.evaluate((d) => d.contains(document.activeElement) || document.activeElement === document.body);
      expect(inside).toBe(true);
    }
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);

    const note = unique("Two of them, for a veranda.");
    const finish = product.finish.at(-1)!;
    await dialog.getByRole("combobox", { name: "Finish" }).selectOption(finish);
    await dialog.getByRole("textbox", { name: "Your Name" }).fill("Ravi Mehta");
    await dialog.getByRole("textbox", { name: "Your Email" }).fill("ravi@example.com");
    await dialog.getByRole("textbox", { name: "Phone (optional)" }).fill("+91 98290 00000");
    await dialog.getByRole("textbox", { name: /^Message/ }).fill(note);
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.url().endsWith("/api/enquiries")),
      dialog.getByRole("button", { name: "Request a quote" }).click(),
    ]);
    expect(request.postDataJSON()).toMatchObject({
      kind: "quote",
      productId: product.id,
      material: product.material[0],
      finish,
      name: "Ravi Mehta",
      email: "ravi@example.com",
      phone: "+91 98290 00000",
      message: note,
    });
    // The form, and the button that had the focus, gave way to the thanks:
    // the focus is on the thanks, inside the dialog, which stays open.
    const thanks = dialog.getByRole("status");
    await expect(thanks).toContainText("Your request has reached the studio");
    await expect(thanks).toBeFocused();
    await expect(dialog).toBeVisible();
    await expect(thanks).toBeInViewport({ ratio: 1 });
    expect(await trackedEvents(page, "form_submit")).toHaveLength(1);
    await dialog.getByRole("button", { name: "Done" }).click();
    await expect(dialog).toBeHidden();
    await expect(trigger).toBeFocused();

    const stored = await expectInInbox(page, openStudio, note);
    await expect(stored).toContainText(product.name);
    await expect(stored).toContainText(finish);
  });

  test("Customize posts a customisation; Escape closes it and focus returns", async ({ page, personsPace }) => {
    await personsPace(page);
    await open(page, `/product/${product.id}`);
    const trigger = page.getByRole("button", { name: "Customize" });
    await trigger.click();
    const dialog = page.getByRole("dialog", { name: `Customize ${product.name}` });
    await expect(dialog).toBeVisible();
    expect((await trackedEvents(page, "quote_request"))[0]!.params).toMatchObject({ options: "Custom Request" });
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(trigger).toBeFocused();

    await trigger.click();
    await dialog.getByRole("textbox", { name: "Your Name" }).fill("Ravi");
    await dialog.getByRole("textbox", { name: "Your Email" }).fill("ravi@example.com");
    const [request] = await Promise.all([
      page.waitForRequest((r) => r.url().endsWith("/api/enquiries")),
      dialog.getByRole("button", { name: "Send request" }).click(),
    ]);
    expect(request.postDataJSON()).toMatchObject({ kind: "customize", productId: product.id });
    expect((await request.response())?.status()).toBe(201);
    await expect(dialog.getByRole("status")).toBeVisible();
  });

  test("it offers the messaging app with a text naming the product", async ({ page }) => {
    await open(page, `/product/${product.id}`);
    await page.getByRole("button", { name: "Get Quote" }).click();
    const link = page.getByRole("dialog").getByRole("link", { name: /WhatsApp/ });
    const href = new URL((await link.getAttribute("href"))!);
    expect(href.origin + href.pathname).toBe(`https://wa.me/${whatsappNumber(site)}`);
    expect(href.searchParams.get("text")).toContain(product.name);
    await expect(link).toHaveAttribute("target", "_blank");
    const [popup] = await Promise.all([page.waitForEvent("popup"), link.click()]);
    await popup.close();
    expect((await trackedEvents(page, "contact_attempt"))[0]!.params).toMatchObject({ method: "whatsapp" });
  });

  test("missing fields and a server failure are shown inside it", async ({ page, problems }) => {
    await page.route("**/api/enquiries", (route) => route.fulfill({ status: 503, contentType: "application/json", body: "{}" }));
    await open(page, `/product/${product.id}`);
    await page.getByRole("button", { name: "Get Quote" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Request a quote" }).click();
    await expect(dialog.getByRole("textbox", { name: "Your Name" })).toHaveAttribute("aria-invalid", "true");
    expect((await trackedEvents(page, "validation_error"))[0]!.params).toMatchObject({ error_message: "Missing required fields" });

    await dialog.getByRole("textbox", { name: "Your Name" }).fill("Ravi");
    await dialog.getByRole("textbox", { name: "Your Email" }).fill("ravi@example.com");
    await dialog.getByRole("button", { name: "Request a quote" }).click();
    await expect(dialog.getByRole("alert")).toContainText("nothing was sent");
    await expect(dialog.getByRole("alert").getByRole("link", { name: site.email })).toBeVisible();
    await expect(dialog.getByRole("textbox", { name: "Your Name" })).toHaveValue("Ravi");
    expect(await trackedEvents(page, "submission_error")).toHaveLength(1);
    expectFailedRequests(problems, "/api/enquiries");
  });

  test("a phone number with letters is caught before sending, in the server's words", async ({ page }) => {
    let posted = 0;
    await page.route("**/api/enquiries", (route) => (posted++, route.continue()));
    await open(page, `/product/${product.id}`);
    await page.getByRole("button", { name: "Get Quote" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("textbox", { name: "Your Name" }).fill("Ravi");
    await dialog.getByRole("textbox", { name: "Your Email" }).fill("ravi@example.com");
    const phone = dialog.getByRole("textbox", { name: /Phone/ });
    await phone.fill("call me");
    await dialog.getByRole("button", { name: "Request a quote" }).click();
    await expect(phone).toHaveAttribute("aria-invalid", "true");
    await expect(phone).toHaveAccessibleDescription(rules.messages.phoneInvalid.replace("{limit}", String(rules.limits.phone)));
    await expect(phone).toBeFocused();
    expect(posted).toBe(0);
  });
});

test.describe("newsletter", () => {
  test("signs up without reloading, clears the input and confirms", async ({ page }) => {
    await open(page, "/about");
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    const footer = page.getByRole("contentinfo");
    const input = footer.getByRole("textbox", { name: "Your e-mail" });
    const email = `${unique("reader").replace(/\s/g, "-")}@example.com`;
    await input.fill(email);
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith("/api/newsletter")),
      footer.getByRole("button", { name: "Subscribe" }).click(),
    ]);
    expect(response.status()).toBe(201);
    await expect(footer.getByRole("status")).toHaveText("Thank you: you are on the list.");
    await expect(input).toHaveValue("");
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    expect(await trackedEvents(page, "newsletter_signup")).toEqual([{ name: "newsletter_signup", params: { location: "footer" } }]);

    // The same address again, in other letters: already on the list.
    await input.fill(email.toUpperCase());
    await footer.getByRole("button", { name: "Subscribe" }).click();
    await expect(footer.getByRole("status")).toHaveText("You were already on the list. Thank you.");
  });

  test("a failure says so and keeps the address", async ({ page, problems }) => {
    await page.route("**/api/newsletter", (route) => route.fulfill({ status: 500, contentType: "application/json", body: "{}" }));
    await open(page, "/about");
    const footer = page.getByRole("contentinfo");
    await footer.getByRole("textbox", { name: "Your e-mail" }).fill("reader@example.com");
    await footer.getByRole("button", { name: "Subscribe" }).click();
    await expect(footer.getByRole("status")).toContainText("could not add you");
    await expect(footer.getByRole("textbox", { name: "Your e-mail" })).toHaveValue("reader@example.com");
    expect(await trackedEvents(page, "newsletter_signup")).toHaveLength(0);
    expectFailedRequests(problems, "/api/newsletter");
  });
});

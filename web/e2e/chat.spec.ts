import { readFileSync } from "node:fs";
import type { Locator, Page } from "@playwright/test";
import { test, expect, hydrated, recordAnalytics, trackedEvents } from "./fixtures";
import { service, site } from "./content";
import { MAIN_MENU, buildScript } from "../app/lib/chat/compile";
import { HANDOVER_AFTER_CLICKS } from "../app/lib/chat/machine";
import { contentFacts, whatsappNumber } from "../app/lib/facts";

const script = buildScript(JSON.parse(readFileSync(new URL("../../content/chat.json", import.meta.url), "utf8")), contentFacts(site, service));

// The chat assistant in the browser, on the page's own clock: the clock is
// paused once the page has loaded, and each delay of the spec is run to the
// millisecond (greeting 500 ms, replies 1000 ms, follow-ups 1000 ms).

const topic = (id: string) => script.topics.find((t) => t.id === id)!.title;
const option = (id: string) => script.options[id]!;

async function openPage(page: Page, path = "/about") {
  await recordAnalytics(page);
  await page.clock.install({ time: new Date("2026-03-02T10:00:00+05:30") });
  await page.goto(path);
  await hydrated(page);
  await page.clock.pauseAt(new Date("2026-03-02T10:01:00+05:30"));
  const launcher = page.getByRole("button", { name: "Chat with us" });
  const chat = page.getByRole("dialog", { name: `Chat with ${site.name}` });
  const conversation = chat.getByRole("list", { name: "Conversation" });
  return { launcher, chat, conversation };
}

// Opens the chat and runs the clock to the greeting.
async function openAndGreet(page: Page) {
  const parts = await openPage(page);
  await parts.launcher.click();
  await expect(parts.chat.getByText("The assistant is typing")).toBeAttached();
  await page.clock.runFor(500);
  await expect(parts.conversation.getByText(script.messages.greeting)).toBeVisible();
  return parts;
}

test("the launcher is on every page, with a pulsing dot while the chat is closed and empty", { tag: "@both" }, async ({ page }) => {
  const { launcher, chat } = await openPage(page, "/products");
  await expect(launcher).toBeVisible();
  await expect(launcher).toHaveAttribute("aria-expanded", "false");
  const dot = launcher.locator(".chat-launcher__dot");
  await expect(dot).toBeVisible();
  await launcher.click();
  await expect(chat).toBeVisible();
  await expect(dot).toBeHidden();
  await page.clock.runFor(500);
  await page.keyboard.press("Escape");
  await expect(chat).toBeHidden();
  await expect(dot).toBeHidden(); // closed, but no longer empty
});

// What moves on its own stops within five seconds (WCAG 2.2.2), and runs
// once: each repeat of a CSS animation costs the main thread a task.
test("the launcher's dot pulses a few times, then stops within five seconds", async ({ page }) => {
  await page.goto("/products");
  await hydrated(page);
  const pulses = await page.evaluate(() =>
    document
      .getAnimations()
      .filter((a) => a.effect instanceof KeyframeEffect && a.effect.target?.closest(".chat-launcher") && a.effect.pseudoElement === "::after")
      .map((a) => a.effect!.getComputedTiming()),
  );
  expect(pulses.length, "the dot's pulse is running").toBeGreaterThan(0);
  for (const timing of pulses) {
    expect(timing.iterations).toBe(1);
    expect(Number(timing.endTime)).toBeLessThanOrEqual(5000);
  }
});

test("the panel's code is not part of the first load", async ({ request }) => {
  const html = await (await request.get("/")).text();
  expect(html).toContain('aria-label="Chat with us"');
  expect(html).not.toMatch(/ChatPanel|OfferDialog/);
});

test("opening greets after 500 ms with the topics; focus moves in and back; Escape closes", async ({ page }) => {
  const { launcher, chat, conversation } = await openPage(page);
  await launcher.click();
  await expect(chat).toBeVisible();
  await expect(chat).toBeFocused();
  await expect(launcher).toHaveAttribute("aria-expanded", "true");

  await expect(chat.getByText("The assistant is typing")).toBeAttached();
  await page.clock.runFor(499);
  await expect(conversation.getByText(script.messages.greeting)).toHaveCount(0);
  await page.clock.runFor(1);
  await expect(conversation.getByText(script.messages.greeting)).toBeVisible();
  for (const t of script.topics.filter((t) => t.id !== MAIN_MENU)) await expect(conversation.getByRole("button", { name: t.title })).toBeVisible();
  // The greeting is announced through the polite live region.
  await expect(chat.getByRole("status")).toHaveText(script.messages.greeting);

  await conversation.getByRole("button", { name: topic("order-delivery") }).focus();
  await page.keyboard.press("Escape");
  await expect(chat).toBeHidden();
  await expect(launcher).toBeFocused();

  // Reopening keeps the conversation and does not greet again.
  await launcher.press("Enter");
  await expect(chat).toBeFocused();
  await page.clock.runFor(2000);
  await expect(conversation.getByText(script.messages.greeting)).toHaveCount(1);
  await chat.getByRole("button", { name: "Close chat" }).click();
  await expect(chat).toBeHidden();
  await expect(launcher).toBeFocused();

  expect((await trackedEvents(page, "chatbot_interaction")).map((e) => e.params.action)).toEqual(["open", "close", "open", "close"]);
});

test("a topic, a question and its follow-up, each after its delay", async ({ page }) => {
  const { chat, conversation } = await openAndGreet(page);

  await conversation.getByRole("button", { name: topic("order-delivery") }).click();
  await expect(conversation.locator(".chat-message--user").last()).toHaveText(`You: ${topic("order-delivery")}`);
  await page.clock.runFor(999);
  await expect(conversation.getByRole("button", { name: option("track-order").question })).toHaveCount(0);
  await page.clock.runFor(1);
  for (const id of script.topics.find((t) => t.id === "order-delivery")!.options) {
    await expect(conversation.getByRole("button", { name: option(id).question })).toBeVisible();
  }
  await expect(conversation.getByRole("button", { name: topic(MAIN_MENU) })).toBeVisible();

  await conversation.getByRole("button", { name: option("assembly-delivery").question }).click();
  await expect(conversation.locator(".chat-message--user").last()).toHaveText(`You: ${option("assembly-delivery").question}`);
  await page.clock.runFor(999);
  await expect(conversation.getByText(option("assembly-delivery").answer)).toHaveCount(0);
  await page.clock.runFor(1);
  await expect(conversation.getByText(option("assembly-delivery").answer)).toBeVisible();
  await expect(chat.getByRole("status")).toHaveText(option("assembly-delivery").answer);

  await page.clock.runFor(999);
  await expect(conversation.getByText(script.messages.anythingElse)).toHaveCount(0);
  await page.clock.runFor(1);
  await expect(conversation.getByText(script.messages.anythingElse)).toBeVisible();
  const followUp = conversation.locator(".chat-message").last();
  const offered = option("assembly-delivery").followUp.map((id) => (id === MAIN_MENU ? topic(MAIN_MENU) : option(id).question));
  await expect(followUp.getByRole("button")).toHaveText(offered);

  // A follow-up option is answered like any question.
  const next = option("assembly-delivery").followUp.find((id) => id !== MAIN_MENU)!;
  await followUp.getByRole("button", { name: option(next).question }).click();
  await page.clock.runFor(1000);
  await expect(conversation.getByText(option(next).answer)).toBeVisible();

  const events = await trackedEvents(page, "chatbot_interaction");
  expect(events.filter((e) => e.params.action === "question").map((e) => e.params.option_id)).toEqual(["assembly-delivery", next]);
});

test("answers give the studio's facts from the site's content", async ({ page }) => {
  const { conversation } = await openAndGreet(page);
  await conversation.getByRole("button", { name: topic("contact-support") }).click();
  await page.clock.runFor(1000);
  await conversation.getByRole("button", { name: option("email-us").question }).click();
  await page.clock.runFor(1000);
  const answer = conversation.getByText(option("email-us").answer);
  await expect(answer).toBeVisible();
  await expect(answer).toContainText(site.email);
  await expect(answer).toContainText(`${service.emailReplyHours} hours`);
});

// The first question the latest turn offers: only its choices can be taken.
const liveQuestion = (conversation: Locator) =>
  conversation.locator(".chat-message").filter({ has: conversation.page().locator(".chat-choice") }).last().locator(".chat-choice--question").first();
const optionAsking = (question: string) => Object.values(script.options).find((o) => o.question === question)!;

test(`the question after ${HANDOVER_AFTER_CLICKS} gets the handover and a button to continue on the messaging app`, async ({ page, context }) => {
  await context.route(/wa\.me/, (route) => route.fulfill({ body: "ok" }));
  const { conversation } = await openAndGreet(page);
  await conversation.getByRole("button", { name: topic("contact-support") }).click();
  await page.clock.runFor(1000);
  const asked: string[] = [];
  for (let i = 0; i < HANDOVER_AFTER_CLICKS; i++) {
    const question = liveQuestion(conversation);
    asked.push((await question.textContent())!);
    await question.click();
    await page.clock.runFor(1000);
    await expect(conversation.getByText(optionAsking(asked.at(-1)!).answer).last()).toBeVisible();
    await page.clock.runFor(1000);
  }
  // One more: the handover instead of its answer.
  const fifth = optionAsking((await liveQuestion(conversation).textContent())!);
  await liveQuestion(conversation).click();
  await page.clock.runFor(999);
  await expect(conversation.getByText(script.messages.handover)).toHaveCount(0);
  await page.clock.runFor(1);
  await expect(conversation.getByText(script.messages.handover)).toBeVisible();
  await expect(conversation.getByText(fifth.answer)).toHaveCount(asked.includes(fifth.question) ? 1 : 0); // from an earlier time only
  await page.clock.runFor(5000);
  await expect(conversation.getByText(script.messages.anythingElse)).toHaveCount(asked.length);

  const whatsapp = conversation.getByRole("link", { name: `${script.messages.whatsappButton} (opens in a new tab)` }).last(); // the handover's
  const href = new URL((await whatsapp.getAttribute("href"))!);
  expect(href.origin + href.pathname).toBe(`https://wa.me/${whatsappNumber(site)}`);
  expect(href.searchParams.get("text")).toBe(script.messages.whatsappText);
  await expect(whatsapp).toHaveAttribute("target", "_blank");
  const popup = page.waitForEvent("popup");
  await whatsapp.click();
  await (await popup).close();
  expect((await trackedEvents(page, "contact_attempt")).map((e) => e.params)).toEqual([{ method: "whatsapp", location: "chatbot" }]);
});

test("Reset clears the messages and the click counter and greets again", async ({ page }) => {
  const { chat, conversation } = await openAndGreet(page);
  await conversation.getByRole("button", { name: topic("contact-support") }).click();
  await page.clock.runFor(1000);
  for (let i = 0; i <= HANDOVER_AFTER_CLICKS; i++) {
    await liveQuestion(conversation).click();
    await page.clock.runFor(2000);
  }
  await expect(conversation.getByText(script.messages.handover)).toBeVisible();

  // A reply still owed when Reset is pressed never arrives.
  await conversation.getByRole("button", { name: topic(MAIN_MENU) }).last().focus();
  await chat.getByRole("button", { name: "Reset" }).click();
  await expect(conversation.getByRole("listitem")).toHaveCount(1); // the typing indicator only
  await expect(chat).toBeFocused();
  await page.clock.runFor(499);
  await expect(conversation.getByText(script.messages.greeting)).toHaveCount(0);
  await page.clock.runFor(1);
  await expect(conversation.getByText(script.messages.greeting)).toBeVisible();

  // The counter starts again: the next question is answered.
  await conversation.getByRole("button", { name: topic("contact-support") }).click();
  await page.clock.runFor(1000);
  await conversation.getByRole("button", { name: option("email-us").question }).click();
  await page.clock.runFor(1000);
  await expect(conversation.getByText(option("email-us").answer)).toBeVisible();
  expect((await trackedEvents(page, "chatbot_interaction")).filter((e) => e.params.action === "reset")).toHaveLength(1);
});

test("'Go Back to Main Menu' clears everything and restarts", async ({ page }) => {
  const { chat, conversation } = await openAndGreet(page);
  await conversation.getByRole("button", { name: topic("bespoke-solutions") }).click();
  await page.clock.runFor(1000);
  await conversation.getByRole("button", { name: option("custom-furniture").question }).click();
  await page.clock.runFor(2000);
  await conversation.getByRole("button", { name: topic(MAIN_MENU) }).last().click();
  await expect(conversation.getByText(option("custom-furniture").answer)).toHaveCount(0);
  await expect(chat).toBeFocused();
  await page.clock.runFor(500);
  await expect(conversation.locator(".chat-message")).toHaveCount(1);
  await expect(conversation.getByText(script.messages.greeting)).toBeVisible();
});

test("no message arrives while the chat is closed", async ({ page }) => {
  const { launcher, chat, conversation } = await openAndGreet(page);
  await conversation.getByRole("button", { name: topic("order-delivery") }).click();
  await page.clock.runFor(1000);
  await conversation.getByRole("button", { name: option("payment-methods").question }).click();
  await chat.getByRole("button", { name: "Close chat" }).click();
  await page.clock.runFor(5000);
  await launcher.click();
  await expect(conversation.getByText(option("payment-methods").answer)).toHaveCount(0);
  await page.clock.runFor(1000);
  await expect(conversation.getByText(option("payment-methods").answer)).toBeVisible();
});

test("rapid clicks: one question at a time, each answered, and earlier choices disabled", async ({ page }) => {
  const { conversation } = await openAndGreet(page);
  const topicButton = conversation.getByRole("button", { name: topic("order-delivery") });
  await topicButton.click();
  await page.clock.runFor(1000);
  const ids = script.topics.find((t) => t.id === "order-delivery")!.options;
  const [first, second] = [option(ids[0]!), option(ids[1]!)];
  // The same question three times, then another, all while the bot types.
  const firstButton = conversation.getByRole("button", { name: first.question }).last();
  await firstButton.click();
  // Disabled now (the bot is typing), but a visitor can still click them.
  await firstButton.click({ force: true });
  await firstButton.click({ force: true });
  await conversation.getByRole("button", { name: second.question }).last().click({ force: true });
  await page.clock.runFor(1000);
  await expect(conversation.getByText(first.answer)).toHaveCount(1);
  await expect(conversation.locator(".chat-message--user", { hasText: first.question })).toHaveCount(1);
  await expect(conversation.locator(".chat-message--user", { hasText: second.question })).toHaveCount(0);
  // The greeting's topics are an earlier turn now.
  await expect(topicButton).toHaveAttribute("aria-disabled", "true");
  await topicButton.click({ force: true });
  await page.clock.runFor(2000);
  await expect(conversation.locator(".chat-message--user", { hasText: topic("order-delivery") })).toHaveCount(1);
  // The follow-up's choices are the live ones, and answered.
  const followUp = conversation.locator(".chat-message").last();
  const next = first.followUp.find((id) => id !== MAIN_MENU)!;
  await expect(followUp.getByRole("button", { name: option(next).question })).toHaveAttribute("aria-disabled", "false");
  await followUp.getByRole("button", { name: option(next).question }).click();
  await page.clock.runFor(1000);
  await expect(conversation.getByText(option(next).answer)).toBeVisible();
});

// The callback answer names the studio's numbers and its contact form: each
// number is a tel: link with the number as dialled, and "contact form" opens
// the contact page at its form (lib/chat/links.ts). What the answer says is
// the studio's (content/chat.json), so the links expected are read from it.
test("the callback answer's numbers are tel: links and its contact form opens the form", { tag: "@both" }, async ({ page }) => {
  // The contact page's map is another site's: not fetched here.
  await page.route((url) => url.href.startsWith(new URL(site.map.embedUrl).origin), (route) => route.fulfill({ contentType: "text/html", body: "<title>map</title>" }));
  const { chat, conversation } = await openAndGreet(page);
  const callback = option("request-callback");
  const inTopic = script.topics.find((t) => t.options.includes(callback.id))!;
  await conversation.getByRole("button", { name: inTopic.title }).click();
  await page.clock.runFor(1000);
  await conversation.getByRole("button", { name: callback.question }).click();
  await page.clock.runFor(1000);
  const answer = conversation.locator(".chat-message--bot").filter({ hasText: callback.answer.slice(0, 30) }).last();
  await expect(answer).toBeVisible();

  const named = site.phones.filter((p) => callback.answer.includes(p.display));
  expect(named.length, "the callback answer names the studio's numbers").toBeGreaterThan(0);
  for (const phone of named) {
    await expect(answer.getByRole("link", { name: phone.display })).toHaveAttribute("href", `tel:${phone.tel.replace(/[^\d+]/g, "")}`);
  }
  // Following one is a contact attempt, from the chat (the call itself is not made here).
  const first = answer.getByRole("link", { name: named[0]!.display });
  await first.evaluate((a) => a.addEventListener("click", (event) => event.preventDefault()));
  await first.click();
  expect((await trackedEvents(page, "contact_attempt")).map((e) => e.params)).toEqual([{ method: "phone", location: "chatbot" }]);

  const words = /contact form/i.exec(callback.answer)?.[0];
  expect(words, "the callback answer points to the contact form").toBeTruthy();
  await answer.getByRole("link", { name: words! }).click();
  await expect(page).toHaveURL(/\/contact-us#contact-form-heading$/);
  await expect(page.getByRole("heading", { name: "Send us a message" })).toBeInViewport();
  await expect(chat).toBeVisible(); // the conversation stays beside the form
});

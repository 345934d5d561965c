import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { ChatSession } from "./session";
import {
  FOLLOW_UP_DELAY_MS,
  GREETING_DELAY_MS,
  HANDOVER_AFTER_CLICKS,
  TYPING_DELAY_MS,
  isTyping,
  type ChatMessage,
  type Choice,
} from "./machine";
import raw from "../../../../content/chat.json";
import service from "../../../../content/service.json";
import site from "../../../../content/site.json";
import { contentFacts } from "../facts";
import { MAIN_MENU, buildScript } from "./compile";

// The script as routes/chat-script.ts prerenders it (/chat.json).
const script = buildScript(raw, contentFacts(site, service));

// The conversation on fake timers: every transition and delay of the
// script, and that timers stop on close and reset.

let chat: ChatSession;

beforeEach(() => {
  vi.useFakeTimers();
  chat = new ChatSession(script, () => Date.now());
});

afterEach(() => {
  chat.dispose();
  vi.useRealTimers();
});

const messages = () => chat.getState().messages;
const last = (): ChatMessage => {
  const m = messages().at(-1);
  if (!m) throw new Error("no messages");
  return m;
};
const choice = (label: string): Choice => {
  const c = last().choices.find((x) => x.label === label);
  if (!c) throw new Error(`no choice "${label}" in ${JSON.stringify(last().choices.map((x) => x.label))}`);
  return c;
};
const choose = (label: string) => chat.dispatch({ type: "choose", choice: choice(label) });
const topicTitle = (id: string) => script.topics.find((t) => t.id === id)!.title;
const question = (id: string) => script.options[id]!.question;
const mainMenu = topicTitle(MAIN_MENU);

// Opens the chat and waits for the greeting.
function greeted() {
  chat.dispatch({ type: "open" });
  vi.advanceTimersByTime(GREETING_DELAY_MS);
}

// Picks a topic and one of its questions and waits for the follow-up.
function askInFull(topicId: string, optionId: string) {
  choose(topicTitle(topicId));
  vi.advanceTimersByTime(TYPING_DELAY_MS);
  choose(question(optionId));
  vi.advanceTimersByTime(TYPING_DELAY_MS + FOLLOW_UP_DELAY_MS);
}

describe("greeting", () => {
  test("starts closed and empty, with no timer", () => {
    expect(chat.getState().open).toBe(false);
    expect(messages()).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });

  test("opening an empty chat greets after 500 ms with the topics", () => {
    chat.dispatch({ type: "open" });
    expect(isTyping(chat.getState())).toBe(true);
    vi.advanceTimersByTime(GREETING_DELAY_MS - 1);
    expect(messages()).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(messages()).toHaveLength(1);
    expect(last()).toMatchObject({ from: "bot", text: script.messages.greeting, showWhatsApp: false });
    expect(last().text).toBe("Hi there! How can we help you today? 👋 Please choose from the options below:");
    expect(last().choices.map((c) => c.label)).toEqual([
      topicTitle("products-services"),
      topicTitle("bespoke-solutions"),
      topicTitle("order-delivery"),
      topicTitle("contact-support"),
    ]);
    expect(isTyping(chat.getState())).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });

  test("reopening a chat that has messages does not greet again", () => {
    greeted();
    chat.dispatch({ type: "close" });
    chat.dispatch({ type: "open" });
    vi.advanceTimersByTime(10_000);
    expect(messages()).toHaveLength(1);
  });

  test("stamps each message with the time it arrived", () => {
    const start = Date.now();
    greeted();
    expect(last().at).toBe(start + GREETING_DELAY_MS);
  });
});

describe("topic", () => {
  test("adds the visitor's message, then after 1 s the topic's questions and the main menu", () => {
    greeted();
    choose(topicTitle("order-delivery"));
    expect(last()).toMatchObject({ from: "user", text: topicTitle("order-delivery"), choices: [] });
    expect(isTyping(chat.getState())).toBe(true);
    vi.advanceTimersByTime(TYPING_DELAY_MS - 1);
    expect(last().from).toBe("user");
    vi.advanceTimersByTime(1);
    expect(last()).toMatchObject({ from: "bot", text: script.messages.topicIntro });
    expect(last().choices.map((c) => c.label)).toEqual([
      question("track-order"),
      question("order-summary"),
      question("shipping-charges"),
      question("assembly-delivery"),
      question("payment-methods"),
      "Go Back to Main Menu",
    ]);
    expect(isTyping(chat.getState())).toBe(false);
  });
});

describe("question", () => {
  test("adds the visitor's message, the answer after 1 s, and 1 s later the follow-up options", () => {
    greeted();
    choose(topicTitle("contact-support"));
    vi.advanceTimersByTime(TYPING_DELAY_MS);
    choose(question("email-us"));
    expect(last()).toMatchObject({ from: "user", text: question("email-us") });
    expect(chat.getState().questionClicks).toBe(1);

    vi.advanceTimersByTime(TYPING_DELAY_MS - 1);
    expect(last().from).toBe("user");
    vi.advanceTimersByTime(1);
    expect(last()).toMatchObject({ from: "bot", text: script.options["email-us"]!.answer, choices: [] });
    expect(isTyping(chat.getState())).toBe(true);

    vi.advanceTimersByTime(FOLLOW_UP_DELAY_MS - 1);
    expect(last().text).toBe(script.options["email-us"]!.answer);
    vi.advanceTimersByTime(1);
    expect(last()).toMatchObject({ from: "bot", text: "Is there anything else I can help you with?" });
    expect(last().choices.map((c) => c.id)).toEqual(script.options["email-us"]!.followUp);
    expect(isTyping(chat.getState())).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });

  test("a follow-up option is a question like any other", () => {
    greeted();
    askInFull("contact-support", "email-us");
    const next = script.options["email-us"]!.followUp.find((id) => id !== MAIN_MENU)!;
    choose(question(next));
    vi.advanceTimersByTime(TYPING_DELAY_MS);
    expect(last().text).toBe(script.options[next]!.answer);
    expect(chat.getState().questionClicks).toBe(2);
  });

  test("an answer that hands over to the messaging app shows its button", () => {
    greeted();
    choose(topicTitle("contact-support"));
    vi.advanceTimersByTime(TYPING_DELAY_MS);
    choose(question("live-chat"));
    vi.advanceTimersByTime(TYPING_DELAY_MS);
    expect(last()).toMatchObject({ text: script.options["live-chat"]!.answer, showWhatsApp: true });
  });

  test("a choice while a reply is owed is not taken: the question asked gets its answer", () => {
    greeted();
    choose(topicTitle("order-delivery"));
    vi.advanceTimersByTime(TYPING_DELAY_MS / 2);
    chat.dispatch({ type: "choose", choice: { kind: "topic", id: "contact-support", label: topicTitle("contact-support") } });
    vi.advanceTimersByTime(TYPING_DELAY_MS / 2);
    expect(last().from).toBe("bot");
    expect(last().choices[0]!.label).toBe(question(script.topics.find((t) => t.id === "order-delivery")!.options[0]!));
    expect(messages().filter((m) => m.from === "user")).toHaveLength(1);
  });

  test("the same question clicked three times is asked once and answered once", () => {
    greeted();
    choose(topicTitle("order-delivery"));
    vi.advanceTimersByTime(TYPING_DELAY_MS);
    const id = script.topics.find((t) => t.id === "order-delivery")!.options[0]!;
    for (let i = 0; i < 3; i++) chat.dispatch({ type: "choose", choice: { kind: "question", id, label: question(id) } });
    vi.advanceTimersByTime(TYPING_DELAY_MS);
    expect(messages().filter((m) => m.text === question(id))).toHaveLength(1);
    expect(messages().filter((m) => m.text === script.options[id]!.answer)).toHaveLength(1);
  });
});

describe("handover", () => {
  test(`after ${HANDOVER_AFTER_CLICKS} answered questions, the next one gets the handover and the messaging-app button`, () => {
    greeted();
    const asked = ["track-order", "order-summary", "shipping-charges", "assembly-delivery"];
    choose(topicTitle("order-delivery"));
    vi.advanceTimersByTime(TYPING_DELAY_MS);
    for (const id of asked) {
      chat.dispatch({ type: "choose", choice: { kind: "question", id, label: question(id) } });
      vi.advanceTimersByTime(TYPING_DELAY_MS);
      expect(last().text).toBe(script.options[id]!.answer);
      vi.advanceTimersByTime(FOLLOW_UP_DELAY_MS);
    }
    choose(question("track-order")); // a follow-up option of the fourth answer
    expect(chat.getState().questionClicks).toBe(HANDOVER_AFTER_CLICKS + 1);
    vi.advanceTimersByTime(TYPING_DELAY_MS - 1);
    expect(last().from).toBe("user");
    vi.advanceTimersByTime(1);
    expect(last()).toMatchObject({ from: "bot", text: script.messages.handover, showWhatsApp: true });
    expect(last().text).toMatch(/reply to you shortly/);
    expect(last().text).toMatch(/'Main Menu' or 'Talk to Support'/);
    expect(last().choices.map((c) => c.kind)).toEqual(["main-menu"]);
    // No answer and no follow-up come after it.
    vi.advanceTimersByTime(10_000);
    expect(last().text).toBe(script.messages.handover);
    expect(messages().filter((m) => m.text === script.options["track-order"]!.answer)).toHaveLength(1);
  });
});

describe("reset and main menu", () => {
  function fiveQuestionsAsked() {
    greeted();
    choose(topicTitle("contact-support"));
    vi.advanceTimersByTime(TYPING_DELAY_MS);
    for (const id of ["request-callback", "live-chat", "warranty-claim", "damaged-missing", "email-us"]) {
      chat.dispatch({ type: "choose", choice: { kind: "question", id, label: question(id) } });
      vi.advanceTimersByTime(TYPING_DELAY_MS + FOLLOW_UP_DELAY_MS);
    }
    expect(last().text).toBe(script.messages.handover);
  }

  test("reset clears the messages and the click counter and greets again after 500 ms", () => {
    fiveQuestionsAsked();
    chat.dispatch({ type: "reset" });
    expect(messages()).toEqual([]);
    expect(chat.getState().questionClicks).toBe(0);
    vi.advanceTimersByTime(GREETING_DELAY_MS - 1);
    expect(messages()).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(last().text).toBe(script.messages.greeting);
    // Questions are answered again.
    askInFull("contact-support", "email-us");
    expect(messages().some((m) => m.text === script.options["email-us"]!.answer)).toBe(true);
  });

  test("'Go Back to Main Menu' clears everything and restarts", () => {
    fiveQuestionsAsked();
    choose(mainMenu);
    expect(messages()).toEqual([]);
    expect(chat.getState().questionClicks).toBe(0);
    vi.advanceTimersByTime(GREETING_DELAY_MS);
    expect(messages()).toHaveLength(1);
    expect(last().text).toBe(script.messages.greeting);
  });

  test("the topic list offers the main menu too", () => {
    greeted();
    choose(topicTitle("bespoke-solutions"));
    vi.advanceTimersByTime(TYPING_DELAY_MS);
    choose(mainMenu);
    expect(messages()).toEqual([]);
    vi.advanceTimersByTime(GREETING_DELAY_MS);
    expect(last().text).toBe(script.messages.greeting);
  });

  test("a reply owed before a reset never arrives", () => {
    greeted();
    askInFull("contact-support", "email-us");
    choose(question("request-callback"));
    vi.advanceTimersByTime(TYPING_DELAY_MS / 2);
    chat.dispatch({ type: "reset" });
    vi.advanceTimersByTime(10_000);
    expect(messages()).toHaveLength(1);
    expect(last().text).toBe(script.messages.greeting);
  });
});

describe("closing", () => {
  test("stops the timer, so no message arrives in a closed chat", () => {
    greeted();
    choose(topicTitle("contact-support"));
    vi.advanceTimersByTime(TYPING_DELAY_MS);
    choose(question("email-us"));
    chat.dispatch({ type: "close" });
    expect(vi.getTimerCount()).toBe(0);
    expect(isTyping(chat.getState())).toBe(false);
    vi.advanceTimersByTime(10_000);
    expect(last()).toMatchObject({ from: "user", text: question("email-us") });
  });

  test("the reply owed when it closed comes after the full delay once it reopens", () => {
    greeted();
    choose(topicTitle("contact-support"));
    vi.advanceTimersByTime(TYPING_DELAY_MS);
    choose(question("email-us"));
    vi.advanceTimersByTime(TYPING_DELAY_MS - 100);
    chat.dispatch({ type: "close" });
    chat.dispatch({ type: "open" });
    vi.advanceTimersByTime(TYPING_DELAY_MS - 1);
    expect(last().from).toBe("user");
    vi.advanceTimersByTime(1);
    expect(last().text).toBe(script.options["email-us"]!.answer);
  });

  test("closing before the greeting cancels it; reopening greets after 500 ms", () => {
    chat.dispatch({ type: "open" });
    vi.advanceTimersByTime(GREETING_DELAY_MS - 1);
    chat.dispatch({ type: "close" });
    vi.advanceTimersByTime(10_000);
    expect(messages()).toEqual([]);
    chat.dispatch({ type: "open" });
    vi.advanceTimersByTime(GREETING_DELAY_MS);
    expect(last().text).toBe(script.messages.greeting);
  });

  test("dispose stops the timer and resume starts it again", () => {
    chat.dispatch({ type: "open" });
    chat.dispose();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(10_000);
    expect(messages()).toEqual([]);
    chat.resume();
    vi.advanceTimersByTime(GREETING_DELAY_MS);
    expect(last().text).toBe(script.messages.greeting);
  });

  test("listeners hear each change and can unsubscribe", () => {
    const heard = vi.fn();
    const unsubscribe = chat.subscribe(heard);
    chat.dispatch({ type: "open" });
    vi.advanceTimersByTime(GREETING_DELAY_MS);
    expect(heard).toHaveBeenCalledTimes(2);
    chat.dispatch({ type: "open" }); // already open: no change, no call
    expect(heard).toHaveBeenCalledTimes(2);
    unsubscribe();
    chat.dispatch({ type: "close" });
    expect(heard).toHaveBeenCalledTimes(2);
  });
});

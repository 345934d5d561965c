import { whatsappPhone } from "../facts";
import type { Site } from "../site";

// Delivery, returns and reply times (content/service.json), shared with the
// policies and the contact page.
export type Service = typeof import("../../../../content/service.json");

// Turns the chat script as written (content/chat.json) into the one the
// site uses: the studio's facts filled in. The JSON names them only as
// {placeholders}, so a phone number or an address is typed once, in
// content/site.json. No JSON import here, so the browser tests can use it.

export type ChatOption = {
  id: string;
  question: string;
  answer: string;
  followUp: string[];
  showWhatsApp: boolean;
};

export type ChatTopic = { id: string; title: string; options: string[] };

export type ChatScript = {
  messages: {
    greeting: string;
    topicIntro: string;
    anythingElse: string;
    handover: string;
    whatsappButton: string;
    whatsappText: string;
  };
  topics: ChatTopic[];
  options: Record<string, ChatOption>;
};

// The topic whose choice clears the conversation and starts again.
export const MAIN_MENU = "main-menu";

export type RawScript = {
  messages: Record<keyof ChatScript["messages"], string>;
  topics: ChatTopic[];
  options: { id: string; question: string; answer: string; followUp: string[]; showWhatsApp?: boolean }[];
};

export function scriptFacts(s: Site, sv: Service): Record<string, string> {
  return {
    inStockDays: sv.delivery.inStockDays,
    customDays: sv.delivery.customDays,
    deliveryAttempts: String(sv.delivery.attempts),
    reportWithinHours: String(sv.returns.reportWithinHours),
    emailReplyHours: String(sv.emailReplyHours),
    studio: s.name,
    city: s.city,
    email: s.email,
    phones: new Intl.ListFormat("en-IN", { type: "disjunction" }).format(s.phones.map((p) => p.display)),
    whatsapp: whatsappPhone(s).display,
  };
}

// Replaces each {name} with its fact; an unknown name is a mistake in the
// content, so it fails loudly (the unit tests run every text through here).
export function fillFacts(text: string, facts: Record<string, string>): string {
  return text.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = facts[name];
    if (value === undefined) throw new Error(`chat script: unknown placeholder {${name}}`);
    return value;
  });
}

export function buildScript(raw: RawScript, s: Site, sv: Service): ChatScript {
  const facts = scriptFacts(s, sv);
  const fill = (text: string) => fillFacts(text, facts);
  const messages = Object.fromEntries(
    Object.entries(raw.messages).map(([key, text]) => [key, fill(text)]),
  ) as ChatScript["messages"];
  const options: Record<string, ChatOption> = {};
  for (const o of raw.options) {
    options[o.id] = {
      id: o.id,
      question: fill(o.question),
      answer: fill(o.answer),
      followUp: o.followUp,
      showWhatsApp: o.showWhatsApp === true,
    };
  }
  return { messages, topics: raw.topics.map((t) => ({ ...t, title: fill(t.title) })), options };
}

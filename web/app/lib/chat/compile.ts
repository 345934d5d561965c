import { fillFacts, type Facts } from "../facts";

// Turns the chat script as written (content/chat.json) into the one the
// site uses: the studio's facts filled in. The JSON names them only as
// {{placeholders}}, so a phone number or an address is typed once, in
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

const FILE = "content/chat.json";

// The script with every {{placeholder}} filled (app/lib/facts.ts); a wrong
// name stops the build with the text it is in.
export function buildScript(raw: RawScript, facts: Facts): ChatScript {
  const messages = Object.fromEntries(
    Object.entries(raw.messages).map(([key, text]) => [key, fillFacts(text, facts, `${FILE}: messages.${key}`)]),
  ) as ChatScript["messages"];
  const options: Record<string, ChatOption> = {};
  for (const o of raw.options) {
    const where = `${FILE}: options "${o.id}"`;
    options[o.id] = {
      id: o.id,
      question: fillFacts(o.question, facts, `${where}: question`),
      answer: fillFacts(o.answer, facts, `${where}: answer`),
      followUp: o.followUp,
      showWhatsApp: o.showWhatsApp === true,
    };
  }
  const topics = raw.topics.map((t) => ({ ...t, title: fillFacts(t.title, facts, `${FILE}: topics "${t.id}": title`) }));
  return { messages, topics, options };
}

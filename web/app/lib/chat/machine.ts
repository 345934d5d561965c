import { MAIN_MENU, type ChatScript } from "./compile";

// The chat conversation as a pure state machine. reduce() says what the
// next state is; the one step the bot still owes the visitor (a reply after
// a typing delay) is kept in state.pending, and ChatSession (session.ts)
// runs it on a timer. The widget only renders the state.

// The chat's delays and limits.
export const GREETING_DELAY_MS = 500;
export const TYPING_DELAY_MS = 1000;
export const FOLLOW_UP_DELAY_MS = 1000;
/** The handover replaces answers after more than this many question clicks. */
export const HANDOVER_AFTER_CLICKS = 4;

export type Choice =
  | { kind: "topic"; id: string; label: string }
  | { kind: "question"; id: string; label: string }
  | { kind: "main-menu"; id: typeof MAIN_MENU; label: string };

export type ChatMessage = {
  id: number;
  from: "bot" | "user";
  text: string;
  at: number;
  choices: Choice[];
  /** Offers the button that continues the chat on the messaging app. */
  showWhatsApp: boolean;
};

export type Step =
  | { kind: "greet" }
  | { kind: "topic"; id: string }
  | { kind: "answer"; id: string }
  | { kind: "follow-up"; id: string }
  | { kind: "handover" };

/** A reply owed after `delay` ms. Each is a new object, so a timer armed for an older one is stale. */
export type Pending = { step: Step; delay: number };

export type ChatState = {
  open: boolean;
  messages: ChatMessage[];
  questionClicks: number;
  pending: Pending | null;
  nextId: number;
};

export type ChatAction =
  | { type: "open" }
  | { type: "close" }
  | { type: "reset" }
  | { type: "choose"; choice: Choice }
  | { type: "deliver"; pending: Pending };

export const initialChatState: ChatState = {
  open: false,
  messages: [],
  questionClicks: 0,
  pending: null,
  nextId: 1,
};

/** The bot is typing: a reply is owed and the panel is open to show it. */
export function isTyping(state: ChatState): boolean {
  return state.open && state.pending !== null;
}

export function reduce(state: ChatState, action: ChatAction, now: number, script: ChatScript): ChatState {
  switch (action.type) {
    case "open":
      if (state.open) return state;
      return {
        ...state,
        open: true,
        // A reply owed when the chat was closed is still owed; an empty chat starts with the greeting.
        pending: state.pending ?? (state.messages.length === 0 ? { step: { kind: "greet" }, delay: GREETING_DELAY_MS } : null),
      };
    case "close":
      // The session stops the timer; the owed reply waits for the next open.
      return state.open ? { ...state, open: false } : state;
    case "reset":
      return restart(state);
    case "choose": {
      const { choice } = action;
      if (choice.kind === "main-menu") return restart(state);
      // One question at a time: while the bot owes a reply, a choice is not
      // taken (the panel shows the choices disabled), so every question
      // asked gets its answer.
      if (state.pending) return state;
      const withUser = addMessage(state, { from: "user", text: choice.label, at: now, choices: [], showWhatsApp: false });
      if (choice.kind === "topic") {
        return { ...withUser, pending: { step: { kind: "topic", id: choice.id }, delay: TYPING_DELAY_MS } };
      }
      const questionClicks = state.questionClicks + 1;
      const step: Step = questionClicks > HANDOVER_AFTER_CLICKS ? { kind: "handover" } : { kind: "answer", id: choice.id };
      return { ...withUser, questionClicks, pending: { step, delay: TYPING_DELAY_MS } };
    }
    case "deliver":
      // Only the reply still owed, and only into an open chat.
      if (action.pending !== state.pending || !state.open) return state;
      return deliver({ ...state, pending: null }, action.pending.step, now, script);
  }
}

function restart(state: ChatState): ChatState {
  return {
    ...state,
    messages: [],
    questionClicks: 0,
    pending: { step: { kind: "greet" }, delay: GREETING_DELAY_MS },
  };
}

function deliver(state: ChatState, step: Step, at: number, script: ChatScript): ChatState {
  const bot = (text: string, choices: Choice[], showWhatsApp = false) =>
    addMessage(state, { from: "bot", text, at, choices, showWhatsApp });
  switch (step.kind) {
    case "greet":
      return bot(
        script.messages.greeting,
        script.topics.filter((t) => t.id !== MAIN_MENU).map((t) => ({ kind: "topic", id: t.id, label: t.title })),
      );
    case "topic": {
      const topic = script.topics.find((t) => t.id === step.id);
      const questions = (topic?.options ?? []).map((id) => questionChoice(script, id));
      return bot(script.messages.topicIntro, [...questions, mainMenuChoice(script)]);
    }
    case "answer": {
      const option = script.options[step.id];
      if (!option) return state;
      const next = bot(option.answer, [], option.showWhatsApp);
      return { ...next, pending: { step: { kind: "follow-up", id: step.id }, delay: FOLLOW_UP_DELAY_MS } };
    }
    case "follow-up": {
      const followUp = script.options[step.id]?.followUp ?? [];
      const choices = followUp.map((id) => (id === MAIN_MENU ? mainMenuChoice(script) : questionChoice(script, id)));
      return bot(script.messages.anythingElse, choices);
    }
    case "handover":
      return bot(script.messages.handover, [mainMenuChoice(script)], true);
  }
}

function addMessage(state: ChatState, message: Omit<ChatMessage, "id">): ChatState {
  return { ...state, messages: [...state.messages, { id: state.nextId, ...message }], nextId: state.nextId + 1 };
}

function questionChoice(script: ChatScript, id: string): Choice {
  return { kind: "question", id, label: script.options[id]?.question ?? id };
}

function mainMenuChoice(script: ChatScript): Choice {
  const title = script.topics.find((t) => t.id === MAIN_MENU)?.title ?? MAIN_MENU;
  return { kind: "main-menu", id: MAIN_MENU, label: title };
}

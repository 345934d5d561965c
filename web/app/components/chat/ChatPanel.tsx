import { useEffect, useId, useLayoutEffect, useRef, useState, useSyncExternalStore } from "react";
import { Link } from "react-router";
import { track } from "../../lib/analytics";
import { useSite, whatsappUrl, type Site } from "../../lib/site";
import { linkParts } from "../../lib/chat/links";
import { isTyping, type Choice } from "../../lib/chat/machine";
import type { ChatScript } from "../../lib/chat/compile";
import { ChatSession } from "../../lib/chat/session";
import { Icon } from "../Icon";
import "./ChatPanel.css";

// Loaded with the panel; the widget fetches the script with it.
export { loadChatScript } from "../../lib/chat/script";

export type ChatPanelProps = {
  id: string;
  open: boolean;
  onClose: () => void;
  onEmptyChange: (empty: boolean) => void;
  /** The script (/chat.json), loaded with the panel. */
  script: ChatScript;
};

// The chat panel: renders the conversation that ChatSession runs. It is a
// non-modal dialog: the page stays usable beside it, so focus is not
// trapped; focus moves into it on open and Escape closes it.
export default function ChatPanel({ id, open, onClose, onEmptyChange, script }: ChatPanelProps) {
  const site = useSite();
  const [session] = useState(() => new ChatSession(script));
  const state = useSyncExternalStore(session.subscribe, session.getState, session.getState);
  const panelRef = useRef<HTMLElement>(null);
  const listRef = useRef<HTMLOListElement>(null);
  const titleId = useId();
  const typing = isTyping(state);
  const empty = state.messages.length === 0;
  const lastBotMessage = state.messages.filter((m) => m.from === "bot").at(-1);
  // Only the latest message's choices can be taken, and not while the bot
  // types: earlier turns' buttons stay visible but disabled.
  const liveMessageId = typing ? null : lastBotMessage?.id;

  useEffect(() => {
    session.resume();
    return () => session.dispose();
  }, [session]);

  useEffect(() => {
    session.dispatch({ type: open ? "open" : "close" });
    if (open) panelRef.current?.focus();
  }, [open, session]);

  useEffect(() => onEmptyChange(empty), [empty, onEmptyChange]);

  // The newest message is always in view.
  useLayoutEffect(() => {
    const list = listRef.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [state.messages.length, typing]);

  const restartFocus = () => panelRef.current?.focus(); // the focused option is gone with the messages

  const choose = (choice: Choice) => {
    if (choice.kind === "question") {
      track("chatbot_interaction", { action: "question", option_id: choice.id, question: choice.label });
    } else if (choice.kind === "topic") {
      track("chatbot_interaction", { action: "topic", topic_id: choice.id });
    } else {
      track("chatbot_interaction", { action: "main_menu" });
      restartFocus();
    }
    session.dispatch({ type: "choose", choice });
  };

  const reset = () => {
    track("chatbot_interaction", { action: "reset" });
    session.dispatch({ type: "reset" });
    restartFocus();
  };

  return (
    <section
      id={id}
      ref={panelRef}
      className="chat-panel"
      role="dialog"
      aria-labelledby={titleId}
      hidden={!open}
      tabIndex={-1}
      onKeyDown={(event) => {
        if (event.key === "Escape") {
          event.stopPropagation();
          onClose();
        }
      }}
    >
      {/* A div, not <header>: inside the dialog a header would be a second
          banner landmark beside the page's. */}
      <div className="chat-panel__header">
        <h2 id={titleId} className="chat-panel__title">
          Chat with {site.name}
        </h2>
        <button type="button" className="chat-panel__reset" onClick={reset}>
          Reset
        </button>
        <button type="button" className="icon-button chat-panel__close" aria-label="Close chat" onClick={onClose}>
          <Icon name="close" />
        </button>
      </div>
      <ol ref={listRef} className="chat-panel__messages" aria-label="Conversation">
        {state.messages.map((m) => (
          <li key={m.id} className={`chat-message chat-message--${m.from}`}>
            <p className="chat-message__text">
              <span className="visually-hidden">{m.from === "bot" ? "Assistant: " : "You: "}</span>
              {m.from === "bot" ? <LinkedText text={m.text} site={site} /> : m.text}
            </p>
            {m.showWhatsApp && (
              <a
                className="button chat-message__whatsapp"
                href={whatsappUrl(site, script.messages.whatsappText)}
                target="_blank"
                rel="noopener noreferrer"
                onClick={() => track("contact_attempt", { method: "whatsapp", location: "chatbot" })}
              >
                <Icon name="whatsapp" size={20} />
                {script.messages.whatsappButton}
                <span className="visually-hidden"> (opens in a new tab)</span>
              </a>
            )}
            {m.choices.length > 0 && (
              <ul className="chat-message__choices">
                {m.choices.map((c) => (
                  <li key={`${c.kind}:${c.id}`}>
                    <button
                      type="button"
                      className={`chat-choice chat-choice--${c.kind}`}
                      aria-disabled={m.id !== liveMessageId}
                      onClick={() => m.id === liveMessageId && choose(c)}
                    >
                      {c.label}
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </li>
        ))}
        {typing && (
          <li className="chat-message chat-message--bot chat-typing">
            <span className="visually-hidden">The assistant is typing</span>
            <span className="chat-typing__dot" aria-hidden="true" />
            <span className="chat-typing__dot" aria-hidden="true" />
            <span className="chat-typing__dot" aria-hidden="true" />
          </li>
        )}
      </ol>
      {/* Announces each new bot message once: a new node per message. */}
      <div className="visually-hidden" role="status">
        {lastBotMessage && open && <p key={lastBotMessage.id}>{lastBotMessage.text}</p>}
      </div>
    </section>
  );
}

// A bot message with the studio's numbers, e-mail and "contact form" as
// links (lib/chat/links.ts). The contact form opens within the site, the
// chat staying open beside it.
function LinkedText({ text, site }: { text: string; site: Site }) {
  return linkParts(text, site).map((part, i) => {
    if (part.kind === "text") return part.text;
    if (part.kind === "contactForm") {
      return (
        <Link key={i} to={part.href}>
          {part.text}
        </Link>
      );
    }
    const method = part.kind;
    return (
      <a key={i} href={part.href} onClick={() => track("contact_attempt", { method, location: "chatbot" })}>
        {part.text}
      </a>
    );
  });
}

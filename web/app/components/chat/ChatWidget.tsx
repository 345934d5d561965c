import { useRef, useState, type ComponentType } from "react";
import { track } from "../../lib/analytics";
import { useIdlePrefetch } from "../../lib/useIdlePrefetch";
import { useHydrated } from "../../lib/useHydrated";
import type { ChatScript } from "../../lib/chat/compile";
import type { ChatPanelProps } from "./ChatPanel";
import "./ChatWidget.css";

// The chat launcher, on every page and in the prerendered HTML. The panel
// and the conversation machine are a separate chunk, fetched when the
// browser is idle after load or on the first open, and the script
// (/chat.json) on the first open, so none of it weighs on the first paint.
// (A plain import() rather than React.lazy: no Suspense fallback to throttle.)
const loadPanel = () => import("./ChatPanel");

export const CHAT_PANEL_ID = "chat-panel";

export function ChatWidget() {
  const [open, setOpen] = useState(false);
  // Once loaded, the panel stays mounted (hidden when closed), so the conversation survives closing.
  const [loaded, setLoaded] = useState<{ Panel: ComponentType<ChatPanelProps>; script: ChatScript } | null>(null);
  const [empty, setEmpty] = useState(true);
  const launcherRef = useRef<HTMLButtonElement>(null);
  // The launcher is in the prerendered HTML but hidden until the page is
  // interactive: without JavaScript it would be a button that does nothing.
  const hydrated = useHydrated();

  useIdlePrefetch(loadPanel);

  const openChat = () => {
    setOpen(true);
    if (!loaded) {
      loadPanel()
        .then(async (module) => ({ Panel: module.default, script: await module.loadChatScript() }))
        .then(setLoaded, () => setOpen(false)); // offline: the launcher stays as it was
    }
    track("chatbot_interaction", { action: "open" });
  };

  const closeChat = () => {
    setOpen(false);
    track("chatbot_interaction", { action: "close" });
    launcherRef.current?.focus();
  };

  return (
    <>
      <button
        ref={launcherRef}
        type="button"
        className="chat-launcher"
        hidden={!hydrated}
        aria-label="Chat with us"
        aria-expanded={open}
        aria-controls={loaded ? CHAT_PANEL_ID : undefined}
        onClick={open ? closeChat : openChat}
        onKeyDown={(event) => {
          if (event.key === "Escape" && open) closeChat();
        }}
      >
        <svg width="28" height="28" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
          <path d="M4 5h16v11H9l-5 4V5Zm4 5h.01M12 10h.01M16 10h.01" />
        </svg>
        {!open && empty && <span className="chat-launcher__dot" aria-hidden="true" />}
      </button>
      {loaded && <loaded.Panel id={CHAT_PANEL_ID} open={open} onClose={closeChat} onEmptyChange={setEmpty} script={loaded.script} />}
    </>
  );
}

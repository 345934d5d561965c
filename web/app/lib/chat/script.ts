import type { ChatScript } from "./compile";
import { CHAT_SCRIPT_PATH } from "../paths";

// The chat assistant's script, as routes/chat-script.ts prerenders it
// (/chat.json), fetched once, the first time the chat is wanted.
let script: Promise<ChatScript> | null = null;
export function loadChatScript(): Promise<ChatScript> {
  script ??= fetch(CHAT_SCRIPT_PATH).then((r) => {
    if (!r.ok) throw new Error(`chat script: HTTP ${r.status}`);
    return r.json() as Promise<ChatScript>;
  });
  script.catch(() => {
    script = null; // the next opening tries again
  });
  return script;
}

export { MAIN_MENU, type ChatScript } from "./compile";

import data from "../../../../content/chat.json";
import service from "../../../../content/service.json";
import { site } from "../site";
import { contentFacts } from "../facts";
import { buildScript, type ChatScript } from "./compile";

// The chat assistant's script (content/chat.json) with the studio's facts filled in.
export const chatScript: ChatScript = buildScript(data, contentFacts(site, service));

export { MAIN_MENU, type ChatScript } from "./compile";

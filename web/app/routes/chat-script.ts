import { buildScript, type RawScript } from "../lib/chat/compile";
import { facts, readContentJson } from "../lib/content.server";

// /chat.json, prerendered: the chat assistant's script (content/chat.json)
// with the studio's facts filled in, fetched with the chat panel, so no
// page and no script carries it.
export async function loader() {
  return Response.json(buildScript(readContentJson<RawScript>("chat.json"), facts()));
}

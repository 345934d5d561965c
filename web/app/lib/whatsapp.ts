import type { Site } from "./site";

/** What a WhatsApp message is about: a question, a quote or a customisation. */
export type WhatsappTopic = "ask" | "quote" | "customize";

const WHATSAPP_WANTS: Record<WhatsappTopic, string> = {
  ask: "I would like to ask about",
  quote: "I would like a quote for",
  customize: "I would like to customize",
};

// The message a WhatsApp link starts with: the piece and its chosen
// options, so the studio knows at once what the visitor looks at; with no
// piece, a general greeting (the footer, the contact page) or a bespoke one.
export function whatsappText(
  site: Site,
  topic: WhatsappTopic,
  product?: { name: string; type: string },
  options: { material?: string; finish?: string } = {},
): string {
  if (!product) return topic === "ask" ? `Hello ${site.name}, I have a question.` : `Hello ${site.name}, I would like to talk about a bespoke piece.`;
  const chosen = [options.material, options.finish && `${options.finish} finish`].filter(Boolean).join(", ");
  return `Hello ${site.name}, ${WHATSAPP_WANTS[topic]} ${product.name} (${product.type}${chosen ? `, ${chosen}` : ""}).`;
}

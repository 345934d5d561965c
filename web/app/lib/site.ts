import { useRouteLoaderData } from "react-router";
import type siteData from "../../../content/site.json";
import { whatsappNumber } from "./facts";

// The studio's facts (content/site.json), shared with the Go server. The
// root route's loader reads them when the pages are prerendered (root.tsx),
// so no script carries them: a changed phone number renders the pages
// again and leaves the code as it was.
export type Site = typeof siteData;

type RootData = { site: Site };

// The facts, in any component under the root route.
export function useSite(): Site {
  const data = useRouteLoaderData("root") as RootData | undefined;
  if (!data) throw new Error("the root route's data (the studio's facts) is missing");
  return data.site;
}

// The facts, in a route's meta function (from its matches).
export function siteOf(matches: readonly unknown[]): Site {
  for (const m of matches) {
    const match = m as { id?: string; loaderData?: unknown; data?: unknown } | undefined;
    if (match?.id === "root") {
      const data = (match.loaderData ?? match.data) as RootData | undefined;
      if (data) return data.site;
    }
  }
  throw new Error("the root route's data (the studio's facts) is missing");
}

export function whatsappUrl(site: Site, text: string): string {
  return `https://wa.me/${whatsappNumber(site)}?text=${encodeURIComponent(text)}`;
}

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

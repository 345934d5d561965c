import { useRouteLoaderData } from "react-router";
import type siteData from "../../../content/site.json";
import { whatsappNumber } from "./facts";

// The studio's facts (content/site.json), shared with the Go server. The
// root route's loader reads them when the pages are prerendered (root.tsx),
// so no script carries them: a changed phone number renders the pages
// again and leaves the code as it was.
export type Site = typeof siteData;

type RootData = { site: Site; whatsappChat: string };

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

// The click-to-chat link of the footer and the contact page, made when the
// pages are prerendered (root.tsx), so its message's code is in no page's
// first load.
export function useWhatsappChat(): string {
  return (useRouteLoaderData("root") as RootData).whatsappChat;
}

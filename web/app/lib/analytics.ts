// Analytics: every event goes through track(), which hands it to GA4's
// gtag() when the tag is on (only when content/site.json names a
// measurement id), and queues it for the site's own server (insights.ts).

import type { AnalyticsEvents, AnalyticsItem } from "../../.generated/analytics-events";
import { collect } from "./insights";

declare global {
  interface Window {
    gtag?: (...args: unknown[]) => void;
    dataLayer?: unknown[];
  }
}


/**
 * The events the site sends and each one's parameters: contracts/analytics-events.json,
 * the list the server takes (web/.generated/analytics-events.d.ts is made from it
 * by `npm run typecheck`). An event or a parameter not listed there is a type error.
 */
export type EventName = keyof AnalyticsEvents;
export type TrackParams<N extends EventName> = AnalyticsEvents[N];
// A parameter the event does not list must be absent, even in an object
// made elsewhere (itemEventParams, listParams), which TypeScript's check of
// unknown properties does not reach.
type OnlyListed<P, N extends EventName> = TrackParams<N> & { [K in Exclude<keyof P, keyof TrackParams<N>>]?: never };

export function track<N extends EventName, P extends OnlyListed<P, N>>(name: N, params: P = {} as P): void {
  if (typeof window === "undefined") return;
  if (typeof window.gtag === "function") window.gtag("event", name, params);
  collect(name, params);
}

// Loads GA4's tag for the given id. Page views are sent by the router
// (usePageAnalytics), so the tag's own automatic page view is off.
export function loadGoogleTag(measurementId: string): void {
  if (!measurementId || typeof window.gtag === "function") return;
  window.dataLayer = window.dataLayer ?? [];
  window.gtag = function gtag() {
    // gtag.js reads the arguments object itself, not an array.
    // eslint-disable-next-line prefer-rest-params
    window.dataLayer!.push(arguments);
  };
  window.gtag("js", new Date());
  window.gtag("config", measurementId, { send_page_view: false });
  const script = document.createElement("script");
  script.async = true;
  script.src = `https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(measurementId)}`;
  document.head.appendChild(script);
}

export const SCROLL_DEPTH_STEP = 25;

// The scroll depths (25, 50, 75, 100) reached at `percent` that are not yet
// in `sent`: each is reported once per page view.
export function newScrollDepths(percent: number, sent: ReadonlySet<number>): number[] {
  const reached: number[] = [];
  for (let depth = SCROLL_DEPTH_STEP; depth <= 100; depth += SCROLL_DEPTH_STEP) {
    if (percent >= depth && !sent.has(depth)) reached.push(depth);
  }
  return reached;
}

// How far down the page the visitor has seen, in percent. A page that fits
// in the window has been seen whole.
export function scrollPercent(scrollY: number, viewportHeight: number, documentHeight: number): number {
  const scrollable = documentHeight - viewportHeight;
  if (scrollable <= 0) return 100;
  return Math.min(100, Math.max(0, (scrollY / scrollable) * 100));
}

type ItemLike = { id: number; name: string; category: string };

// GA4's shape for item events (view_item, select_item, quote_request):
// prices do not exist, the currency is the studio's.
export function itemEventParams<const E extends object = object>(
  product: ItemLike,
  extra: E = {} as E,
): { currency: string; items: AnalyticsItem[] } & E {
  return {
    currency: "INR",
    items: [{ item_id: String(product.id), item_name: product.name, item_category: product.category }],
    ...extra,
  };
}

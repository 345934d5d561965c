// First-party counting ("insights"): every event track() sends is also
// queued here and posted to the site's own server (POST /api/events) in
// batches: 5 s after the first queued event, and at once when the page is
// hidden or left. Nothing is collected when the browser sends Global
// Privacy Control, and nothing is stored in the browser: no cookie, no
// storage, no identifier of the visitor (a batch's id is random and new
// for each batch).

import type { AnalyticsLimits } from "../../.generated/analytics-events";

/** Parameters as the site's own count queues them, whatever the event. */
export type EventParams = Record<string, unknown>;

export type Insight = { name: string; path: string; params: EventParams };

const ENDPOINT = "/api/events";
/** How long after its first event a batch is sent. */
export const FLUSH_MS = 5000;
// The server takes at most 50 events and 64 KiB a request, and refuses a
// request in which one event's parameters are over 2 KiB. The limits are
// contracts/analytics-events.json's: typed with its values, so a constant
// here that is not the list's is a type error, and costs no byte more.
export const MAX_EVENTS: AnalyticsLimits["eventsPerBatch"] = 50;
export const MAX_BODY_BYTES = 60_000;
export const MAX_EVENT_BYTES: AnalyticsLimits["paramsBytes"] = 2048;
const UTM = ["utm_source", "utm_medium", "utm_campaign"];
// {"batchId":"<at most 64>","events":[ ... ]}
const WRAPPING_BYTES = 90;

/**
 * A new batch's id: 128 random bits from the browser's random source, as
 * four numbers joined by "-" (16 to 43 characters; short, as this is in
 * every page's first load). The server stores a batch once per id, so a
 * batch sent again (by fetch, after sendBeacon refused it) keeps its id and
 * is not counted twice. `crypto.getRandomValues` rather than
 * `crypto.randomUUID`, which pages served without HTTPS lack.
 */
export const batchId = (): string => crypto.getRandomValues(new Uint32Array(4)).join("-").padEnd(16 satisfies AnalyticsLimits["batchIdChars"]["min"], "-");

// The bodies that carry `events`, each with an id of its own (newId):
// at most MAX_EVENTS each and under MAX_BODY_BYTES; an event whose own JSON
// is over MAX_EVENT_BYTES is dropped.
export function batches(events: Insight[], newId: () => string = batchId): string[] {
  const bodies: string[] = [];
  let batch: string[] = [];
  let size = 0;
  const close = () => {
    if (batch.length) bodies.push(`{"batchId":${JSON.stringify(newId())},"events":[${batch.join(",")}]}`);
    batch = [];
    size = 0;
  };
  for (const event of events) {
    const json = JSON.stringify(event);
    const bytes = new Blob([json]).size;
    if (bytes > MAX_EVENT_BYTES) continue;
    // The wrapping with an id of up to 64 characters, and a comma before
    // each event after the first.
    if (batch.length === MAX_EVENTS || WRAPPING_BYTES + size + bytes + 1 > MAX_BODY_BYTES) close();
    batch.push(json);
    size += bytes + 1;
  }
  close();
  return bodies;
}

// What the first page view of a page load adds: the referring site's host
// (not the site's own) and the link's campaign.
export function arrival(referrer: string, here: { host: string; search: string }): EventParams {
  const params: EventParams = {};
  try {
    const host = new URL(referrer).host;
    if (host && host !== here.host) params.referrer = host;
  } catch {
    // no referrer
  }
  const query = new URLSearchParams(here.search);
  for (const key of UTM) {
    const value = query.get(key);
    if (value) params[key] = value;
  }
  return params;
}

/**
 * What the site's own count needs of an event's parameters: of a list of
 * items (a shortlist's fifty pieces, for GA4) only the first, the product
 * the server keeps, so the event stays under the server's limit.
 */
export function counted(params: EventParams): EventParams {
  return Array.isArray(params.items) && params.items.length > 1 ? { ...params, items: params.items.slice(0, 1) } : params;
}

let queue: Insight[] = [];
let timer: ReturnType<typeof setTimeout> | undefined;
let listening = false;
let arrived = false;
// The page is hidden or being left: what is queued now goes at once.
let hidden = false;

export function collect(name: string, params: EventParams): void {
  if ((navigator as { globalPrivacyControl?: boolean }).globalPrivacyControl === true) return;
  if (!listening) {
    listening = true;
    window.addEventListener("pagehide", hide);
    document.addEventListener("visibilitychange", () => (document.visibilityState === "hidden" ? hide() : (hidden = false)));
  }
  if (name === "page_view" && !arrived) {
    arrived = true;
    params = { ...params, ...arrival(document.referrer, location) };
  }
  queue.push({ name, path: location.pathname, params: counted(params) });
  if (hidden) flush();
  else timer ??= setTimeout(flush, FLUSH_MS);
}

function hide(): void {
  hidden = true;
  flush();
}

export function flush(): void {
  clearTimeout(timer);
  timer = undefined;
  const events = queue;
  queue = [];
  for (const body of batches(events)) send(body);
}

// A body is sent once; if sendBeacon refuses it, the same body (the same
// batchId) goes by fetch.
function send(body: string): void {
  try {
    if (navigator.sendBeacon?.(ENDPOINT, new Blob([body], { type: "application/json" }))) return;
  } catch {
    // refused: try fetch
  }
  fetch(ENDPOINT, { method: "POST", keepalive: true, headers: { "Content-Type": "application/json" }, body }).catch(() => {});
}

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import events from "../../../contracts/analytics-events.json";
import { arrival, batches, batchId, counted, MAX_BODY_BYTES, MAX_EVENTS, type Insight } from "./insights";

type Body = { batchId: string; events: Insight[] };
const event = (i: number, params: Insight["params"] = {}): Insight => ({ name: "page_view", path: `/p/${i}`, params });
const eventsOf = (bodies: string[]) => bodies.map((b) => (JSON.parse(b) as Body).events);
// What the server takes as a batchId (internal/server/events.go), of the list's lengths.
const { min, max } = events.limits.batchIdChars;
const BATCH_ID = new RegExp(`^[A-Za-z0-9_-]{${min},${max}}$`);

describe("batchId", () => {
  it("is what the server takes, new each time", () => {
    const ids = new Set(Array.from({ length: 100 }, batchId));
    expect(ids.size).toBe(100);
    for (const id of ids) expect(id).toMatch(BATCH_ID);
  });
});

describe("batches", () => {
  it("sends at most 50 events in a batch, in order", () => {
    const events = Array.from({ length: 120 }, (_, i) => event(i));
    const sent = eventsOf(batches(events));
    expect(sent.map((b) => b.length)).toEqual([MAX_EVENTS, MAX_EVENTS, 20]);
    expect(sent.flat()).toEqual(events);
  });

  it("keeps each batch's JSON under 60 KB", () => {
    // 1.95 KB events (non-ASCII text counts by its bytes): 50 would be 97 KB.
    const events = Array.from({ length: 50 }, (_, i) => event(i, { text: "é".repeat(950) }));
    const bodies = batches(events);
    expect(bodies.length).toBeGreaterThan(1);
    for (const body of bodies) expect(new Blob([body]).size).toBeLessThan(MAX_BODY_BYTES);
    expect(eventsOf(bodies).flat()).toEqual(events);
  });

  it("drops an event whose own JSON is over 2 KB", () => {
    const big = event(1, { text: "x".repeat(3000) });
    const wide = event(2, { text: "é".repeat(1100) }); // 1,100 characters, 2,200 bytes
    expect(eventsOf(batches([event(0), big, wide, event(3)]))).toEqual([[event(0), event(3)]]);
  });

  it("sends nothing for nothing", () => {
    expect(batches([])).toEqual([]);
  });

  it("gives each batch an id of its own, as the server requires", () => {
    const bodies = batches(Array.from({ length: 120 }, (_, i) => event(i)));
    const ids = bodies.map((b) => (JSON.parse(b) as Body).batchId);
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
    for (const id of ids) expect(id).toMatch(BATCH_ID);
  });

  it("keeps a batch under 60 KB with the longest id the server takes", () => {
    const events = Array.from({ length: 50 }, (_, i) => event(i, { text: "é".repeat(950) }));
    for (const body of batches(events, () => "x".repeat(64))) expect(new Blob([body]).size).toBeLessThan(MAX_BODY_BYTES);
  });
});

describe("counted", () => {
  it("keeps the first of a list of items, the product the server reads, so a shortlist's lead stays small", () => {
    const items = Array.from({ length: 50 }, (_, n) => ({ item_id: String(n + 1), item_name: `Piece ${n + 1}`, item_category: "Seatings", quantity: 999 }));
    const params = counted({ currency: "INR", items });
    expect(params).toEqual({ currency: "INR", items: [items[0]] });
    expect(batches([{ name: "generate_lead", path: "/shortlist", params }])).toHaveLength(1);
  });

  it("leaves other parameters as they are", () => {
    const params = { currency: "INR", items: [{ item_id: "3" }] };
    expect(counted(params)).toBe(params);
  });
});

describe("arrival", () => {
  const here = { host: "studio.example", search: "" };

  it("names the referring site's host, not the site's own", () => {
    expect(arrival("https://www.google.com/search?q=chairs", here)).toEqual({ referrer: "www.google.com" });
    expect(arrival("https://studio.example/products", here)).toEqual({});
    expect(arrival("", here)).toEqual({});
  });

  it("takes the link's campaign from the query", () => {
    expect(
      arrival("", { ...here, search: "?utm_source=newsletter&utm_medium=email&utm_campaign=diwali&utm_term=x&email=a@b.c" }),
    ).toEqual({ utm_source: "newsletter", utm_medium: "email", utm_campaign: "diwali" });
    expect(arrival("", { ...here, search: "?utm_source=" })).toEqual({});
  });
});

// The queue, in a stand-in browser: the module is loaded afresh for each
// test, as a page load would.
describe("collect", () => {
  let listeners: Record<string, () => void>;
  let beacon: ReturnType<typeof vi.fn>;
  let fetcher: ReturnType<typeof vi.fn>;
  let doc: { referrer: string; visibilityState: string; addEventListener: (type: string, f: () => void) => void };

  const browser = (navigatorExtra: Record<string, unknown> = {}) => {
    listeners = {};
    beacon = vi.fn(() => true);
    fetcher = vi.fn(() => Promise.resolve());
    const on = (type: string, f: () => void) => (listeners[type] = f);
    doc = { referrer: "https://www.instagram.com/", visibilityState: "visible", addEventListener: on };
    vi.stubGlobal("navigator", { sendBeacon: beacon, ...navigatorExtra });
    vi.stubGlobal("window", { addEventListener: on });
    vi.stubGlobal("document", doc);
    vi.stubGlobal("location", { pathname: "/products", host: "studio.example", search: "?utm_source=ig" });
    vi.stubGlobal("fetch", fetcher);
  };
  const load = async () => {
    vi.resetModules();
    return import("./insights");
  };
  const sentEvents = async () =>
    (await Promise.all(beacon.mock.calls.map(([, blob]) => (blob as Blob).text()))).flatMap((t) => (JSON.parse(t) as Body).events);

  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("sends what is queued 5 s after the first event, in one beacon", async () => {
    browser();
    const { collect } = await load();
    collect("view_item", { item: 1 });
    collect("page_view", { page_path: "/products" });
    vi.advanceTimersByTime(4999);
    expect(beacon).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(beacon).toHaveBeenCalledTimes(1);
    const [url, blob] = beacon.mock.calls[0]!;
    expect(url).toBe("/api/events");
    expect((blob as Blob).type).toBe("application/json");
    expect(await sentEvents()).toEqual([
      { name: "view_item", path: "/products", params: { item: 1 } },
      { name: "page_view", path: "/products", params: { page_path: "/products", referrer: "www.instagram.com", utm_source: "ig" } },
    ]);
    // One timer, not an interval.
    vi.advanceTimersByTime(60_000);
    expect(beacon).toHaveBeenCalledTimes(1);
  });

  it("adds the referrer and campaign to the first page view only", async () => {
    browser();
    const { collect, flush } = await load();
    collect("page_view", {});
    collect("page_view", {});
    flush();
    expect((await sentEvents()).map((e) => e.params)).toEqual([{ referrer: "www.instagram.com", utm_source: "ig" }, {}]);
  });

  it("sends everything queued at once when the page is hidden or left, and later events without waiting", async () => {
    browser();
    const { collect } = await load();
    for (let i = 0; i < 60; i++) collect("scroll_depth", { i });
    doc.visibilityState = "hidden";
    listeners.visibilitychange!();
    expect(beacon).toHaveBeenCalledTimes(2); // 50 + 10
    expect((await sentEvents()).map((e) => e.params.i)).toEqual(Array.from({ length: 60 }, (_, i) => i));

    // What the page sends as it goes (time_on_page) follows at once.
    listeners.pagehide!();
    collect("time_on_page", { seconds: 3 });
    expect(beacon).toHaveBeenCalledTimes(3);
    // Back in view: the timer again.
    doc.visibilityState = "visible";
    listeners.visibilitychange!();
    collect("scroll_depth", {});
    expect(beacon).toHaveBeenCalledTimes(3);
    vi.advanceTimersByTime(5000);
    expect(beacon).toHaveBeenCalledTimes(4);
  });

  it("posts with fetch when there is no sendBeacon or it refuses", async () => {
    browser({ sendBeacon: undefined });
    const { collect, flush } = await load();
    collect("search", { search_term: "chair" });
    flush();
    expect(fetcher).toHaveBeenCalledWith("/api/events", {
      method: "POST",
      keepalive: true,
      headers: { "Content-Type": "application/json" },
      body: expect.any(String),
    });
    const sent = JSON.parse((fetcher.mock.calls[0]![1] as { body: string }).body) as Body;
    expect(sent.events).toEqual([{ name: "search", path: "/products", params: { search_term: "chair" } }]);
    expect(sent.batchId).toMatch(BATCH_ID);

    // A batch sendBeacon refuses goes by fetch with the same id, so that
    // should both arrive, the server keeps it once.
    browser();
    beacon.mockReturnValue(false);
    const again = await load();
    again.collect("search", {});
    again.flush();
    expect(beacon).toHaveBeenCalledTimes(1);
    expect(fetcher).toHaveBeenCalledTimes(1);
    const beaconed = await (beacon.mock.calls[0]![1] as Blob).text();
    expect((fetcher.mock.calls[0]![1] as { body: string }).body).toBe(beaconed);
    expect((JSON.parse(beaconed) as Body).batchId).toMatch(BATCH_ID);
  });

  it("sends each batch with an id of its own", async () => {
    browser();
    const { collect, flush } = await load();
    collect("page_view", {});
    flush();
    collect("page_view", {});
    flush();
    const ids = await Promise.all(beacon.mock.calls.map(async ([, blob]) => (JSON.parse(await (blob as Blob).text()) as Body).batchId));
    expect(ids).toHaveLength(2);
    expect(ids[0]).not.toBe(ids[1]);
  });

  it("collects nothing under Global Privacy Control", async () => {
    browser({ globalPrivacyControl: true });
    const { collect, flush } = await load();
    collect("page_view", {});
    vi.advanceTimersByTime(10_000);
    flush();
    expect(beacon).not.toHaveBeenCalled();
    expect(fetcher).not.toHaveBeenCalled();
    expect(listeners).toEqual({});
  });
});

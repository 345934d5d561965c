import { afterEach, describe, expect, it, vi } from "vitest";
import { itemEventParams, newScrollDepths, scrollPercent, track } from "./analytics";
import { collect } from "./insights";

vi.mock("./insights", () => ({ collect: vi.fn() }));

describe("track", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.mocked(collect).mockClear();
  });

  it("hands the event to gtag when the tag is on, and to the site's own count", () => {
    const gtag = vi.fn();
    vi.stubGlobal("window", { gtag });
    track("search", { search_term: "chair" });
    expect(gtag).toHaveBeenCalledWith("event", "search", { search_term: "chair" });
    expect(collect).toHaveBeenCalledWith("search", { search_term: "chair" });
  });

  it("without gtag, only counts; without a window, does nothing", () => {
    vi.stubGlobal("window", {});
    expect(() => track("search")).not.toThrow();
    expect(collect).toHaveBeenCalledWith("search", {});
    vi.mocked(collect).mockClear();
    vi.stubGlobal("window", undefined);
    expect(() => track("search")).not.toThrow();
    expect(collect).not.toHaveBeenCalled();
  });

  // The typecheck (npm run typecheck) fails when a line marked as an
  // expected error compiles: these are what contracts/analytics-events.json does not list.
  it("takes only the listed events, each with its listed parameters", () => {
    vi.stubGlobal("window", undefined);
    const product = { id: 1, name: "Chair", category: "Seatings" };
    const either = Math.random() < 0.5;
    track("search", { search_term: "chair", result_count: 0 });
    track(either ? "add_to_wishlist" : "remove_from_wishlist", itemEventParams(product));
    track("select_item", itemEventParams(product, { item_list_name: "What's Hot", index: 1 }));
    // @ts-expect-error: an event the list does not have
    track("purchase", {});
    // @ts-expect-error: one of two names is not listed
    track(either ? "add_to_wishlist" : "add_to_cart", itemEventParams(product));
    // @ts-expect-error: search_term is text
    track("search", { search_term: 3 });
    // @ts-expect-error: a parameter search does not list
    track("search", { search_term: "chair", colour: "red" });
    const made = { search_term: "chair", colour: "red" };
    // @ts-expect-error: the same in an object made beforehand
    track("search", made);
    // @ts-expect-error: the same through itemEventParams
    track("select_item", itemEventParams(product, { item_list_name: "What's Hot", colour: "red" }));
    // @ts-expect-error: a list name not among those listed
    track("select_item", itemEventParams(product, { item_list_name: "Elsewhere" }));
    // @ts-expect-error: filter_usage's action is "add" or "remove"
    track("filter_usage", { action: "clear" });
    expect(collect).not.toHaveBeenCalled();
  });
});

describe("scroll depth", () => {
  it.each([
    [0, []],
    [24.9, []],
    [25, [25]],
    [60, [25, 50]],
    [100, [25, 50, 75, 100]],
  ])("at %s%% reports %j", (percent, want) => {
    expect(newScrollDepths(percent, new Set())).toEqual(want);
  });

  it("reports each depth once per page view", () => {
    expect(newScrollDepths(80, new Set([25, 50]))).toEqual([75]);
    expect(newScrollDepths(80, new Set([25, 50, 75]))).toEqual([]);
  });

  it("measures how much of the page has been seen", () => {
    expect(scrollPercent(0, 800, 3200)).toBe(0);
    expect(scrollPercent(1200, 800, 3200)).toBe(50);
    expect(scrollPercent(2400, 800, 3200)).toBe(100);
    expect(scrollPercent(0, 800, 600)).toBe(100); // fits in the window
  });
});

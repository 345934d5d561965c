import { afterEach, describe, expect, it, vi } from "vitest";
import { newScrollDepths, scrollPercent, track } from "./analytics";
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

import { describe, expect, it } from "vitest";
import { similarProducts } from "./catalogue";
import {
  activeDot,
  canStep,
  dotCount,
  dotOffset,
  fitsIn,
  itemsPerView,
  step,
  swipeDirection,
  wrapIndex,
} from "./carousel";

describe("gallery", () => {
  it.each([
    [0, 0],
    [3, 3],
    [4, 0], // next from the last wraps to the first
    [-1, 3], // previous from the first wraps to the last
  ])("index %i is slot %i", (index, want) => expect(wrapIndex(index, 4)).toBe(want));
  it.each([
    [200, 149, 1], // 51 px to the left: next
    [200, 251, -1], // 51 px to the right: previous
    [200, 150, 0], // exactly 50 px: not a swipe
    [200, 250, 0],
    [200, 200, 0],
  ])("a swipe from %i to %i moves %i", (start, end, want) => expect(swipeDirection(start, end)).toBe(want));
});

describe("similar products window (4 / 2 / 1 per view)", () => {
  it.each([
    [1280, 4],
    [1024, 4],
    [1023, 2],
    [640, 2],
    [639, 1],
    [375, 1],
  ])("at %i px shows %i", (width, want) => expect(itemsPerView(width)).toBe(want));

  const six = { count: 6, perView: 4 };
  it("next moves one step and stops at the end", () => {
    expect(step({ ...six, offset: 0 }, 1)).toBe(1);
    expect(step({ ...six, offset: 2 }, 1)).toBe(2);
    expect(canStep({ ...six, offset: 2 }, 1)).toBe(false);
    expect(canStep({ ...six, offset: 1 }, 1)).toBe(true);
  });
  it("previous is the mirror of next", () => {
    expect(step({ ...six, offset: 2 }, -1)).toBe(1);
    expect(step({ ...six, offset: 0 }, -1)).toBe(0);
    expect(canStep({ ...six, offset: 0 }, -1)).toBe(false);
    expect(canStep({ ...six, offset: 1 }, -1)).toBe(true);
  });
  it("fewer items than a view: both arrows off", () => {
    const three = { count: 3, perView: 4, offset: 0 };
    expect(canStep(three, 1)).toBe(false);
    expect(canStep(three, -1)).toBe(false);
    expect(dotCount(three)).toBe(1);
  });
  it.each([
    [1, "wide medium narrow"],
    [2, "wide medium"],
    [4, "wide"],
    [5, ""],
  ])("%i items fit in the views %j, where the arrows and dots are hidden", (count, want) => {
    expect(fitsIn(count)).toBe(want);
    // The same as the script's window: nothing to step to where they fit.
    for (const [width, name] of [[1280, "wide"], [800, "medium"], [375, "narrow"]] as const) {
      expect(canStep({ count, perView: itemsPerView(width), offset: 0 }, 1), `${count} at ${width}`).toBe(!want.split(" ").includes(name));
    }
  });
  it("dots jump by a whole window", () => {
    const five = { count: 5, perView: 2 };
    expect(dotCount(five)).toBe(3);
    expect([0, 1, 2].map((d) => dotOffset(five, d))).toEqual([0, 2, 3]);
    expect(activeDot({ ...five, offset: 0 })).toBe(0);
    expect(activeDot({ ...five, offset: 2 })).toBe(1);
    expect(activeDot({ ...five, offset: 3 })).toBe(2);
    expect(activeDot({ ...five, offset: 1 })).toBe(0);
  });
});

describe("similar products", () => {
  const products = [
    { id: 1, category: "Seatings" },
    { id: 2, category: "Partitions" },
    { id: 3, category: "Seatings" },
    { id: 4, category: "Tables" },
    { id: 5, category: "Tables" },
    { id: 7, category: "Seatings" },
  ];
  const byId = (id: number) => products.find((p) => p.id === id)!;
  it("are the same category, without the product itself", () => {
    expect(similarProducts(products, byId(1)).map((p) => p.id)).toEqual([3, 7]);
    expect(similarProducts(products, byId(4)).map((p) => p.id)).toEqual([5]);
  });
  it("can be none", () => expect(similarProducts(products, byId(2))).toEqual([]));
  it("are at most 12", () => {
    const many = Array.from({ length: 20 }, (_, i) => ({ ...byId(1), id: 100 + i }));
    expect(similarProducts([byId(1), ...many], byId(1))).toHaveLength(12);
  });
});

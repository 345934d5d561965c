import { describe, expect, it } from "vitest";
import { fromList, listAddress, stepsBackToList } from "./backToList";

describe("Back to Products", () => {
  it("returns to the list's own address, or the whole list's", () => {
    expect(listAddress({ from: "/products/tables?page=2" }, "/products")).toBe("/products/tables?page=2");
    for (const state of [null, undefined, {}, { from: 3 }, { from: "https://elsewhere.example/" }, { from: "//elsewhere.example/" }]) {
      expect(listAddress(state, "/products"), JSON.stringify(state)).toBe("/products");
    }
  });

  it("steps back to the list when it is behind this entry in this tab", () => {
    expect(stepsBackToList({ from: "/products", fromIdx: 4 }, 5)).toBe(-1);
    // The product page changed its own address since (two entries of its own).
    expect(stepsBackToList({ from: "/products", fromIdx: 4 }, 6)).toBe(-2);
    for (const [state, idx] of [
      [{ from: "/products" }, 5], // no place: a plain link
      [{ from: "/products", fromIdx: 5 }, 5],
      [{ from: "/products", fromIdx: 6 }, 5],
      [null, 5],
      [{ from: "/products", fromIdx: 4 }, undefined],
    ] as const) {
      expect(stepsBackToList(state, idx), JSON.stringify([state, idx])).toBeNull();
    }
  });

  it("reads no place where there is no window (the prerender)", () => {
    expect(fromList("/products")).toEqual({ from: "/products", fromIdx: undefined });
  });
});

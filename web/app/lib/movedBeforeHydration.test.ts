import { describe, expect, it } from "vitest";
import { movedBeforeHydration } from "./movedBeforeHydration";

describe("movedBeforeHydration", () => {
  const loaded = "https://studio.test/products/tables?page=2";
  it("is false at the address the document was loaded for, with or without a #fragment", () => {
    expect(movedBeforeHydration(loaded, loaded)).toBe(false);
    expect(movedBeforeHydration(loaded, `${loaded}#main`)).toBe(false);
  });
  it("is true at another path or query", () => {
    expect(movedBeforeHydration(loaded, "https://studio.test/product/10")).toBe(true);
    expect(movedBeforeHydration(loaded, "https://studio.test/products/tables?page=3")).toBe(true);
  });
  it("is false when the browser does not say what was loaded", () => {
    expect(movedBeforeHydration(undefined, "https://studio.test/product/10")).toBe(false);
  });
});

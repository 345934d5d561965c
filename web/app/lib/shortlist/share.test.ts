import { describe, expect, it } from "vitest";
import { decodeShare, encodeShare, optionSlug, shareUrl } from "./share";
import { newItem, type ShortlistItem } from "./items";

// A small catalogue of its own, with names of more than one word.
const products = [
  { id: 3, material: ["Metal", "Wood"], finish: ["Black", "Light Oak"] },
  { id: 7, material: ["Wood"], finish: ["Walnut", "Oxidised Brass"] },
  { id: 12, material: ["Cement, Stone & Marble"], finish: ["Statuario Marble"] },
];
const item = (productId: number, change: Partial<ShortlistItem> = {}): ShortlistItem => ({ ...newItem(products.find((p) => p.id === productId)!), ...change });

describe("the shortlist in a link", () => {
  it("writes each piece as id.material.finish.quantity, an option its first one left empty", () => {
    const list = [item(3, { material: "Wood", finish: "Light Oak", quantity: 2 }), item(7, { finish: "Oxidised Brass" }), item(12, { quantity: 999 })];
    expect(encodeShare(list, products)).toBe("3.wood.light-oak.2~7..oxidised-brass.1~12...999");
    expect(shareUrl("https://example.com", "/shortlist", list.slice(1, 2), products)).toBe("https://example.com/shortlist?items=7..oxidised-brass.1");
  });

  it("uses only URL-safe characters for the catalogue's names", () => {
    expect(optionSlug("Cement, Stone & Marble")).toBe("cement-stone-marble");
    expect(optionSlug("  Light   Oak ")).toBe("light-oak");
    expect(encodeShare([item(12)], products)).toMatch(/^[A-Za-z0-9._~-]*$/);
    expect(encodeURIComponent(encodeShare([item(3, { finish: "Light Oak" })], products))).toBe("3..light-oak.1");
  });

  it("reads back what it wrote, without the notes", () => {
    const list = [item(7, { finish: "Oxidised Brass", quantity: 40, note: "private" }), item(3, { material: "Wood" }), item(12)];
    const { items, dropped } = decodeShare(encodeShare(list, products), products);
    expect(items).toEqual(list.map((i) => ({ ...i, note: "" })));
    expect(dropped).toEqual({ pieces: 0, choices: 0 });
  });

  it("keeps every line of one product, in its order, each with its options and quantity", () => {
    const list = [item(3, { finish: "Light Oak", quantity: 2 }), item(7), item(3, { material: "Wood" }), item(3)];
    const value = encodeShare(list, products);
    expect(value).toBe("3..light-oak.2~7...1~3.wood..1~3...1");
    expect(decodeShare(value, products)).toEqual({ items: list, dropped: { pieces: 0, choices: 0 } });
    // The link of a shortlist with one product twice, as the page makes it.
    expect(decodeShare("3.metal.black.1~3.wood.black.1", products).items.map((i) => [i.productId, i.material, i.finish])).toEqual([
      [3, "Metal", "Black"],
      [3, "Wood", "Black"],
    ]);
  });

  it("adds a piece that repeats an earlier line to it, rather than dropping it", () => {
    expect(decodeShare("7~3~7.wood.walnut.4", products)).toEqual({ items: [item(7, { quantity: 5 }), item(3)], dropped: { pieces: 0, choices: 0 } });
  });

  it("takes missing fields as the first options and one piece", () => {
    expect(decodeShare("7", products).items).toEqual([item(7)]);
    expect(decodeShare("3.wood", products).items).toEqual([item(3, { material: "Wood" })]);
    expect(decodeShare("~~3..~", products).items).toEqual([item(3)]);
    expect(decodeShare("", products)).toEqual({ items: [], dropped: { pieces: 0, choices: 0 } });
  });

  it("leaves out unknown products and malformed pieces, and counts them", () => {
    const { items, dropped } = decodeShare("99.wood.oak.1~abc~-3~3,5~7~1e2~<script>", products);
    expect(items).toEqual([item(7)]);
    expect(dropped).toEqual({ pieces: 6, choices: 0 });
  });

  it("puts unknown options and quantities back to the first option and one, and counts them", () => {
    const { items, dropped } = decodeShare("3.gold.light-oak.0~7.wood.walnut.x~12...5000", products);
    expect(items).toEqual([item(3, { finish: "Light Oak" }), item(7), item(12, { quantity: 999 })]);
    expect(dropped).toEqual({ pieces: 0, choices: 4 });
  });
});

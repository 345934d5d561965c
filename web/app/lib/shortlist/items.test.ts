import { describe, expect, it } from "vitest";
import { MAX_ITEMS, MAX_QUANTITY, NOTE_MAX, checkItems, droppedNotice, moved, newItem, samePieces, serialize, updated, withItem, withoutItem, type ShortlistItem } from "./items";
import { parseStored } from "./saved";

// A small catalogue of its own, where each rule can be seen.
const products = [
  { id: 3, material: ["Metal", "Wood"], finish: ["Black", "Light Oak"] },
  { id: 7, material: ["Wood"], finish: ["Walnut", "Charcoal"] },
  { id: 9, material: ["Stone"], finish: ["Travertine"] },
];
const item = (productId: number, change: Partial<ShortlistItem> = {}): ShortlistItem => ({ ...newItem(products.find((p) => p.id === productId)!), ...change });

describe("adding, removing, moving, changing", () => {
  it("adds a product once, at the end, in its first options unless others are given", () => {
    const one = withItem([], newItem(products[0]!));
    expect(one).toEqual([{ productId: 3, material: "Metal", finish: "Black", quantity: 1, note: "" }]);
    const two = withItem(one, newItem(products[1]!, "Wood", "Charcoal"));
    expect(two.map((i) => [i.productId, i.finish])).toEqual([
      [3, "Black"],
      [7, "Charcoal"],
    ]);
    expect(withItem(two, newItem(products[0]!, "Wood"))).toEqual(two);
    // An option the product does not offer is not taken.
    expect(newItem(products[1]!, "Metal", "Gold")).toMatchObject({ material: "Wood", finish: "Walnut" });
  });

  it("removes by product", () => {
    expect(withoutItem([item(3), item(7), item(9)], 7).map((i) => i.productId)).toEqual([3, 9]);
    expect(withoutItem([item(3)], 99)).toEqual([item(3)]);
  });

  it("moves one place up or down, and nothing past either end", () => {
    const list = [item(3), item(7), item(9)];
    const ids = (l: ShortlistItem[]) => l.map((i) => i.productId);
    expect(ids(moved(list, 1, -1))).toEqual([7, 3, 9]);
    expect(ids(moved(list, 1, 1))).toEqual([3, 9, 7]);
    expect(ids(moved(list, 0, -1))).toEqual([3, 7, 9]);
    expect(ids(moved(list, 2, 1))).toEqual([3, 7, 9]);
    expect(ids(moved(list, 5, -1))).toEqual([3, 7, 9]);
    expect(ids(list)).toEqual([3, 7, 9]); // the original is left as it was
  });

  it("changes one piece's choices", () => {
    const list = updated([item(3), item(7)], 7, { finish: "Charcoal", quantity: 4, note: "for the veranda" });
    expect(list[0]).toEqual(item(3));
    expect(list[1]).toEqual({ productId: 7, material: "Wood", finish: "Charcoal", quantity: 4, note: "for the veranda" });
  });

  it("tells the same pieces, choices and quantities apart from others, notes aside", () => {
    expect(samePieces([item(3), item(7)], [item(3), item(7, { note: "x" })])).toBe(true);
    expect(samePieces([item(3), item(7)], [item(7), item(3)])).toBe(false);
    expect(samePieces([item(3)], [item(3, { quantity: 2 })])).toBe(false);
    expect(samePieces([item(3)], [])).toBe(false);
  });
});

describe("what is stored", () => {
  it("is versioned JSON, read back as it was written", () => {
    const list = [item(3, { quantity: 2, note: "two, please" }), item(7)];
    const raw = serialize(list);
    expect(JSON.parse(raw)).toEqual({ version: 1, items: list });
    expect(parseStored(raw)).toEqual(list);
  });

  it("is read as nothing when absent, and as unreadable when it is not this version's JSON", () => {
    expect(parseStored(null)).toEqual([]);
    for (const raw of ["", "{", "[]", "null", '{"version":2,"items":[]}', '{"version":1,"items":{}}', '{"items":[]}']) {
      expect(parseStored(raw), raw).toBeNull();
    }
  });
});

describe("checking against the catalogue", () => {
  it("keeps what is valid as it is", () => {
    const list = [item(3, { material: "Wood", finish: "Light Oak", quantity: MAX_QUANTITY, note: "n" }), item(9)];
    expect(checkItems(list, products)).toEqual({ items: list, dropped: { pieces: 0, choices: 0 } });
  });

  it("leaves out unknown products and what cannot be read, and counts them", () => {
    const { items, dropped } = checkItems([null, 42, "3", { productId: 99 }, { productId: "7" }, item(7), {}], products);
    expect(items).toEqual([item(7)]);
    expect(dropped).toEqual({ pieces: 6, choices: 0 });
  });

  it("puts options the product does not offer back to its first, and counts them", () => {
    const { items, dropped } = checkItems([{ ...item(3), material: "Gold", finish: 5 }], products);
    expect(items).toEqual([item(3)]);
    expect(dropped).toEqual({ pieces: 0, choices: 2 });
  });

  it("keeps the quantity within 1 to 999 and the note within its limit", () => {
    const check = (quantity: unknown) => checkItems([{ ...item(7), quantity }], products);
    expect(check(1000).items[0]!.quantity).toBe(MAX_QUANTITY);
    for (const q of [0, -1, 2.5, "2", null, undefined, Number.NaN]) {
      expect(check(q).items[0]!.quantity, String(q)).toBe(1);
      expect(check(q).dropped.choices).toBe(1);
    }
    const long = "ä".repeat(NOTE_MAX + 10);
    expect(checkItems([{ ...item(7), note: long }], products).items[0]!.note).toBe("ä".repeat(NOTE_MAX));
    expect(checkItems([{ ...item(7), note: 12 }], products).items[0]!.note).toBe("");
  });

  it("keeps one line per product and at most MAX_ITEMS", () => {
    expect(checkItems([item(3), item(3, { quantity: 5 })], products).items).toEqual([item(3)]);
    const many = Array.from({ length: MAX_ITEMS + 5 }, (_, n) => ({ id: n + 1, material: ["Wood"], finish: ["Oak"] }));
    const { items, dropped } = checkItems(
      many.map((p) => newItem(p)),
      many,
    );
    expect(items).toHaveLength(MAX_ITEMS);
    expect(dropped.pieces).toBe(5);
  });

  it("says in a short notice what was left out, or nothing", () => {
    expect(droppedNotice({ pieces: 0, choices: 0 }, "link")).toBe("");
    expect(droppedNotice({ pieces: 1, choices: 0 }, "link")).toBe("1 piece in the link is not in the catalogue now, so it was left out.");
    expect(droppedNotice({ pieces: 2, choices: 3 }, "saved")).toMatch(/^2 pieces in your saved shortlist are .* 3 choices of material/);
  });
});

import { describe, expect, it } from "vitest";
import { MAX_ITEMS, MAX_QUANTITY, NOTE_MAX, checkItems, droppedNotice, lineKey, moved, newItem, repeatedBy, sameLine, samePieces, serialize, updated, withItem, withoutIndex, withoutItem, type ShortlistItem } from "./items";
import { parseStored } from "./saved";

// A small catalogue of its own, where each rule can be seen.
const products = [
  { id: 3, material: ["Metal", "Wood"], finish: ["Black", "Light Oak"] },
  { id: 7, material: ["Wood"], finish: ["Walnut", "Charcoal"] },
  { id: 9, material: ["Stone"], finish: ["Travertine"] },
];
const item = (productId: number, change: Partial<ShortlistItem> = {}): ShortlistItem => ({ ...newItem(products.find((p) => p.id === productId)!), ...change });

describe("adding, removing, moving, changing", () => {
  it("adds a line once, at the end, in the product's first options unless others are given", () => {
    const one = withItem([], newItem(products[0]!));
    expect(one).toEqual([{ productId: 3, material: "Metal", finish: "Black", quantity: 1, note: "" }]);
    const two = withItem(one, newItem(products[1]!, "Wood", "Charcoal"));
    expect(two.map((i) => [i.productId, i.finish])).toEqual([
      [3, "Black"],
      [7, "Charcoal"],
    ]);
    expect(withItem(two, newItem(products[0]!, "Metal", "Black"))).toEqual(two);
    // An option the product does not offer is not taken.
    expect(newItem(products[1]!, "Metal", "Gold")).toMatchObject({ material: "Wood", finish: "Walnut" });
  });

  it("adds the same product in other options as a line of its own (Wood after Metal)", () => {
    const metal = withItem([], newItem(products[0]!, "Metal", "Black"));
    const both = withItem(metal, newItem(products[0]!, "Wood", "Black"));
    expect(both.map((i) => [i.productId, i.material, i.finish])).toEqual([
      [3, "Metal", "Black"],
      [3, "Wood", "Black"],
    ]);
    expect(withItem(both, newItem(products[0]!, "Wood", "Light Oak"))).toHaveLength(3);
    expect(sameLine(both[0]!, both[1]!)).toBe(false);
    expect(sameLine(both[1]!, { ...both[1]!, quantity: 5, note: "x" } as ShortlistItem)).toBe(true);
    expect(lineKey(both[0]!)).not.toBe(lineKey(both[1]!));
  });

  it("removes one line: by its options, or by its place, the product's other lines kept", () => {
    const list = [item(3), item(7), item(3, { material: "Wood" }), item(9)];
    expect(withoutItem(list, item(7)).map((i) => i.productId)).toEqual([3, 3, 9]);
    expect(withoutItem(list, item(3, { material: "Wood" }))).toEqual([item(3), item(7), item(9)]);
    expect(withoutItem(list, item(3, { finish: "Light Oak" }))).toEqual(list);
    expect(withoutIndex(list, 0)).toEqual([item(7), item(3, { material: "Wood" }), item(9)]);
    expect(withoutIndex(list, 9)).toEqual(list);
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

  it("changes one line's choices, by its place", () => {
    const list = updated([item(3), item(7), item(7, { finish: "Charcoal" })], 1, { quantity: 4, note: "for the veranda" });
    expect(list[0]).toEqual(item(3));
    expect(list[1]).toEqual({ productId: 7, material: "Wood", finish: "Walnut", quantity: 4, note: "for the veranda" });
    expect(list[2]).toEqual(item(7, { finish: "Charcoal" }));
  });

  it("finds the line a change of options would repeat", () => {
    const list = [item(3), item(7), item(3, { material: "Wood" })];
    expect(repeatedBy(list, 2, { material: "Metal" })).toBe(0);
    expect(repeatedBy(list, 2, { finish: "Light Oak" })).toBe(-1);
    expect(repeatedBy(list, 0, { note: "x" } as Partial<ShortlistItem>)).toBe(-1);
    expect(repeatedBy(list, 1, { finish: "Charcoal" })).toBe(-1);
  });

  it("tells the same pieces, choices and quantities apart from others, notes aside", () => {
    expect(samePieces([item(3), item(7)], [item(3), item(7, { note: "x" })])).toBe(true);
    expect(samePieces([item(3), item(7)], [item(7), item(3)])).toBe(false);
    expect(samePieces([item(3)], [item(3, { quantity: 2 })])).toBe(false);
    expect(samePieces([item(3)], [])).toBe(false);
  });
});

describe("what is stored", () => {
  it("is versioned JSON, read back as it was written, two lines of one product included", () => {
    const list = [item(3, { quantity: 2, note: "two, please" }), item(7), item(3, { material: "Wood" })];
    const raw = serialize(list);
    expect(JSON.parse(raw)).toEqual({ version: 1, items: list });
    expect(parseStored(raw)).toEqual(list);
  });

  it("from before lines (one item a product, as the site stored it then) reads as the same lines", () => {
    const before = '{"version":1,"items":[{"productId":3,"material":"Wood","finish":"Light Oak","quantity":2,"note":"two, please"},{"productId":7,"material":"Wood","finish":"Walnut","quantity":1,"note":""}]}';
    const { items, dropped } = checkItems(parseStored(before)!, products);
    expect(items).toEqual([item(3, { material: "Wood", finish: "Light Oak", quantity: 2, note: "two, please" }), item(7)]);
    expect(dropped).toEqual({ pieces: 0, choices: 0 });
    // Adding the same product in another finish now makes a second line.
    expect(withItem(items, newItem(products[0]!, "Wood", "Black"))).toHaveLength(3);
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

  it("keeps the same product in other options as lines of their own", () => {
    const lines = [item(3), item(7), item(3, { material: "Wood", finish: "Light Oak", quantity: 2, note: "oak" })];
    expect(checkItems(lines, products)).toEqual({ items: lines, dropped: { pieces: 0, choices: 0 } });
  });

  it("adds a line that repeats an earlier one to it: quantities summed within the limit, notes joined", () => {
    const { items, dropped } = checkItems([item(3, { note: "hall" }), item(7), item(3, { quantity: 5, note: "porch" })], products);
    expect(items).toEqual([item(3, { quantity: 6, note: "hall; porch" }), item(7)]);
    expect(dropped).toEqual({ pieces: 0, choices: 0 });
    // Options put back to the first can make a repeat: it is added all the same.
    const back = checkItems([item(7, { quantity: 998 }), { ...item(7), finish: "Gold", quantity: 3 }], products);
    expect(back.items).toEqual([item(7, { quantity: MAX_QUANTITY })]);
    expect(back.dropped).toEqual({ pieces: 0, choices: 1 });
  });

  it("keeps at most MAX_ITEMS lines", () => {
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

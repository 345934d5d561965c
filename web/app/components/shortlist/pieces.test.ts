import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { lineName, shortlistSize, thesePieces } from "./pieces";

// The table the server is tested on too (internal/enquiry TestPiecesOf):
// the shortlist page says a shortlist's size as the inbox and the mails do.
const table: { cases: { items: [number, number][]; says: string }[] } = JSON.parse(
  readFileSync(new URL("../../../../contracts/cases/enquiry-pieces.json", import.meta.url), "utf8"),
);

describe("a shortlist's size is said as the server says it", () => {
  it.each(table.cases.map((c) => [c.says, c] as const))("%s", (_, c) => {
    expect(shortlistSize(c.items.map(([productId, quantity]) => ({ productId, quantity })))).toBe(c.says);
  });
});

describe("the pieces in a sentence, and a line's name", () => {
  it("says this piece, or these n pieces, counting the quantities", () => {
    expect(thesePieces([{ quantity: 1 }])).toBe("this piece");
    // One product in two finishes: two pieces, not "1 product, 2 pieces".
    expect(thesePieces([{ quantity: 1 }, { quantity: 1 }])).toBe("these 2 pieces");
    expect(thesePieces([{ quantity: 3 }])).toBe("these 3 pieces");
  });

  it("names a line by its product, with its options where the product has another line", () => {
    const byId = new Map([
      [3, { name: "Marwar chair" }],
      [7, { name: "Jali screen" }],
    ]);
    const lines = [
      { productId: 3, material: "Metal", finish: "Black" },
      { productId: 7, material: "Wood", finish: "Walnut" },
      { productId: 3, material: "Wood", finish: "Black" },
    ];
    expect(lines.map((_, n) => lineName(lines, n, byId))).toEqual(["Marwar chair (Metal, Black)", "Jali screen", "Marwar chair (Wood, Black)"]);
  });
});

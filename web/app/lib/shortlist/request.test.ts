import { describe, expect, it } from "vitest";
import { LIMITS } from "../enquiries";
import { quantityProblem, quantityProblems, quoteRequest, requestFields } from "./request";
import { lineKey, type ShortlistItem } from "./items";

// Pieces and a sender of the test's own.
const items: ShortlistItem[] = [
  { productId: 4, material: "Wood", finish: "Walnut", quantity: 2, note: "  For the reading room  " },
  { productId: 11, material: "Metal", finish: "Black", quantity: 1, note: "   " },
];
const sender = { name: "  Ira Sen ", email: " ira@example.test ", phone: "", message: " By March. " };
const proof = { started: "signed-start", idempotencyKey: "0123456789abcdef0123456789abcdef" };

describe("the quote request's body", () => {
  it("is one quote for every piece, with who asks, trimmed, and what proves it", () => {
    expect(quoteRequest(items, sender, "", proof)).toEqual({
      kind: "quote",
      name: "Ira Sen",
      email: "ira@example.test",
      phone: undefined,
      message: "By March.",
      items: [
        { productId: 4, material: "Wood", finish: "Walnut", quantity: 2, note: "For the reading room" },
        { productId: 11, material: "Metal", finish: "Black", quantity: 1, note: undefined },
      ],
      website: "",
      started: "signed-start",
      idempotencyKey: "0123456789abcdef0123456789abcdef",
    });
  });

  it("is sent as the API reads it: no productId of its own, blank phone and notes left out, the pieces in the shortlist's order", () => {
    const body = JSON.parse(JSON.stringify(quoteRequest(items, { ...sender, phone: " +91 98765 43210 " }, "filled by a bot", { idempotencyKey: "k" })));
    expect(Object.keys(body)).toEqual(["kind", "name", "email", "phone", "message", "items", "website", "idempotencyKey"]);
    expect(body.phone).toBe("+91 98765 43210");
    expect(body.website).toBe("filled by a bot");
    expect(body.items.map((i: { productId: number }) => i.productId)).toEqual([4, 11]);
    expect(body.items[1]).not.toHaveProperty("note");
  });

  it("keeps the shortlist it was given as it was", () => {
    const before = structuredClone(items);
    quoteRequest(items, sender, "", proof);
    expect(items).toEqual(before);
  });
});

describe("the request's fields", () => {
  it("are named as the server names them, each piece's in the order it shows them, then the sender's", () => {
    expect(requestFields(items)).toEqual([
      "items[0].productId",
      "items[0].material",
      "items[0].finish",
      "items[0].quantity",
      "items[0].note",
      "items[1].productId",
      "items[1].material",
      "items[1].finish",
      "items[1].quantity",
      "items[1].note",
      "items",
      "name",
      "email",
      "phone",
      "message",
    ]);
    expect(requestFields([])).toEqual(["items", "name", "email", "phone", "message"]);
  });
});

describe("the quantities as typed", () => {
  it("are whole numbers from 1 to the limit", () => {
    for (const ok of ["1", "12", String(LIMITS.quantity), " 3 "]) expect(quantityProblem(ok)).toBe("");
    for (const wrong of ["", " ", "0", "-1", "2.5", "abc", String(LIMITS.quantity + 1)]) expect(quantityProblem(wrong)).toBe(`Say how many: a whole number from 1 to ${LIMITS.quantity}.`);
  });

  it("are checked by the field of their line, the kept quantity standing in for a box not typed in", () => {
    const [walnut, black] = items.map(lineKey);
    expect(quantityProblems(items, {})).toEqual({});
    expect(quantityProblems(items, { [walnut!]: "3", [black!]: "1" })).toEqual({});
    expect(quantityProblems(items, { [black!]: "0" })).toEqual({ "items[1].quantity": quantityProblem("0") });
    expect(quantityProblems(items, { [walnut!]: "", [black!]: "2.5" })).toEqual({
      "items[0].quantity": quantityProblem(""),
      "items[1].quantity": quantityProblem("2.5"),
    });
    // A box of a line no longer in the list (the same product in another finish) is not the request's.
    expect(quantityProblems(items, { [lineKey({ ...items[0]!, finish: "Charcoal" })]: "0" })).toEqual({});
  });
});

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { shortlistSize } from "./pieces";

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

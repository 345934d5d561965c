import { describe, expect, it } from "vitest";
import { resultCountText, searchProducts } from "./search";

// A fixture catalogue: the rule, not today's products.
const products = [
  { id: 1, name: "Marwar", type: "accent chair", category: "Seatings", material: ["Wood"], finish: ["Walnut"] },
  { id: 2, name: "Nest", type: "side table", category: "Tables", material: ["Marble"], finish: ["Travertine"] },
  { id: 3, name: "Drum", type: "side table", category: "Tables", material: ["Cement"], finish: ["Oxidised Brass"] },
  { id: 4, name: "Jharna", type: "lounge chair", category: "Seatings", material: ["Metal"], finish: ["Black"] },
];
const ids = (text: string) => searchProducts(products, text).map((p) => p.id);

describe("search", () => {
  it.each<[string, string, number[]]>([
    ["a name, any case", "MARWAR", [1]],
    ["a type", "side table", [2, 3]],
    ["a category", "seatings", [1, 4]],
    ["a material", "marble", [2]],
    ["a finish", "travertine", [2]],
    ["a substring", "brass", [3]],
    ["surrounding spaces are trimmed", "  jharna  ", [4]],
    ["nothing", "sofa bed", []],
    ["empty text shows nothing", "   ", []],
  ])("%s: %j", (_, text, want) => expect(ids(text)).toEqual(want));

  it.each([
    [0, "No results found"],
    [1, "1 result found"],
    [4, "4 results found"],
  ])("%i → %s", (n, want) => expect(resultCountText(n)).toBe(want));
});

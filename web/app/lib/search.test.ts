import { describe, expect, it } from "vitest";
import { products } from "./catalogue";
import { resultCountText, searchProducts } from "./search";

const ids = (text: string) => searchProducts(products, text).map((p) => p.id);

describe("search (spec, section 5)", () => {
  it.each<[string, string, number[]]>([
    ["a name, any case", "PERENNIAL", [1]],
    ["a type", "side table", [5, 6]],
    ["a category", "seatings", [1, 3, 7, 9]],
    ["a material", "marble", [4]],
    ["a finish", "travertine", [8]],
    ["a substring", "nest", [6]],
    ["surrounding spaces are trimmed", "  yucca  ", [3]],
    ["nothing", "sofa bed", []],
    ["empty text shows nothing", "   ", []],
  ])("%s: %j", (_, text, want) => expect(ids(text)).toEqual(want));

  it.each([
    [0, "No results found"],
    [1, "1 result found"],
    [4, "4 results found"],
  ])("%i → %s", (n, want) => expect(resultCountText(n)).toBe(want));
});

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { CatalogueFile, Synonym } from "./catalogue";
import { resultCountText, searchProducts, searchTerms } from "./search";

// A fixture catalogue: the rule, not today's products.
const products = [
  { id: 1, name: "Marwar", type: "accent chair", category: "Seatings", material: ["Wood"], finish: ["Walnut"], description: "A low chair with a woven seat." },
  { id: 2, name: "Nest", type: "side table", category: "Tables", material: ["Marble"], finish: ["Travertine"], description: "Three tables that nest into one." },
  { id: 3, name: "Drum", type: "side table", category: "Tables", material: ["Cement"], finish: ["Oxidised Brass"], description: "A cast cement drum." },
  { id: 4, name: "Jharna", type: "lounge chair", category: "Seatings", material: ["Metal"], finish: ["Black"], description: "Its back is a jali of bent rods." },
  { id: 5, name: "Diya", type: "pendant lamp", category: "Lighting", material: ["Metal"], finish: ["Black"], description: "A pendant of beaten copper." },
];
const synonyms: Synonym[] = [
  { word: "sofa", finds: ["seating"] },
  { word: "lamp", finds: ["lighting"] },
  { word: "light", finds: ["lighting"] },
  { word: "jaali", finds: ["jali"] },
  { word: "Living  Room", finds: ["lounge chair", "side table"] },
];
const ids = (text: string) => searchProducts(products, text).map((p) => p.id);
const idsWith = (text: string) => searchProducts(products, text, synonyms).map((p) => p.id);

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

  it.each<[string, string, number[]]>([
    ["a word of a description", "woven", [1]],
    ["a word only a description has", "jali", [4]],
  ])("%s: %j", (_, text, want) => expect(ids(text)).toEqual(want));

  it.each<[string, string, number[]]>([
    ["sofa finds the seating", "sofa", [1, 4]],
    ["inside a longer search: sofas", "Sofas", [1, 4]],
    ["lamp finds the lighting", "lamp", [5]],
    ["light finds the lighting", "light", [5]],
    ["jaali finds what jali finds", "jaali", [4]],
    ["a word of several, spaces and case aside", "living room", [2, 3, 4]],
    ["a plural of it", "living rooms", [2, 3, 4]],
    ["the word's own matches stay: Seatings", "seating", [1, 4]],
  ])("a synonym: %s", (_, text, want) => expect(idsWith(text)).toEqual(want));

  it("a synonym counts only when its word is in the search", () => {
    expect(searchTerms("so", synonyms)).toEqual(["so"]);
    expect(searchTerms("a sofa", synonyms)).toEqual(["a sofa", "seating"]);
    expect(idsWith("couch")).toEqual([]);
  });

  it.each([
    [0, "No results found"],
    [1, "1 result found"],
    [4, "4 results found"],
  ])("%i → %s", (n, want) => expect(resultCountText(n)).toBe(want));
});

// The studio's own list (content/catalogue.json, synonyms): each word finds
// at least one piece of the catalogue, and more than the word alone finds,
// so a word left after its pieces are gone (or misspelt) is noticed.
describe("the content's synonyms", () => {
  const catalogue = JSON.parse(readFileSync(new URL("../../../content/catalogue.json", import.meta.url), "utf8")) as CatalogueFile;
  const list = catalogue.synonyms ?? [];
  it.each(list.map((s) => [s.word, s] as const))("%s finds pieces of the catalogue", (_, synonym) => {
    const found = searchProducts(catalogue.products, synonym.word, list);
    expect(found.length, `"${synonym.word}" finds nothing`).toBeGreaterThan(0);
    for (const word of synonym.finds) expect(searchProducts(catalogue.products, word).length, `"${word}", which "${synonym.word}" finds, is in no product`).toBeGreaterThan(0);
  });
});

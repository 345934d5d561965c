import { describe, expect, it } from "vitest";
import {
  DEFAULT_LIST_STATE,
  PAGE_SIZE,
  filterProducts,
  listPath,
  isIndexed,
  listPages,
  listStateOf,
  parseListPath,
  paginate,
  tabNames,
  toggle,
  vocabularyOf,
  type ListState,
  type Vocabulary,
} from "./filters";

type Item = { id: number; category: string; material: string[]; finish: string[] };
const ids = (list: Item[]) => list.map((p) => p.id);
const none: Omit<ListState, "page"> = { category: "All", materials: [], finishes: [] };

const make = (id: number, category: string, material: string[], finish: string[]): Item => ({ id, category, material, finish });

// A small catalogue and its vocabulary, where each rule can be seen on its own.
const vocabulary: Vocabulary = {
  tabs: [
    { name: "Seatings", categories: ["Seatings"] },
    { name: "Tables", categories: ["Tables"] },
    { name: "Partition", categories: ["Partition Storage & Shelves"] },
    { name: "Storage & Shelves", categories: ["Partition Storage & Shelves"] },
  ],
  materials: [
    { name: "Wood", words: ["Wood"] },
    { name: "Metal", words: ["Metal"] },
    { name: "Other", words: ["Cement", "Marble"] },
  ],
  finishes: [
    { name: "Walnut", words: ["Walnut"] },
    { name: "Black", words: ["Black"] },
    { name: "Oxidised", words: ["Oxidised Brass"] },
    { name: "Oak", words: ["Light Oak", "Oak"] },
  ],
};
const sample = [
  make(1, "Seatings", ["Wood"], ["Walnut"]),
  make(2, "Partition Storage & Shelves", ["Metal", "Wood"], ["Oxidised Brass", "Black"]),
  make(3, "Seatings", ["Metal"], ["Black"]),
  make(4, "Tables", ["Marble", "Wood"], ["Statuario Marble", "Light Oak"]),
  make(5, "Tables", ["Cement"], ["Cement"]),
];

describe("filters", () => {
  it.each<[string, Omit<ListState, "page">, number[]]>([
    ["no filter shows everything", none, [1, 2, 3, 4, 5]],
    ["a category", { ...none, category: "Seatings" }, [1, 3]],
    ["a category listed under two tabs shows under the first", { ...none, category: "Partition" }, [2]],
    ["and under the second", { ...none, category: "Storage & Shelves" }, [2]],
    ["a material", { ...none, materials: ["Wood"] }, [1, 2, 4]],
    ["OR within materials", { ...none, materials: ["Wood", "Metal"] }, [1, 2, 3, 4]],
    ["an option stands for its words (Other: cement, marble)", { ...none, materials: ["Other"] }, [4, 5]],
    ["a finish option with two words (Oak: Light Oak, Oak)", { ...none, finishes: ["Oak"] }, [4]],
    ["Oxidised stands for Oxidised Brass", { ...none, finishes: ["Oxidised"] }, [2]],
    ["OR within finishes", { ...none, finishes: ["Walnut", "Black"] }, [1, 2, 3]],
    ["AND across material and finish", { ...none, materials: ["Metal"], finishes: ["Black"] }, [2, 3]],
    ["AND across category, material and finish", { category: "Seatings", materials: ["Metal"], finishes: ["Black"] }, [3]],
    ["nothing matches", { category: "Tables", materials: ["Metal"], finishes: [] }, []],
  ])("%s", (_, state, want) => {
    expect(ids(filterProducts(sample, state, vocabulary))).toEqual(want);
  });

  it("the catalogue's words make the vocabulary: a category with tabs is under each of them", () => {
    const made = vocabularyOf({
      categories: [{ name: "Seatings" }, { name: "Tables" }, { name: "Partition Storage & Shelves", tabs: ["Partition", "Storage & Shelves"] }],
      filters: {
        material: { Wood: ["Wood"], Metal: ["Metal"], Other: ["Cement", "Marble"] },
        finish: { Walnut: ["Walnut"], Black: ["Black"], Oxidised: ["Oxidised Brass"], Oak: ["Light Oak", "Oak"] },
      },
    });
    expect(made).toEqual(vocabulary);
  });

  it("the tabs are All, then the catalogue's, in its order", () => {
    expect(tabNames(vocabulary)).toEqual(["All", "Seatings", "Tables", "Partition", "Storage & Shelves"]);
  });
});

describe("pagination (6 per page)", () => {
  const items = Array.from({ length: 10 }, (_, i) => i + 1);
  it("has the spec's page size", () => expect(PAGE_SIZE).toBe(6));
  it.each([
    [1, [1, 2, 3, 4, 5, 6], 1],
    [2, [7, 8, 9, 10], 2],
    [3, [7, 8, 9, 10], 2], // past the end: the last page
    [0, [1, 2, 3, 4, 5, 6], 1],
    [-4, [1, 2, 3, 4, 5, 6], 1],
  ])("page %i", (page, want, current) => {
    const result = paginate(items, page);
    expect(result.items).toEqual(want);
    expect(result.page).toBe(current);
    expect(result.pageCount).toBe(2);
  });
  it("an empty list has one empty page", () => {
    expect(paginate([], 1)).toEqual({ items: [], page: 1, pageCount: 1 });
  });
});

describe("the list's state in the URL", () => {
  const stateOf = (url: string) => {
    const [path, query = ""] = url.split("?");
    return listStateOf(path!.replace(/^\/products\/?/, ""), new URLSearchParams(query), vocabulary);
  };
  it("round-trips: category, one material, one finish and page in the path", () => {
    const state: ListState = { category: "Tables", materials: ["Other"], finishes: ["Oak"], page: 2 };
    expect(listPath(state)).toBe("/products/tables/material/other/finish/oak/page/2");
    expect(stateOf(listPath(state))).toEqual(state);
  });
  it("round-trips: two or more of a filter's options go in the query", () => {
    const state: ListState = { category: "Tables", materials: ["Wood", "Other"], finishes: ["Oak"], page: 2 };
    expect(listPath(state)).toBe("/products/tables/finish/oak/page/2?material=Wood&material=Other");
    expect(stateOf(listPath(state))).toEqual(state);
  });
  it("the default state is /products", () => {
    expect(listPath(DEFAULT_LIST_STATE)).toBe("/products");
    expect(stateOf("/products")).toEqual(DEFAULT_LIST_STATE);
    expect(listPath({ ...DEFAULT_LIST_STATE, page: 3 })).toBe("/products/page/3");
    expect(listPath({ ...DEFAULT_LIST_STATE, finishes: ["Black"] })).toBe("/products/finish/black");
  });
  it("a tab's name becomes its path: Storage & Shelves is storage-shelves", () => {
    expect(listPath({ ...DEFAULT_LIST_STATE, category: "Storage & Shelves" })).toBe("/products/storage-shelves");
    expect(stateOf("/products/storage-shelves")?.category).toBe("Storage & Shelves");
  });
  it("a path that is not the list's is null", () => {
    const wrong = ["beds", "page/1", "page/0", "page/x", "tables/page", "tables/page/2/more", "page/2/tables", "material", "material/gold", "finish/oak/material/wood", "tables/material/wood/material/metal", "material/wood/tables"];
    for (const rest of wrong) expect(parseListPath(rest, vocabulary), rest).toBeNull();
  });
  it("the query's options win over the path's", () => {
    expect(stateOf("/products/material/wood?material=Metal&material=Other")?.materials).toEqual(["Metal", "Other"]);
  });
  it("still reads the older ?category=…&page=…, and ignores values that are not options", () => {
    expect(stateOf("/products?category=Tables&page=2")).toEqual({ ...DEFAULT_LIST_STATE, category: "Tables", page: 2 });
    expect(stateOf("/products?category=Beds&material=Gold&finish=Black&page=x")).toEqual({
      category: "All",
      materials: [],
      finishes: ["Black"],
      page: 1,
    });
  });
  it("lists every tab alone and with one material, one finish or one of each, with their pages", () => {
    const items = [make(1, "Tables", ["Wood"], ["Black"]), ...Array.from({ length: PAGE_SIZE }, (_, i) => make(i + 2, "Seatings", ["Metal"], []))];
    const pages = listPages(items, vocabulary);
    const tabs = 1 + vocabulary.tabs.length;
    const combinations = tabs * (1 + vocabulary.materials.length) * (1 + vocabulary.finishes.length);
    // One list has a second page: all products.
    expect(pages).toHaveLength(combinations + 1);
    expect(new Set(pages.map((p) => p.path)).size).toBe(pages.length);
    expect(pages.filter((p) => p.path.includes("/page/")).map((p) => p.path)).toEqual(["/products/page/2"]);
    // Indexed: the lists with products and at most one of material and finish.
    expect(pages.filter((p) => p.indexed).map((p) => p.path)).toEqual([
      "/products",
      "/products/page/2",
      "/products/finish/black",
      "/products/material/wood",
      "/products/material/metal",
      "/products/seatings",
      "/products/seatings/material/metal",
      "/products/tables",
      "/products/tables/finish/black",
      "/products/tables/material/wood",
    ]);
    for (const p of pages) expect(stateOf(p.path), p.path).not.toBeNull();
  });
  it("a list is indexed when it shows products and narrows by at most one filter", () => {
    expect(isIndexed({ ...DEFAULT_LIST_STATE, materials: ["Wood"] }, 1)).toBe(true);
    expect(isIndexed({ ...DEFAULT_LIST_STATE, materials: ["Wood"] }, 0)).toBe(false);
    expect(isIndexed({ ...DEFAULT_LIST_STATE, materials: ["Wood"], finishes: ["Oak"] }, 1)).toBe(false);
  });
  it("toggle adds and removes, in the options' order", () => {
    expect(toggle(vocabulary.materials, ["Other"], "Wood")).toEqual(["Wood", "Other"]);
    expect(toggle(vocabulary.materials, ["Wood", "Other"], "Wood")).toEqual(["Other"]);
  });
});

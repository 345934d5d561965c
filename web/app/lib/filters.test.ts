import { describe, expect, it } from "vitest";
import { products, type Product } from "./catalogue";
import {
  CATEGORIES,
  DEFAULT_LIST_STATE,
  FINISHES,
  MATERIALS,
  PAGE_SIZE,
  filterProducts,
  listStateToParams,
  paginate,
  parseListState,
  toggle,
  type ListState,
} from "./filters";

const ids = (list: Product[]) => list.map((p) => p.id);
const none: Omit<ListState, "page"> = { category: "All", materials: [], finishes: [] };

const make = (id: number, category: string, material: string[], finish: string[]): Product => ({
  id,
  name: `P${id}`,
  type: "t",
  category,
  material,
  finish,
  image: "",
  description: "",
});

// A small catalogue where each rule can be seen on its own.
const sample = [
  make(1, "Seatings", ["Wood"], ["Walnut"]),
  make(2, "Partition Storage & Shelves", ["Metal", "Wood"], ["Oxidised Brass", "Black"]),
  make(3, "Seatings", ["Metal"], ["Black"]),
  make(4, "Tables", ["Marble", "Wood"], ["Statuario Marble", "Light Oak"]),
  make(5, "Tables", ["Cement"], ["Cement"]),
];

describe("filters (spec, section 5)", () => {
  it.each<[string, Omit<ListState, "page">, number[]]>([
    ["no filter shows everything", none, [1, 2, 3, 4, 5]],
    ["a category", { ...none, category: "Seatings" }, [1, 3]],
    ["the Partition tab matches by substring", { ...none, category: "Partition" }, [2]],
    ["the Storage & Shelves tab matches by substring", { ...none, category: "Storage & Shelves" }, [2]],
    ["a material, case-insensitively", { ...none, materials: ["Wood"] }, [1, 2, 4]],
    ["OR within materials", { ...none, materials: ["Wood", "Metal"] }, [1, 2, 3, 4]],
    ["Other is neither wood nor metal", { ...none, materials: ["Other"] }, [4, 5]],
    ["a finish by substring (Oak in Light Oak)", { ...none, finishes: ["Oak"] }, [4]],
    ["Oxidised in Oxidised Brass", { ...none, finishes: ["Oxidised"] }, [2]],
    ["OR within finishes", { ...none, finishes: ["Walnut", "Black"] }, [1, 2, 3]],
    ["AND across material and finish", { ...none, materials: ["Metal"], finishes: ["Black"] }, [2, 3]],
    ["AND across category, material and finish", { category: "Seatings", materials: ["Metal"], finishes: ["Black"] }, [3]],
    ["nothing matches", { category: "Tables", materials: ["Metal"], finishes: [] }, []],
  ])("%s", (_, state, want) => {
    expect(ids(filterProducts(sample, state))).toEqual(want);
  });

  it("no tab and no option of the shipped catalogue is a dead end", () => {
    for (const category of CATEGORIES) expect(filterProducts(products, { ...none, category }).length, category).toBeGreaterThan(0);
    for (const material of MATERIALS) expect(filterProducts(products, { ...none, materials: [material] }).length, material).toBeGreaterThan(0);
    for (const finish of FINISHES) expect(filterProducts(products, { ...none, finishes: [finish] }).length, finish).toBeGreaterThan(0);
  });

  it("the shipped catalogue has the spec's ten products", () => {
    expect(products).toHaveLength(10);
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
  it("round-trips", () => {
    const state: ListState = { category: "Tables", materials: ["Wood", "Other"], finishes: ["Oak"], page: 2 };
    const params = listStateToParams(state);
    expect(params.toString()).toBe("category=Tables&material=Wood&material=Other&finish=Oak&page=2");
    expect(parseListState(params)).toEqual(state);
  });
  it("the default state is an empty query", () => {
    expect(listStateToParams(DEFAULT_LIST_STATE).toString()).toBe("");
    expect(parseListState(new URLSearchParams())).toEqual(DEFAULT_LIST_STATE);
  });
  it("ignores values that are not options", () => {
    expect(parseListState(new URLSearchParams("category=Beds&material=Gold&finish=Black&page=x"))).toEqual({
      category: "All",
      materials: [],
      finishes: ["Black"],
      page: 1,
    });
  });
  it("encodes the ampersand of Storage & Shelves", () => {
    const params = listStateToParams({ ...DEFAULT_LIST_STATE, category: "Storage & Shelves" });
    expect(params.toString()).toBe("category=Storage+%26+Shelves");
    expect(parseListState(new URLSearchParams(params.toString())).category).toBe("Storage & Shelves");
  });
  it("toggle adds and removes, in the options' order", () => {
    expect(toggle(MATERIALS, ["Other"], "Wood")).toEqual(["Wood", "Other"]);
    expect(toggle(MATERIALS, ["Wood", "Other"], "Wood")).toEqual(["Other"]);
  });
});

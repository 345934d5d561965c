import { describe, expect, it } from "vitest";
import type { CatalogueFile, ProductEntry } from "./catalogue";
import table from "../../../contracts/cases/removed-products.json";
import { goneIds, gonePaths, pagePaths } from "./paths";

const product = (id: number, category: string): ProductEntry => ({
  id,
  name: `Piece ${id}`,
  type: "chair",
  category,
  material: ["Wood"],
  finish: ["Walnut"],
  description: "A piece.",
  images: [{ src: `products/${id}.jpg`, alt: "a piece" }],
});

// A small catalogue: two pieces, three removed, one of which (2) a
// product has again, and one (7) listed twice.
const catalogue: Pick<CatalogueFile, "products" | "categories" | "filters" | "removed"> = {
  products: [product(1, "Seatings"), product(2, "Seatings")],
  categories: [{ name: "Seatings" }],
  filters: { material: { Wood: ["Wood"] }, finish: { Walnut: ["Walnut"] } },
  removed: [
    { id: 7, name: "Gone chair", category: "Seatings" },
    { id: 2, name: "Piece 2, once removed", category: "Seatings" },
    { id: 7, name: "Gone chair", category: "Seatings" },
    { id: 9, name: "Gone table", category: "Tables" },
  ],
};

describe("gonePaths", () => {
  it("is each removed product's page and requests, once, unless a product has its id again", () => {
    expect(gonePaths(catalogue)).toEqual(["/product/7", "/product/7/quote", "/product/7/customize", "/product/9", "/product/9/quote", "/product/9/customize"]);
  });

  it("is none of the pages to link to, and none without removed products", () => {
    const pages = pagePaths(catalogue);
    expect(pages).toContain("/product/2");
    for (const path of gonePaths(catalogue)) expect(pages).not.toContain(path);
    expect(gonePaths({ products: catalogue.products })).toEqual([]);
  });
});

// The table the server's rule is tested on too (internal/sitecontent,
// TestRemovedProductsCases): both find the same products gone.
describe("goneIds", () => {
  it("has cases", () => expect(table.cases.length).toBeGreaterThan(0));
  it.each(table.cases.map((c) => [c.case, c] as const))("%s", (_, c) => {
    expect(goneIds(c.catalogue as Pick<CatalogueFile, "products" | "removed">)).toEqual(c.gone);
  });
});

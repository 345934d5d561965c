import type { Picture } from "./picture";

// The catalogue as content/catalogue.json writes it, shared with the Go
// server and the image pipeline (scripts/images.mjs checks it at build time).
export type CatalogueFile = {
  details: { dimensions: string };
  /** In tab order. A category with "tabs" is shown under each of those tabs instead of a tab of its own name. */
  categories: { name: string; tabs?: string[] }[];
  /** Every finish a product may name. */
  finishes: string[];
  /** The filter options, each with the product words it stands for; every material is in one group. */
  filters: { material: Record<string, string[]>; finish: Record<string, string[]> };
  featured: { whatsHot: number[]; fresh: number };
  products: ProductEntry[];
  /** The products taken out of the catalogue: their addresses say so (routes/product.tsx), answered 410 by the server. */
  removed?: RemovedEntry[];
  /** Words visitors search for that the catalogue says otherwise (lib/search.ts). */
  synonyms?: Synonym[];
};

// A search word and the catalogue's words it stands for: "sofa" finds what
// "seating" finds.
export type Synonym = { word: string; finds: string[] };

// A product taken out of the catalogue, as the workspace records it when
// it deletes one. A product given its id again is back, no longer removed.
export type RemovedEntry = Pick<ProductEntry, "id" | "name" | "category">;

export type ProductEntry = {
  id: number;
  name: string;
  type: string;
  category: string;
  material: string[];
  finish: string[];
  description: string;
  /** In gallery order, each relative to content/images/; the first is the product's picture everywhere else. */
  images: { src: string; alt: string }[];
};

// What a request about a product (the quote dialog, analytics) names.
export type ProductSummary = Pick<ProductEntry, "id" | "name" | "type" | "category" | "material" | "finish">;

// What a page needs of a product to show it in a list (grid, What's Hot,
// search, similar products): its first picture, not its gallery.
export type ProductCardData = ProductSummary & {
  image: Picture;
};

// A product page's own product.
export type ProductData = ProductCardData & {
  description: string;
  images: Picture[];
  /** Its 1200×630 link-preview picture. */
  ogImage: string;
};

// Products of the same category, the product itself excluded, at most 12.
export function similarProducts<T extends Pick<ProductEntry, "id" | "category">>(all: readonly T[], product: Pick<ProductEntry, "id" | "category">, max = 12): T[] {
  return all.filter((p) => p.category === product.category && p.id !== product.id).slice(0, max);
}

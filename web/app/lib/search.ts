import type { ProductCardData } from "./catalogue";

type Searchable = Pick<ProductCardData, "name" | "type" | "category" | "material" | "finish">;

// Search: the trimmed text, case-insensitively, as a
// substring of the name, type, category, any material or any finish. An
// empty text matches nothing.
export function searchProducts<T extends Searchable>(products: readonly T[], text: string): T[] {
  const term = text.trim().toLowerCase();
  if (!term) return [];
  return products.filter((p) =>
    [p.name, p.type, p.category, ...p.material, ...p.finish].some((field) => field.toLowerCase().includes(term)),
  );
}

export function resultCountText(count: number): string {
  return count === 0 ? "No results found" : `${count} result${count === 1 ? "" : "s"} found`;
}

// How long a search term must stand before it counts as a search (the
// "search" event is sent once per settled term, not per keystroke).
export const SEARCH_SETTLE_MS = 800;

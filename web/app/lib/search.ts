import type { ProductCardData, Synonym } from "./catalogue";

type Searchable = Pick<ProductCardData, "name" | "type" | "category" | "material" | "finish"> & { description?: string };

// The search's data, one file (/search-index.json, routes/search-index.ts):
// every product as a card with its description, and the catalogue's
// synonyms.
export type SearchCard = ProductCardData & { description: string };
export type SearchIndex = { products: SearchCard[]; synonyms: Synonym[] };

const normal = (text: string) => text.trim().toLowerCase().replace(/\s+/g, " ");

// The texts a search looks for: the text itself, and the words of each
// synonym whose word is in it ("sofas" and "a sofa" find what "seating"
// finds; "living rooms" what "living room" stands for).
export function searchTerms(text: string, synonyms: readonly Synonym[] = []): string[] {
  const term = normal(text);
  if (!term) return [];
  const more = synonyms.filter((s) => term.includes(normal(s.word))).flatMap((s) => s.finds.map(normal));
  return [...new Set([term, ...more])].filter(Boolean);
}

// Search: the trimmed text (or a word a synonym stands for),
// case-insensitively, as a substring of the name, type, category, any
// material or finish, or the description. An empty text matches nothing.
export function searchProducts<T extends Searchable>(products: readonly T[], text: string, synonyms: readonly Synonym[] = []): T[] {
  const terms = searchTerms(text, synonyms);
  if (terms.length === 0) return [];
  return products.filter((p) => {
    const fields = [p.name, p.type, p.category, ...p.material, ...p.finish, p.description ?? ""].map((field) => field.toLowerCase());
    return terms.some((term) => fields.some((field) => field.includes(term)));
  });
}

export function resultCountText(count: number): string {
  return count === 0 ? "No results found" : `${count} result${count === 1 ? "" : "s"} found`;
}

// How long a search term must stand before it counts as a search (the
// "search" event is sent once per settled term, not per keystroke).
export const SEARCH_SETTLE_MS = 800;

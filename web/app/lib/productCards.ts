import type { ProductCardData } from "./catalogue";
import { SEARCH_INDEX_PATH } from "./paths";

// Every product as a card: the site's one file of them (/search-index.json,
// prerendered), fetched once, the first time the search or the products
// list needs it, so no page carries the whole catalogue.
let cards: Promise<ProductCardData[]> | null = null;
export function loadProductCards(): Promise<ProductCardData[]> {
  cards ??= fetch(SEARCH_INDEX_PATH).then((r) => {
    if (!r.ok) throw new Error(`${SEARCH_INDEX_PATH}: HTTP ${r.status}`);
    return r.json() as Promise<ProductCardData[]>;
  });
  cards.catch(() => {
    cards = null; // the next call tries again
  });
  return cards;
}

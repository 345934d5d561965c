import type { ProductCardData } from "./catalogue";
import { SEARCH_INDEX_PATH } from "./paths";
import type { SearchIndex } from "./search";

// Every product as a card, with the search's synonyms: the site's one file
// of them (/search-index.json, prerendered), fetched once, the first time
// the search or the products list needs it, so no page carries the whole
// catalogue.
let index: Promise<SearchIndex> | null = null;
export function loadSearchIndex(): Promise<SearchIndex> {
  index ??= fetch(SEARCH_INDEX_PATH).then((r) => {
    if (!r.ok) throw new Error(`${SEARCH_INDEX_PATH}: HTTP ${r.status}`);
    return r.json() as Promise<SearchIndex>;
  });
  index.catch(() => {
    index = null; // the next call tries again
  });
  return index;
}

export const loadProductCards = (): Promise<ProductCardData[]> => loadSearchIndex().then((i) => i.products);

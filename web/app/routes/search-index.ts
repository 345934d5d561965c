import { searchIndex } from "../lib/catalogue.server";

// /search-index.json, prerendered: what the search overlay matches and
// shows (lib/search.ts, SearchIndex), fetched only when a visitor opens the
// search, or at the first move on the products list (lib/productCards.ts).
export async function loader() {
  return Response.json(searchIndex());
}

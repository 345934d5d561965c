import { productCards } from "../lib/catalogue.server";

// /search-index.json, prerendered: what the search overlay matches and
// shows, fetched only when a visitor opens the search.
export async function loader() {
  return Response.json(productCards());
}

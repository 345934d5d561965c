import type { CatalogueFile } from "./catalogue";
import { listPages, vocabularyOf } from "./filters";

// The site's static routes, in one list used by the route table's prerender
// step (react-router.config.ts) and by the browser tests.
export const staticPaths = [
  "/",
  "/products",
  "/about",
  "/bespoke",
  "/contact-us",
  "/shipping-policy",
  "/terms-conditions",
  "/returns",
  "/privacy-policy",
] as const;

type Catalogue = Pick<CatalogueFile, "products" | "categories" | "filters" | "removed">;

const listPagesOf = (catalogue: Catalogue) => listPages(catalogue.products, vocabularyOf(catalogue)).filter((p) => p.path !== "/products");

// The pages to be found (the sitemap's): the static routes, the product
// list's pages by category and by one material or finish (filters.ts,
// isIndexed), and one per product.
export function indexedPaths(catalogue: Catalogue): string[] {
  const lists = listPagesOf(catalogue).filter((p) => p.indexed);
  return [...staticPaths, ...lists.map((p) => p.path), ...catalogue.products.map((p) => `/product/${p.id}`)];
}

// The pages for visitors only, which say noindex (the server leaves them
// out of the sitemap): the product list by a material and a finish at once
// or with nothing to show, each product's requests for browsers without
// JavaScript, the thank-you pages, and the shortlist (each visitor's own).
export function unindexedPaths(catalogue: Catalogue): string[] {
  return [
    ...listPagesOf(catalogue)
      .filter((p) => !p.indexed)
      .map((p) => p.path),
    ...catalogue.products.flatMap((p) => REQUEST_KINDS.map((kind) => requestPath(p.id, kind))),
    ...THANKS_PATHS,
    SHORTLIST_PATH,
  ];
}

// Every page of the site, each prerendered.
export function pagePaths(catalogue: Catalogue): string[] {
  return [...indexedPaths(catalogue), ...unindexedPaths(catalogue)];
}

// The ids of the products taken out of the catalogue that no product has
// again, each once, in id order (the Go server's rule too: internal/sitecontent,
// stillRemoved; contracts/cases/removed-products.json holds both to it).
export function goneIds(catalogue: Pick<Catalogue, "products" | "removed">): number[] {
  const current = new Set(catalogue.products.map((p) => p.id));
  return [...new Set((catalogue.removed ?? []).map((r) => r.id))].filter((id) => !current.has(id)).sort((a, b) => a - b);
}

// The pages of the products taken out of the catalogue: each one's page and
// its requests', prerendered to say the piece is gone (routes/product.tsx,
// routes/request.tsx), which the server answers with 410 and leaves out of
// the sitemap. Not pages to link to: pagePaths leaves them out.
export function gonePaths(catalogue: Pick<Catalogue, "products" | "removed">): string[] {
  return goneIds(catalogue).flatMap((id) => [`/product/${id}`, ...REQUEST_KINDS.map((kind) => requestPath(id, kind))]);
}

// A product's quote and customisation requests, as pages for browsers
// without JavaScript (routes/request.tsx).
export const REQUEST_KINDS = ["quote", "customize"] as const;
export const requestPath = (id: number, kind: (typeof REQUEST_KINDS)[number]) => `/product/${id}/${kind}`;

// The visitor's shortlist, kept in the browser (routes/shortlist.tsx).
export const SHORTLIST_PATH = "/shortlist";

// Where forms sent without JavaScript lead (internal/server/release.go, thanksPath; the
// server does not start without these pages).
export const THANKS_PATHS = ["/thank-you", "/thank-you/newsletter"];

// The search overlay's data, prerendered as a file beside the pages.
export const SEARCH_INDEX_PATH = "/search-index.json";

// The chat assistant's script, prerendered as a file beside the pages.
export const CHAT_SCRIPT_PATH = "/chat.json";

// An unknown path shows the home page. This path is
// prerendered through the catch-all route; the Go server sends that file,
// with status 404, for every path it does not know.
export const NOT_FOUND_PATH = "/__not-found";

// An unknown product (/product/999) shows the list of products. This path
// is prerendered through the product route, whose loader answers an id of
// no product, removed or not, with 404 and the list (routes/product.tsx);
// the Go server sends that file, with status 404, for every such id. Both
// pages hold their own path in their notice (components/NotFoundNotice),
// which the server replaces with the path asked for.
export const UNKNOWN_PRODUCT_PATH = "/product/__not-found";

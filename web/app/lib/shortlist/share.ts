import { checkItems, type ProductOptions, type ShortlistItem } from "./items";

// A shortlist in a link, which opens the same shortlist in another browser
// with nothing kept on the server: /shortlist?items=3.wood.walnut.2~7..oak.1
//
// - the lines, in order, joined by "~"; each is id.material.finish.quantity
//   (one product in two finishes is two lines: 3..black.1~3..light-oak.1);
// - an option is its name in lower case, each run of characters other than
//   letters and digits written "-" ("Light Oak" is light-oak); an empty one
//   is the product's first option (7..oak is product 7 in its first material);
// - an empty or missing quantity is 1.
//
// With the catalogue's names, a link has only letters, digits and "-", ".",
// "~" (RFC 3986's unreserved characters), so nothing in it is escaped. The
// notes are left out: they can be long, and are the visitor's own.
export const SHARE_PARAM = "items";

export const optionSlug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "");

/** The value of ?items= for a shortlist. */
export function encodeShare(items: readonly ShortlistItem[], products: readonly ProductOptions[]): string {
  const byId = new Map(products.map((p) => [p.id, p]));
  return items
    .map((item) => {
      const product = byId.get(item.productId);
      const option = (options: string[] | undefined, chosen: string) => (options?.[0] === chosen ? "" : optionSlug(chosen));
      return `${item.productId}.${option(product?.material, item.material)}.${option(product?.finish, item.finish)}.${item.quantity}`;
    })
    .join("~");
}

/**
 * The shortlist a link's ?items= describes, checked against the catalogue:
 * unknown products and malformed pieces left out, unknown options back to
 * the product's first, with how many of each (items.ts, checkItems).
 */
export function decodeShare(value: string, products: readonly ProductOptions[]) {
  const byId = new Map(products.map((p) => [p.id, p]));
  const candidates = value
    .split("~")
    .filter((piece) => piece !== "")
    .map((piece) => {
      const [id = "", material = "", finish = "", quantity = ""] = piece.split(".");
      const product = /^\d{1,9}$/.test(id) ? byId.get(Number(id)) : undefined;
      if (!product) return null;
      // An option by its name in the link; one the product does not offer stays as written, for checkItems to count.
      const option = (options: string[], slug: string) => (slug === "" ? options[0] : (options.find((o) => optionSlug(o) === slug) ?? slug));
      return {
        productId: product.id,
        material: option(product.material, material),
        finish: option(product.finish, finish),
        quantity: quantity === "" ? 1 : /^\d{1,9}$/.test(quantity) ? Number(quantity) : NaN,
        note: "",
      };
    });
  return checkItems(candidates, products);
}

/** The link to a shortlist, on this site. */
export const shareUrl = (origin: string, path: string, items: readonly ShortlistItem[], products: readonly ProductOptions[]) =>
  `${origin}${path}?${SHARE_PARAM}=${encodeShare(items, products)}`;

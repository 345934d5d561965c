import type { ProductOptions } from "./items";

// Add to shortlist as a form: /shortlist?add=<id>&material=<name>&finish=<name>,
// the product page's form sends it (so a choice made before the page's
// script runs, or without one, is not lost). The names are the
// catalogue's, as written; one left out or empty is the product's first.
export const ADD_PARAMS = { add: "add", material: "material", finish: "finish" } as const;

/** The line ?add= asks for, checked against the catalogue; or the problem with it, in words. */
export function addedLine<P extends ProductOptions & { name: string }>(
  params: URLSearchParams,
  products: readonly P[],
): { product: P; material: string; finish: string } | { problem: string } {
  const id = params.get(ADD_PARAMS.add)?.trim() ?? "";
  const product = /^\d{1,9}$/.test(id) ? products.find((p) => p.id === Number(id)) : undefined;
  if (!product) return { problem: "The piece you asked to add is not in the catalogue now, so nothing was added." };
  const material = params.get(ADD_PARAMS.material) || product.material[0]!;
  const finish = params.get(ADD_PARAMS.finish) || product.finish[0]!;
  if (!product.material.includes(material)) return { problem: `${product.name} is not made in ${material}, so nothing was added.` };
  if (!product.finish.includes(finish)) return { problem: `${product.name} is not made with a ${finish} finish, so nothing was added.` };
  return { product, material, finish };
}

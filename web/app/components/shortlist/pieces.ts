/** A count of pieces: "1 piece", "3 pieces". */
export const pieces = (n: number) => `${n} ${n === 1 ? "piece" : "pieces"}`;

const products = (n: number) => `${n} ${n === 1 ? "product" : "products"}`;

/**
 * What a shortlist holds, as every place that counts it says it: its
 * pieces, the sum of the quantities, and its products where they are
 * fewer: "1 piece", "3 pieces" (one of each of three products), "2
 * products, 7 pieces"; one product in two materials is one product. The
 * studio's inbox and mails say the same (internal/enquiry PiecesOf, tested
 * on the same table, contracts/cases/enquiry-pieces.json).
 */
export function shortlistSize(items: readonly { productId: number; quantity: number }[]): string {
  const total = items.reduce((sum, i) => sum + i.quantity, 0);
  const kinds = new Set(items.map((i) => i.productId)).size;
  return total === kinds ? pieces(total) : `${products(kinds)}, ${pieces(total)}`;
}

/** The pieces a link or a request holds, in a sentence: "this piece", "these 3 pieces". */
export function thesePieces(items: readonly { quantity: number }[]): string {
  const total = items.reduce((sum, i) => sum + i.quantity, 0);
  return total === 1 ? "this piece" : `these ${pieces(total)}`;
}

/**
 * A line's name where the visitor reads or hears it (buttons, what is
 * said): the product's, with its material and finish where another line
 * has the same product, so two lines of one product are told apart.
 */
export function lineName(items: readonly { productId: number; material: string; finish: string }[], index: number, byId: ReadonlyMap<number, { name: string }>): string {
  const line = items[index]!;
  const name = byId.get(line.productId)?.name ?? "";
  const shared = items.some((other, n) => n !== index && other.productId === line.productId);
  return shared ? `${name} (${line.material}, ${line.finish})` : name;
}

/** A count of pieces: "1 piece", "3 pieces". */
export const pieces = (n: number) => `${n} ${n === 1 ? "piece" : "pieces"}`;

const products = (n: number) => `${n} ${n === 1 ? "product" : "products"}`;

/**
 * What a shortlist holds, as every place that counts it says it: its
 * pieces, the sum of the quantities, and its products where they are
 * fewer: "1 piece", "3 pieces" (one of each of three products), "2
 * products, 7 pieces". The studio's inbox and mails say the same
 * (internal/enquiry PiecesOf).
 */
export function shortlistSize(items: readonly { quantity: number }[]): string {
  const total = items.reduce((sum, i) => sum + i.quantity, 0);
  return total === items.length ? pieces(total) : `${products(items.length)}, ${pieces(total)}`;
}

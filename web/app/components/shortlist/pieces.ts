/** A count of pieces, as the shortlist page says it: "1 piece", "3 pieces". */
export const pieces = (n: number) => `${n} ${n === 1 ? "piece" : "pieces"}`;

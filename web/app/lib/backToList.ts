// "Back to Products" on a product page: the list the visitor came from (its
// filters and page), and, when they came from it in this tab, how many
// steps back it is, so the link returns to it as the browser's Back does
// (the place on the page kept, no new entry for Back to step through).
// The card's link leaves this in the product page's history entry.

/** What a product card's link leaves in the product page's history entry. */
export type FromList = { from: string; fromIdx?: number };

/**
 * The entry for a product opened from the list at `from`: with the list's
 * place in this tab's history (React Router keeps it as history.state.idx),
 * read when the card is drawn, so it is the list's own entry.
 */
export function fromList(from: string): FromList {
  const idx: unknown = typeof window === "undefined" ? undefined : window.history.state?.idx;
  return { from, fromIdx: typeof idx === "number" ? idx : undefined };
}

/** The list's address from a product page's entry, or the whole list's. */
export const listAddress = (state: unknown, all: string): string => {
  const from = (state as Partial<FromList> | null)?.from;
  return typeof from === "string" && from.startsWith("/") && !from.startsWith("//") ? from : all;
};

/** How many steps back the list is (a negative number), or null when it is not behind this entry in this tab. */
export function stepsBackToList(state: unknown, currentIdx: unknown): number | null {
  const fromIdx = (state as Partial<FromList> | null)?.fromIdx;
  if (typeof fromIdx !== "number" || typeof currentIdx !== "number" || fromIdx >= currentIdx) return null;
  return fromIdx - currentIdx;
}

import { useSyncExternalStore } from "react";

// The shortlist as this browser keeps it: one localStorage key holding
// versioned JSON, {"version": 1, "items": [{productId, material, finish,
// quantity, note}]}, one item a line (a product in one material and one
// finish: the same product may be on two lines). Lists stored before lines
// (one item a product) have the same form, so they read as they are. This
// module is in every page's first load (the header's count, the Add to
// shortlist buttons), so it only reads which lines are in it; changing it
// is items.ts's, loaded on demand.
export const SHORTLIST_KEY = "studio.shortlist";
export const SHORTLIST_VERSION = 1;
const CHANGED = "studio:shortlist";
const NO_PIECES: readonly SavedPiece[] = [];

/** A line as the header counts it and a button finds it: its product, options and how many. */
export type SavedPiece = { productId: number; material: unknown; finish: unknown; quantity: number };

/** The option a line takes: the one chosen when the product offers it, else the product's first. */
export const offered = (options: readonly string[], chosen: string | undefined) => (chosen && options.includes(chosen) ? chosen : options[0]!);

/** The stored JSON as it is; null when there is none or storage is blocked. */
export function readSavedShortlist(): string | null {
  try {
    return window.localStorage.getItem(SHORTLIST_KEY);
  } catch {
    return null; // storage blocked: an empty shortlist
  }
}

/** The pieces in the stored JSON, unchecked; null when it cannot be read (not JSON, another version). */
export function parseStored(raw: string | null): unknown[] | null {
  if (raw === null) return [];
  try {
    const saved = JSON.parse(raw);
    return saved?.version === SHORTLIST_VERSION && Array.isArray(saved.items) ? saved.items : null;
  } catch {
    return null;
  }
}

// The same arrays while the stored text is the same, as React's store hooks require.
let lastRaw: string | null = null;
let lastPieces = NO_PIECES;
function savedPieces(): readonly SavedPiece[] {
  const raw = readSavedShortlist();
  if (raw !== lastRaw) {
    lastRaw = raw;
    const stored = parseStored(raw);
    lastPieces =
      stored?.map((i) => {
        const { productId, material, finish, quantity } = (i ?? {}) as { productId?: number; material?: unknown; finish?: unknown; quantity?: unknown };
        // Unchecked: a quantity that is not a whole number from 1 counts once (the shortlist page corrects it).
        return { productId: productId as number, material, finish, quantity: Number.isInteger(quantity) && (quantity as number) >= 1 ? (quantity as number) : 1 };
      }) ?? NO_PIECES;
  }
  return lastPieces;
}

/** Calls onChange when this page or another tab changes the shortlist. */
export function subscribeShortlist(onChange: () => void): () => void {
  window.addEventListener("storage", onChange);
  window.addEventListener(CHANGED, onChange);
  return () => {
    window.removeEventListener("storage", onChange);
    window.removeEventListener(CHANGED, onChange);
  };
}

/** Tells this page's readers that items.ts has written the shortlist. */
export const announceShortlistChange = () => window.dispatchEvent(new Event(CHANGED));

/** The shortlist's products and their quantities; none until hydrated, as in the prerendered page. */
export function useShortlistPieces(): readonly SavedPiece[] {
  return useSyncExternalStore(subscribeShortlist, savedPieces, () => NO_PIECES);
}

/** Whether the shortlist has this product in this material and finish; not until hydrated, as in the prerendered page. */
export function useInShortlist(productId: number, material: string, finish: string): boolean {
  const inIt = () => savedPieces().some((p) => p.productId === productId && p.material === material && p.finish === finish);
  return useSyncExternalStore(subscribeShortlist, inIt, () => false);
}

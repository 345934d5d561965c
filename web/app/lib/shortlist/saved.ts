import { useSyncExternalStore } from "react";

// The shortlist as this browser keeps it: one localStorage key holding
// versioned JSON, {"version": 1, "items": [{productId, material, finish,
// quantity, note}]}. This module is in every page's first load (the
// header's count, the Add to shortlist buttons), so it only reads which
// products are in it; changing it is items.ts's, loaded on demand.
export const SHORTLIST_KEY = "studio.shortlist";
export const SHORTLIST_VERSION = 1;
const CHANGED = "studio:shortlist";
const NONE: readonly number[] = [];
const NO_PIECES: readonly SavedPiece[] = [];

/** A piece as the header counts it: its product and how many. */
export type SavedPiece = { productId: number; quantity: number };

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
let lastIds = NONE;
let lastPieces = NO_PIECES;
function savedPieces(): readonly SavedPiece[] {
  const raw = readSavedShortlist();
  if (raw !== lastRaw) {
    lastRaw = raw;
    const stored = parseStored(raw);
    lastPieces =
      stored?.map((i) => {
        const { productId, quantity } = (i ?? {}) as { productId?: number; quantity?: unknown };
        // Unchecked: a quantity that is not a whole number from 1 counts once (the shortlist page corrects it).
        return { productId: productId as number, quantity: Number.isInteger(quantity) && (quantity as number) >= 1 ? (quantity as number) : 1 };
      }) ?? NO_PIECES;
    lastIds = stored ? lastPieces.map((p) => p.productId) : NONE;
  }
  return lastPieces;
}
function savedIds(): readonly number[] {
  savedPieces();
  return lastIds;
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

/** The ids of the products in the shortlist; none until hydrated, as in the prerendered page. */
export function useShortlistIds(): readonly number[] {
  return useSyncExternalStore(subscribeShortlist, savedIds, () => NONE);
}

import { useEffect, useMemo } from "react";
import type { ProductCardData } from "../../lib/catalogue";
import { parseStored } from "../../lib/shortlist/saved";
import { checkItems, droppedNotice, saveShortlist, useSavedShortlist } from "../../lib/shortlist/items";

/**
 * The shortlist this browser keeps, checked against the catalogue: items,
 * the pieces to show; stored, what was read (null when it could not be).
 * What was stored and no longer fits the catalogue is put right once, and
 * said through setNotice.
 */
export function useCheckedShortlist(products: ProductCardData[], setNotice: (notice: string) => void) {
  const raw = useSavedShortlist();
  const stored = useMemo(() => parseStored(raw), [raw]);
  const { items, dropped } = useMemo(() => checkItems(stored ?? [], products), [stored, products]);

  useEffect(() => {
    if (stored === null) {
      setNotice("Your saved shortlist could not be read, so it was started again.");
      saveShortlist([]);
    } else if (dropped.pieces + dropped.choices > 0) {
      setNotice(droppedNotice(dropped, "saved"));
      saveShortlist(items);
    }
  }, [stored, dropped, items, setNotice]);

  return { items, stored };
}

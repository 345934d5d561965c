import { useEffect, useRef } from "react";
import { track } from "../../lib/analytics";
import type { ProductCardData } from "../../lib/catalogue";
import type { ShortlistItem } from "../../lib/shortlist/items";
import { listParams } from "./listParams";

/** The shortlist shown (GA4's view_item_list), once a visit, when it has pieces and what was stored could be read. */
export function useListViewed(items: ShortlistItem[], stored: unknown[] | null, byId: Map<number, ProductCardData>) {
  const viewed = useRef(false);
  useEffect(() => {
    if (viewed.current || items.length === 0 || stored === null) return;
    viewed.current = true;
    track("view_item_list", listParams(items, byId));
  }, [items, stored, byId]);
}

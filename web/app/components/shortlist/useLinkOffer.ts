import { useEffect, useState } from "react";
import { useSearchParams } from "react-router";
import type { ProductCardData } from "../../lib/catalogue";
import { SHARE_PARAM, decodeShare } from "../../lib/shortlist/share";
import { droppedNotice, samePieces, saveShortlist, type ShortlistItem } from "../../lib/shortlist/items";

/**
 * A shared link (?items=): taken at once into an empty shortlist (or one
 * with the same pieces); otherwise offered, for the visitor to choose (the
 * offer, null when there is none). What the link lost is said through
 * setNotice. The address then drops it, so a reload does not ask again.
 */
export function useLinkOffer(products: ProductCardData[], items: ShortlistItem[], setNotice: (notice: string) => void) {
  const [params, setParams] = useSearchParams();
  const linked = params.get(SHARE_PARAM);
  const [offer, setOffer] = useState<ShortlistItem[] | null>(null);

  useEffect(() => {
    if (linked === null) return;
    const fromLink = decodeShare(linked, products);
    const lost = droppedNotice(fromLink.dropped, "link");
    if (fromLink.items.length === 0) setNotice(lost || "The link holds no pieces.");
    else if (items.length === 0 || samePieces(items, fromLink.items)) {
      if (items.length === 0) saveShortlist(fromLink.items);
      setNotice(lost);
    } else {
      setOffer(fromLink.items);
      setNotice(lost);
    }
    setParams((p) => (p.delete(SHARE_PARAM), p), { replace: true, preventScrollReset: true });
    // Only the link's own value starts this; the shortlist it is compared with is read as it is then.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [linked]);

  return [offer, setOffer] as const;
}

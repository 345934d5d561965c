import { useEffect, useRef } from "react";
import type { ProductCardData } from "../../lib/catalogue";
import type { ShortlistItem } from "../../lib/shortlist/items";
import { shortlistSize } from "./pieces";

// A shared link opened over a shortlist of other pieces: the visitor
// chooses which to keep, rather than losing theirs to a click.
export function LinkOffer({ offer, current, byId, onChoose }: { offer: ShortlistItem[]; current: ShortlistItem[]; byId: Map<number, ProductCardData>; onChoose: (list: ShortlistItem[] | null) => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  // Each product once: the same product in two finishes is two lines of one name.
  const names = [...new Set(offer.map((i) => byId.get(i.productId)?.name).filter(Boolean))];
  return (
    <section className="link-offer" aria-labelledby="link-offer">
      <h2 id="link-offer" ref={heading} tabIndex={-1}>
        Open the shortlist in the link?
      </h2>
      <p>
        The link holds {shortlistSize(offer)}: {names.join(", ")}. It would replace the {shortlistSize(current)} in your shortlist.
      </p>
      <div className="link-offer__actions">
        <button type="button" className="button" onClick={() => onChoose(offer)}>
          Replace mine with the link’s
        </button>
        <button type="button" className="button button--ghost" onClick={() => onChoose(null)}>
          Keep mine
        </button>
      </div>
    </section>
  );
}

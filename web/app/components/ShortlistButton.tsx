import { useState } from "react";
import { itemEventParams, track } from "../lib/analytics";
import type { ProductSummary } from "../lib/catalogue";
import { offered, useInShortlist } from "../lib/shortlist/saved";
import { useHydrated } from "../lib/useHydrated";
import { Icon } from "./Icon";
import "./ShortlistButton.css";

// The code that changes the shortlist, fetched when a visitor reaches for
// the button (and at the latest when it is pressed).
const loadShortlistItems = () => import("../lib/shortlist/items");

type Props = {
  product: ProductSummary;
  /** The options chosen on the product page; a card adds the product's first. */
  material?: string;
  finish?: string;
  /** An icon over a card's picture, named with the product, rather than a button with its words. */
  compact?: boolean;
  /**
   * Where the button, as a submit button of the product page's options
   * form, adds the piece before the scripts run (or without them):
   * /shortlist?add=<id>&material=…&finish=…. With them it toggles here.
   */
  formAction?: string;
};

// Add to shortlist: a toggle button whose name stays the same and whose
// aria-pressed says whether the piece, in the options chosen (a card: the
// product's first), is in the shortlist; pressed again, it takes that line
// out. The same product in other options is another line, left as it is. It needs the script: until it runs the button
// keeps its place unseen, so nothing moves when it appears. The code that
// changes the shortlist loads when the button is reached for.
export function ShortlistButton({ product, material, finish, compact = false, formAction }: Props) {
  const hydrated = useHydrated();
  const chosenMaterial = offered(product.material, material);
  const chosenFinish = offered(product.finish, finish);
  const inShortlist = useInShortlist(product.id, chosenMaterial, chosenFinish);
  const [refused, setRefused] = useState("");
  const toggle = () =>
    loadShortlistItems()
      .then((shortlist) => {
        const outcome = shortlist.setInShortlist(product, !inShortlist, chosenMaterial, chosenFinish);
        setRefused(outcome === "full" || outcome === "blocked" ? shortlist.REFUSED[outcome] : "");
        if (outcome !== "saved") return; // refused, or added already (in another tab)
        track(inShortlist ? "remove_from_wishlist" : "add_to_wishlist", itemEventParams(product));
      })
      .catch(() => {}); // offline before the code came: the next press tries again
  return (
    <>
      <button
        type={formAction ? "submit" : "button"}
        formAction={formAction}
        name={formAction && "add"}
        value={formAction && product.id}
        className={compact ? "icon-button shortlist-toggle shortlist-toggle--compact" : "button button--ghost shortlist-toggle"}
        aria-pressed={inShortlist}
        aria-label={compact ? `Add ${product.name} to shortlist` : undefined}
        data-waiting={(!hydrated && !formAction) || undefined}
        onPointerEnter={loadShortlistItems}
        onFocus={loadShortlistItems}
        onClick={(event) => {
          event.preventDefault(); // a submit button of the options' form: toggled here, not on /shortlist
          toggle();
        }}
      >
        <Icon name="bookmark" size={compact ? 22 : 20} />
        {!compact && "Add to shortlist"}
      </button>
      {refused && (
        <p className={compact ? "visually-hidden" : "shortlist-toggle__refused"} role="alert">
          {refused}
        </p>
      )}
    </>
  );
}

import { useEffect, useId, useRef, useState } from "react";
import { Dialog } from "../Dialog";
import type { ProductCardData } from "../../lib/catalogue";
import { SHORTLIST_PATH } from "../../lib/paths";
import { shareUrl } from "../../lib/shortlist/share";
import type { ShortlistItem } from "../../lib/shortlist/items";
import { thesePieces } from "./pieces";

// Copy link: the shortlist in an address (lib/shortlist/share.ts), put on
// the clipboard; where the browser will not allow that (an older one, or a
// page not served over HTTPS), a dialog shows the address to copy by hand.
export function ShareLink({ items, products }: { items: ShortlistItem[]; products: ProductCardData[] }) {
  const [copied, setCopied] = useState("");
  const [shown, setShown] = useState("");
  const headingId = useId();
  const address = useRef<HTMLInputElement>(null);
  // The address selected, ready to copy (the dialog, opening, would focus its close button first).
  useEffect(() => {
    if (shown) address.current?.focus();
  }, [shown]);
  const copy = () => {
    const url = shareUrl(window.location.origin, SHORTLIST_PATH, items, products);
    const copying = navigator.clipboard?.writeText(url) ?? Promise.reject(new Error("no clipboard"));
    copying.then(
      () => setCopied(`Link copied. It opens ${thesePieces(items)}, with their choices and quantities (not your notes), on any device.`),
      () => setShown(url),
    );
  };
  return (
    <div className="share">
      <button type="button" className="button button--ghost button--small" onClick={copy}>
        Copy link
      </button>
      <p className="share__copied" role="status">
        {copied}
      </p>
      <Dialog open={shown !== ""} onClose={() => setShown("")} labelledBy={headingId} className="share-dialog">
        <div className="share-dialog__content">
          <h2 id={headingId}>Copy the link to your shortlist</h2>
          <p id={`${headingId}-hint`}>This browser would not copy it for you. Select the address and copy it; it opens the same pieces, with their choices and quantities, on any device.</p>
          <div className="field share-dialog__url">
            <input readOnly value={shown} aria-labelledby={headingId} aria-describedby={`${headingId}-hint`} onFocus={(e) => e.currentTarget.select()} ref={address} />
          </div>
          <button type="button" className="button" onClick={() => setShown("")}>
            Done
          </button>
        </div>
      </Dialog>
    </div>
  );
}

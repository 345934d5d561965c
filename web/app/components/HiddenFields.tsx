import { useLocation } from "react-router";

// The hidden fields of the site's forms: the honeypot, and what a form
// sent without JavaScript tells the server besides what was typed.

/** The honeypot field: hidden from people by CSS and from screen readers. */
export function Honeypot({ name = "website" }: { name?: string }) {
  return (
    <div className="enquiry-trap" aria-hidden="true">
      <label>
        Leave this field empty
        <input type="text" name={name} tabIndex={-1} autoComplete="off" defaultValue="" />
      </label>
    </div>
  );
}

/**
 * What a form sent without JavaScript tells the server besides its fields:
 * its kind (and product), and the page it is on, which the server shows
 * again with the problems if something needs another look.
 */
export function FormPost({ kind, productId }: { kind?: string; productId?: number }) {
  const { pathname } = useLocation();
  return (
    <>
      {kind && <input type="hidden" name="kind" value={kind} />}
      {productId !== undefined && <input type="hidden" name="productId" value={productId} />}
      <input type="hidden" name="page" value={pathname} />
    </>
  );
}

import { useState } from "react";
import { itemEventParams, track } from "../lib/analytics";
import type { ProductSummary } from "../lib/catalogue";
import type { QuoteKind } from "../lib/enquiries";
import { requestPath } from "../lib/paths";
import { onDemand } from "../lib/onDemand";
import { useHydrated } from "../lib/useHydrated";
import { useIdlePrefetch } from "../lib/useIdlePrefetch";

type Props = {
  kind: QuoteKind;
  /** Absent for a bespoke enquiry that starts from no product. */
  product?: ProductSummary;
  material?: string;
  finish?: string;
  className?: string;
  /**
   * The submit button of the product page's options form, which leads to
   * the request's own page with the chosen options before the scripts run
   * (or without them); with them, it opens the dialog instead.
   */
  submit?: boolean;
  children: React.ReactNode;
};

// The dialog's code is not in the page's first load: it is fetched when
// the browser is idle, or on the press (lib/onDemand).
const quoteDialog = onDemand(() => import("./QuoteDialog"));

// The button that starts a quote or customisation request. It tracks
// quote_request: the product, with [material, finish] for a quote or
// 'Custom Request' for a customisation; then it opens the quote dialog,
// prefilled.
export function QuoteDialogTrigger({ kind, product, material, finish, className = "button", submit = false, children }: Props) {
  const [open, setOpen] = useState(false);
  const hydrated = useHydrated();
  const [wanted, setWanted] = useState(false);
  useIdlePrefetch(quoteDialog.load);
  const QuoteDialog = quoteDialog.loaded();

  const onClick = (event: React.MouseEvent) => {
    event.preventDefault(); // a submit button: the dialog, not the page
    const options = kind === "quote" ? [material, finish] : "Custom Request";
    track(
      "quote_request",
      product
        ? itemEventParams(product, { product_id: product.id, product_name: product.name, options })
        : { currency: "INR", options },
    );
    setOpen(true);
    if (quoteDialog.loaded()) setWanted(true);
    else quoteDialog.load().then(() => setWanted(true), () => setOpen(false)); // offline: the button stays as it was
  };
  // Before the scripts run (or without them) it leads to the request's own
  // page, which works as a plain form: a submit button of the options'
  // form, which carries them there, or a link (a bespoke request from no
  // product: the contact form).
  const dialog = wanted && QuoteDialog && <QuoteDialog open={open} onClose={() => setOpen(false)} kind={kind} product={product} material={material} finish={finish} />;
  if (submit && product) {
    return (
      <>
        <button
          type="submit"
          formAction={requestPath(product.id, kind)}
          className={className}
          aria-haspopup={hydrated ? "dialog" : undefined}
          onClick={hydrated ? onClick : undefined}
          onPointerEnter={quoteDialog.prefetch}
          onFocus={quoteDialog.prefetch}
        >
          {children}
        </button>
        {dialog}
      </>
    );
  }
  if (!hydrated) {
    return (
      <a className={className} href={product ? requestPath(product.id, kind) : "/contact-us"}>
        {children}
      </a>
    );
  }
  return (
    <>
      <button type="button" className={className} aria-haspopup="dialog" onClick={onClick} onPointerEnter={quoteDialog.prefetch} onFocus={quoteDialog.prefetch}>
        {children}
      </button>
      {dialog}
    </>
  );
}

import { itemEventParams, track } from "../lib/analytics";
import type { Product } from "../lib/catalogue";

export type QuoteKind = "quote" | "customize";

type Props = {
  kind: QuoteKind;
  /** Absent for a bespoke enquiry that starts from no product. */
  product?: Product;
  material?: string;
  finish?: string;
  className?: string;
  children: React.ReactNode;
};

// The button that starts a quote or customisation request. It tracks
// quote_request: the product, with [material, finish] for a quote or
// 'Custom Request' for a customisation.
// TODO(enquiries issue): open the quote dialog, prefilled, and post it.
export function QuoteDialogTrigger({ kind, product, material, finish, className = "button", children }: Props) {
  const onClick = () => {
    if (!product) return;
    track(
      "quote_request",
      itemEventParams(product, {
        product_id: product.id,
        product_name: product.name,
        options: kind === "quote" ? [material, finish] : "Custom Request",
      }),
    );
  };
  return (
    <button type="button" className={className} onClick={onClick}>
      {children}
    </button>
  );
}

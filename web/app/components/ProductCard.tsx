import { Link } from "react-router";
import { fromList } from "../lib/backToList";
import type { ProductCardData } from "../lib/catalogue";
import type { Slot } from "../lib/picture";
import { Picture } from "./Picture";
import { ShortlistButton } from "./ShortlistButton";
import "./ProductCard.css";

type Props = {
  product: ProductCardData;
  /** Where the card stands, which decides the picture's sizes. */
  slot?: Slot;
  /** The first cards above the fold load their picture at once; the rest lazily. */
  eager?: boolean;
  /** Where "Back to Products" on the product page returns to. */
  from?: string;
  onSelect?: () => void;
  headingLevel?: "h2" | "h3";
};

// A product in a list: its picture, name and type as one link, and the
// Add to shortlist button over the picture (beside the link, not in it:
// a button inside a link is not allowed).
export function ProductCard({ product, slot = "card", eager = false, from, onSelect, headingLevel: Heading = "h2" }: Props) {
  return (
    <div className="product-card">
      <Link to={`/product/${product.id}`} state={from ? fromList(from) : undefined} className="product-card__link" onClick={onSelect}>
        <Picture className="product-card__image" picture={product.image} slot={slot} priority={eager} decorative />
        <Heading className="product-card__name">{product.name}</Heading>
        <p className="product-card__type">{product.type}</p>
      </Link>
      <ShortlistButton product={product} compact />
    </div>
  );
}

import { Link } from "react-router";
import type { ProductCardData } from "../lib/catalogue";
import type { Slot } from "../lib/picture";
import { Picture } from "./Picture";
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

export function ProductCard({ product, slot = "card", eager = false, from, onSelect, headingLevel: Heading = "h2" }: Props) {
  return (
    <Link to={`/product/${product.id}`} state={from ? { from } : undefined} className="product-card" onClick={onSelect}>
      <Picture className="product-card__image" picture={product.image} slot={slot} priority={eager} decorative />
      <Heading className="product-card__name">{product.name}</Heading>
      <p className="product-card__type">{product.type}</p>
    </Link>
  );
}

import { Link } from "react-router";
import { PRODUCT_IMAGE, type Product } from "../lib/catalogue";
import "./ProductCard.css";

type Props = {
  product: Product;
  /** Images above the fold load at once; the rest lazily. */
  eager?: boolean;
  /** Where "Back to Products" on the product page returns to. */
  from?: string;
  onSelect?: () => void;
  headingLevel?: "h2" | "h3";
};

export function ProductCard({ product, eager = false, from, onSelect, headingLevel: Heading = "h2" }: Props) {
  return (
    <Link to={`/product/${product.id}`} state={from ? { from } : undefined} className="product-card" onClick={onSelect}>
      <img
        className="product-card__image"
        src={product.image}
        alt=""
        width={PRODUCT_IMAGE.width}
        height={PRODUCT_IMAGE.height}
        loading={eager ? "eager" : "lazy"}
        decoding="async"
      />
      <Heading className="product-card__name">{product.name}</Heading>
      <p className="product-card__type">{product.type}</p>
    </Link>
  );
}

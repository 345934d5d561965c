import { Navigate } from "react-router";
import type { Route } from "./+types/product";
import { QuoteDialogTrigger } from "../components/QuoteDialogTrigger";
import { PRODUCT_IMAGE, productById } from "../lib/catalogue";
import { pageMeta } from "../lib/meta";

// The product is looked up by the id in the path, so a shared link or a
// reload works. An unknown id goes to the list (the server redirects too).
export const meta: Route.MetaFunction = ({ params }) => {
  const product = productById(Number(params.id));
  if (!product) return [{ title: "Product not found" }];
  return pageMeta({
    title: `${product.name}, ${product.type}`,
    description: product.description,
    path: `/product/${product.id}`,
    image: product.image,
  });
};

export default function ProductPage({ params }: Route.ComponentProps) {
  const product = productById(Number(params.id));
  if (!product) return <Navigate to="/products" replace />;
  return (
    <article className="container">
      <h1>{product.name}</h1>
      <p>{product.type}</p>
      <img src={product.image} alt={`${product.name}, ${product.type}`} width={PRODUCT_IMAGE.width} height={PRODUCT_IMAGE.height} />
      <p>{product.description}</p>
      <p>
        <QuoteDialogTrigger kind="quote" product={product} material={product.material[0]} finish={product.finish[0]}>
          Get Quote
        </QuoteDialogTrigger>{" "}
        <QuoteDialogTrigger kind="customize" product={product} material={product.material[0]} finish={product.finish[0]} className="button button--ghost">
          Customize
        </QuoteDialogTrigger>
      </p>
    </article>
  );
}

import { Link } from "react-router";
import type { Route } from "./+types/products";
import { PageIntro } from "../components/PageIntro";
import { PRODUCT_IMAGE, products } from "../lib/catalogue";
import { pageMeta } from "../lib/meta";
import { site } from "../lib/site";

export const meta: Route.MetaFunction = () =>
  pageMeta({
    title: "All Products",
    description: `Chairs, tables, partitions and shelves by ${site.name}: furniture made by hand in ${site.city} with wood, metal, stone and cement.`,
    path: "/products",
  });

export default function Products() {
  return (
    <>
      <PageIntro title="All Products">
        Every piece is drawn in our studio and made by hand in {site.city}. Ask for a quote, or for any piece made to
        your size and finish.
      </PageIntro>
      <ul className="container">
        {products.map((p) => (
          <li key={p.id}>
            <Link to={`/product/${p.id}`}>
              <img src={p.image} alt="" width={PRODUCT_IMAGE.width / 4} height={PRODUCT_IMAGE.height / 4} loading="lazy" />
              {p.name}, {p.type}
            </Link>
          </li>
        ))}
      </ul>
    </>
  );
}

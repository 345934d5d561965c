import { Link } from "react-router";
import type { RemovedProduct } from "../../lib/catalogue.server";
import { pageMeta } from "../../lib/meta";
import type { Site } from "../../lib/site";
import { SimilarProducts } from "./SimilarProducts";
import "./product.css";
import "./GoneNotice.css";

const GONE_HEADING = "This piece is no longer in the catalogue";

// A removed product's page is not one to find (noindex; the server leaves
// it out of the sitemap).
export function goneMeta(site: Site, { id, name }: RemovedProduct) {
  return [
    ...pageMeta(site, { title: `${name}: ${GONE_HEADING.toLowerCase()}`, description: `${name}: ${GONE_HEADING.toLowerCase()}.`, path: `/product/${id}` }),
    { name: "robots", content: "noindex" },
  ];
}

// What a removed product's address shows (its page and its requests'),
// which the server answers with 410 Gone: the piece is named, and the
// visitor is led to its category's list and to the pieces like it.
export function GoneNotice({ product }: { product: RemovedProduct }) {
  const { name, category, lists, similar } = product;
  return (
    <div className="gone-page container">
      <h1>{GONE_HEADING}</h1>
      <p className="gone-page__text">
        {name}, of the studio’s {category}, has been taken out of the catalogue and can no longer be ordered. Pieces like it are below, or{" "}
        <Link to="/bespoke">ask for one made to your design</Link>.
      </p>
      <p className="gone-page__links">
        {lists.map((list) => (
          <Link key={list.path} to={list.path} className="button">
            See all {list.name}
          </Link>
        ))}
        <Link to="/products" className={lists.length > 0 ? "button button--ghost" : "button"}>
          See all products
        </Link>
      </p>
      <SimilarProducts items={similar} />
    </div>
  );
}

import { useEffect, useRef, useState } from "react";
import { data } from "react-router";
import type { Route } from "./+types/product";
import { QuoteDialogTrigger } from "../components/QuoteDialogTrigger";
import { ShortlistButton } from "../components/ShortlistButton";
import { Icon } from "../components/Icon";
import { BackToProducts } from "../components/product/BackToProducts";
import { Gallery } from "../components/product/Gallery";
import { SimilarProducts } from "../components/product/SimilarProducts";
import { itemEventParams, track } from "../lib/analytics";
import { GoneNotice, goneMeta } from "../components/product/GoneNotice";
import { UnknownProductBoundary, type UnknownProduct } from "../components/product/UnknownProduct";
import { productData, productDetails, productEntry, productList, removedProduct, similarCards } from "../lib/catalogue.server";
import { notFoundMeta, pageMeta } from "../lib/meta";
import { siteOf, useSite, whatsappUrl } from "../lib/site";
import { whatsappText } from "../lib/whatsapp";
import { SHORTLIST_PATH, requestPath } from "../lib/paths";
import { WhatsappLink } from "../components/WhatsappLink";
import { breadcrumbJsonLd, productJsonLd } from "../lib/structuredData";
import { useEarlyInput } from "../lib/useEarlyInput";
import "../components/product/product.css";

// Runs at build time for every product's path (react-router.config.ts): the
// page carries its own product and its similar products, no other. A
// product taken out of the catalogue has a page saying so (GoneNotice),
// which the server answers with 410 (app/lib/paths.ts, gonePaths).
export async function loader({ params }: Route.LoaderArgs) {
  const id = Number(params.id);
  const entry = productEntry(id);
  if (!entry) {
    const gone = removedProduct(id);
    if (!gone) throw data({ unknownProduct: productList("") } satisfies UnknownProduct, { status: 404, statusText: "Not Found" });
    return { gone };
  }
  return {
    product: productData(entry),
    similar: similarCards(entry),
    details: productDetails(),
  };
}

export const meta: Route.MetaFunction = ({ data, matches }) => {
  const site = siteOf(matches);
  if (!data) return notFoundMeta(site);
  if (data.gone) return goneMeta(site, data.gone);
  const { product } = data;
  return pageMeta(site, {
    title: `${product.name}, ${product.type}`,
    description: product.description,
    path: `/product/${product.id}`,
    ogImage: product.ogImage,
    ogImageAlt: product.images[0]!.alt,
    jsonLd: [productJsonLd(site, product), breadcrumbJsonLd(site, product)],
  });
};

// An unknown product's address: the products list, saying so (404).
export const ErrorBoundary = UnknownProductBoundary;

export default function ProductPage({ loaderData }: Route.ComponentProps) {
  if (loaderData.gone) return <GoneNotice key={loaderData.gone.id} product={loaderData.gone} />;
  // A fresh component per product, so the gallery and options start over.
  return <ProductDetail key={loaderData.product.id} {...loaderData} />;
}

type DetailProps = Exclude<Route.ComponentProps["loaderData"], { gone: object }>;

function ProductDetail({ product, similar, details }: DetailProps) {
  const [material, setMaterial] = useState(product.material[0]!);
  const [finish, setFinish] = useState(product.finish[0]!);
  const site = useSite();

  useEffect(() => {
    track("view_item", itemEventParams(product));
  }, [product]);

  return (
    <div className="product-page container">
      <BackToProducts />

      <div className="product-page__main">
        <Gallery name={product.name} images={product.images} />

        <div className="product-page__info">
          <h1>{product.name}</h1>
          <p className="product-page__type">{product.type}</p>
          <p className="product-page__description">{product.description}</p>

          {/* The options and the actions are one form, so the choice travels
              without scripts (and when pressed before they run): Get Quote
              opens /product/1/quote?material=…&finish=…, Customize and Add to
              shortlist their own addresses with the same query. */}
          <form method="get" action={requestPath(product.id, "quote")} className="product-page__choices">
            <OptionGroup legend="Material" name="material" options={product.material} value={material} onChange={setMaterial} />
            <OptionGroup legend="Finish" name="finish" options={product.finish} value={finish} onChange={setFinish} />

            <dl className="product-page__specs">
              <div>
                <dt>Category</dt>
                <dd>{product.category}</dd>
              </div>
              <div>
                <dt>Type</dt>
                <dd>{product.type}</dd>
              </div>
              <div>
                <dt>Dimensions</dt>
                <dd>{details.dimensions}</dd>
              </div>
              <div>
                <dt>Warranty</dt>
                <dd>{details.warranty}</dd>
              </div>
            </dl>

            <div className="product-page__actions">
              <QuoteDialogTrigger kind="quote" product={product} material={material} finish={finish} submit>
                Get Quote
              </QuoteDialogTrigger>
              <QuoteDialogTrigger kind="customize" product={product} material={material} finish={finish} className="button button--ghost" submit>
                Customize
              </QuoteDialogTrigger>
              <ShortlistButton product={product} material={material} finish={finish} formAction={SHORTLIST_PATH} />
            </div>
          </form>
          <p className="product-page__whatsapp">
            <WhatsappLink href={whatsappUrl(site, whatsappText(site, "ask", product, { material, finish }))} location="product_page">
              <Icon name="whatsapp" size={20} />
              Ask about it on WhatsApp
            </WhatsappLink>
          </p>
        </div>
      </div>

      <SimilarProducts items={similar} />
    </div>
  );
}

type OptionGroupProps = {
  legend: string;
  /** The query parameter the chosen option is sent as. */
  name: "material" | "finish";
  options: string[];
  value: string;
  onChange: (value: string) => void;
};

function OptionGroup({ legend, name, options, value, onChange }: OptionGroupProps) {
  const ref = useRef<HTMLFieldSetElement>(null);
  useEarlyInput(ref, (_, chosen) => onChange(chosen)); // tapped before the scripts ran
  return (
    <fieldset className="option-group" ref={ref}>
      <legend>{legend}</legend>
      <div className="option-group__options">
        {options.map((option) => (
          <label key={option} className="option-group__option">
            <input type="radio" name={name} value={option} checked={option === value} onChange={() => onChange(option)} />
            <span>{option}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

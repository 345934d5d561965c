import { useEffect, useState } from "react";
import { useSearchParams } from "react-router";
import type { Route } from "./+types/products";
import { ProductCard } from "../components/ProductCard";
import { CategoryTabs, tabId } from "../components/products/CategoryTabs";
import { FilterMenu } from "../components/products/FilterMenu";
import { Pagination } from "../components/products/Pagination";
import { itemEventParams, track } from "../lib/analytics";
import { productCards, vocabulary } from "../lib/catalogue.server";
import {
  DEFAULT_LIST_STATE,
  filterProducts,
  listStateToParams,
  paginate,
  parseListState,
  tabNames,
  toggle,
  type ListState,
} from "../lib/filters";
import { pageMeta } from "../lib/meta";
import { site } from "../lib/site";
import { useHydrated } from "../lib/useHydrated";
import { prefersReducedMotion } from "../lib/usePageChange";
import "../components/products/products.css";

export const meta: Route.MetaFunction = () =>
  pageMeta({
    title: "All Products",
    description: `Chairs, tables, partitions and shelves by ${site.name}: furniture made by hand in ${site.city} with wood, metal, stone and cement.`,
    path: "/products",
  });

// Built once, at build time: every product as a card, and the filters'
// words. The page filters and pages through them in the browser.
export async function loader() {
  return { products: productCards(), vocabulary: vocabulary() };
}

const RESULTS_ID = "product-results";

export default function Products({ loaderData: { products, vocabulary } }: Route.ComponentProps) {
  const [searchParams, setSearchParams] = useSearchParams();
  // The prerendered page is page 1 of All; the URL's own state follows
  // once hydrated.
  const hydrated = useHydrated();
  const urlState = hydrated ? parseListState(searchParams, vocabulary) : DEFAULT_LIST_STATE;
  // A change shows at once (a checkbox never flickers back) and is then
  // confirmed by the URL; Back and Forward bring the URL's state.
  const [pending, setPending] = useState<ListState | null>(null);
  useEffect(() => setPending(null), [searchParams]);
  const state = pending ?? urlState;
  const matching = filterProducts(products, state, vocabulary);
  const { items, page, pageCount } = paginate(matching, state.page);

  // A category and a page of results are history entries, so Back returns
  // to the previous one; a material or finish tick replaces the entry, so
  // one Back leaves the list however many boxes were ticked.
  const update = (next: ListState, { replace }: { replace: boolean }) => {
    setPending(next);
    setSearchParams(listStateToParams(next), { preventScrollReset: true, replace });
  };

  const changeFilter = (kind: "category" | "material" | "finish", value: string, next: ListState) => {
    const ticked = kind === "category" || (kind === "material" ? next.materials : next.finishes).includes(value);
    track("filter_usage", {
      filter_type: kind,
      filter_value: value,
      action: ticked ? "add" : "remove",
      result_count: filterProducts(products, next, vocabulary).length,
    });
    update({ ...next, page: 1 }, { replace: kind !== "category" });
  };

  const goToPage = (n: number) => {
    update({ ...state, page: n }, { replace: false });
    window.scrollTo({ top: 0, behavior: prefersReducedMotion() ? "instant" : "smooth" });
  };

  const from = `/products${hydrated && searchParams.size > 0 ? `?${searchParams}` : ""}`;

  return (
    <div className="products-page container">
      <header className="products-page__header">
        <h1>All Products</h1>
        <p>Every piece is drawn in our studio and made by hand in {site.city}. Ask for a quote, or for any piece made to your size and finish.</p>
      </header>

      <div className="products-page__controls">
        <CategoryTabs
          tabs={tabNames(vocabulary)}
          selected={state.category}
          panelId={RESULTS_ID}
          onSelect={(category) => category !== state.category && changeFilter("category", category, { ...state, category })}
        />
        <FilterMenu
          materialOptions={vocabulary.materials}
          finishOptions={vocabulary.finishes}
          materials={state.materials}
          finishes={state.finishes}
          onToggleMaterial={(m) => changeFilter("material", m, { ...state, materials: toggle(vocabulary.materials, state.materials, m) })}
          onToggleFinish={(f) => changeFilter("finish", f, { ...state, finishes: toggle(vocabulary.finishes, state.finishes, f) })}
        />
      </div>

      <section id={RESULTS_ID} role="tabpanel" aria-labelledby={tabId(state.category)} className="products-page__results">
        <p className="visually-hidden" role="status">
          {matching.length} {matching.length === 1 ? "product" : "products"}
        </p>
        {items.length === 0 ? (
          <p className="products-page__empty">No products found matching your filters.</p>
        ) : (
          <ul className="product-grid">
            {items.map((product, index) => (
              <li key={product.id}>
                <ProductCard
                  product={product}
                  eager={index < 3}
                  from={from}
                  onSelect={() =>
                    track("select_item", itemEventParams(product, { item_list_name: "All Products", index: index + 1 }))
                  }
                />
              </li>
            ))}
          </ul>
        )}
      </section>

      {matching.length > 0 && <Pagination page={page} pageCount={pageCount} onPage={goToPage} />}
    </div>
  );
}

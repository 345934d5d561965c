import { useEffect, useRef, useState, type ReactNode } from "react";
import { useLocation, useNavigate, useRevalidator, useSearchParams, type ShouldRevalidateFunctionArgs } from "react-router";
import type { Route } from "./+types/products";
import { ProductCard } from "../components/ProductCard";
import { CategoryTabs } from "../components/products/CategoryTabs";
import { FilterMenu } from "../components/products/FilterMenu";
import { Pagination } from "../components/products/Pagination";
import { itemEventParams, track } from "../lib/analytics";
import type { ProductCardData } from "../lib/catalogue";
import { productList } from "../lib/catalogue.server";
import {
  ALL,
  DEFAULT_LIST_STATE,
  filterProducts,
  isIndexed,
  listPath,
  listStateOf,
  paginate,
  tabNames,
  toggle,
  type ListState,
  type Vocabulary,
} from "../lib/filters";
import { pageMeta } from "../lib/meta";
import { loadProductCards } from "../lib/productCards";
import { siteOf, useSite } from "../lib/site";
import { SAME_PAGE } from "../lib/usePageChange";
import "../components/products/products.css";

// Each address of the list is a page of its own, with its own title,
// description and canonical address (the path: materials and finishes
// chosen two or more at a time, in the query, are left out).
export const meta: Route.MetaFunction = ({ params, data, matches }) => {
  const site = siteOf(matches);
  const state = (data && listStateOf(params["*"] ?? "", new URLSearchParams(), data.vocabulary)) ?? DEFAULT_LIST_STATE;
  const { count, pageCount } = data ? listOf(data, state) : { count: 0, pageCount: 1 };
  const name = listName(state, data?.vocabulary);
  const onPage = state.page > 1 ? `, page ${state.page}` : "";
  const description =
    name === "All Products"
      ? `Chairs, tables, partitions and shelves by ${site.name}: furniture made by hand in ${site.city} with wood, metal, stone and cement.`
      : count === 0
        ? `${name} by ${site.name}: none at present. Ask us, and we will draw and make one by hand in ${site.city}.`
        : `${name} by ${site.name}: ${count} ${count === 1 ? "piece" : "pieces"}, each drawn in our studio and made by hand in ${site.city}.`;
  return [
    ...pageMeta(site, {
      title: `${name}${onPage}`,
      description: state.page > 1 ? `${description} Page ${state.page} of ${pageCount}.` : description,
      path: listPath(state),
    }),
    ...(isIndexed(state, count) ? [] : [{ name: "robots", content: "noindex" }]),
  ];
};

// "Tables in Cement, Stone or Marble with Oak finish": the tab and the
// one material and finish of a list's path, in words.
function listName(state: ListState, v: Vocabulary | undefined): string {
  let name = state.category === ALL ? "All Products" : state.category;
  const words = v?.materials.find((o) => o.name === state.materials[0])?.words ?? [];
  if (state.materials.length === 1 && words.length > 0) name += ` in ${words.slice(0, -1).join(", ")}${words.length > 1 ? " or " : ""}${words.at(-1)}`;
  if (state.finishes.length === 1) name += ` with ${state.finishes[0]} finish`;
  return name;
}

// Built at build time for each address of the list (its path: tab,
// material, finish, page): the filters' words and that address's page of
// cards. Not the whole catalogue: a 300-product site has 720 addresses,
// and the catalogue in each made its build take minutes.
export async function loader({ params }: Route.LoaderArgs) {
  return { ...productList(params["*"] ?? ""), products: null as ProductCardData[] | null };
}

// In the browser, from the first move on (a tick, a tab, a page), the
// whole catalogue joins the data (the site's one file of cards, fetched
// once, lib/productCards), and the list is filtered there and then. Not
// on the first load: the page the build made is the page asked for, and
// its first paint and first input wait for nothing more.
export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  const [data, products] = await Promise.all([serverLoader(), loadProductCards().catch(() => null)]);
  catalogueHere ||= products !== null;
  return { ...data, products };
}
let catalogueHere = false;

// Once the catalogue is here, moving between addresses of the list
// fetches nothing (until then, each move tries again).
export const shouldRevalidate = ({ defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) =>
  !catalogueHere && defaultShouldRevalidate;

export type ListData = Awaited<ReturnType<typeof loader>>;

// The list a state shows: filtered from the whole catalogue when the
// browser has it, else the page the build made for the address.
function listOf(data: ListData, state: ListState) {
  if (!data.products) return data.list;
  const matching = filterProducts(data.products, state, data.vocabulary);
  return { count: matching.length, ...paginate(matching, state.page) };
}

// Without the page's script the options are links, one material and one
// finish at a time: an option replaces its group's choice, or clears it
// when it is the one chosen.
function choose(state: ListState, kind: "material" | "finish", name: string): ListState {
  const key = kind === "material" ? "materials" : "finishes";
  return { ...state, [key]: state[key].includes(name) ? [] : [name], page: 1 };
}

// The history state of a list entry made by ticking filters: the opening
// of the menu whose ticks it holds.
type ListEntryState = typeof SAME_PAGE & { opening: string };

export default function Products({ loaderData, params }: Route.ComponentProps) {
  return <ProductList loaderData={loaderData} rest={params["*"] ?? ""} />;
}

type ListProps = {
  loaderData: ListData;
  /** The list's address after /products/: "tables/page/2". */
  rest: string;
  /** A line above the list shown at an address not its own (an unknown product's: routes/product.tsx). */
  notice?: ReactNode;
};

export function ProductList({ loaderData, rest, notice }: ListProps) {
  const { products, vocabulary } = loaderData;
  const site = useSite();
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  // The prerendered page shows its path's category and page; the query's
  // materials and finishes follow once the catalogue is here.
  const urlState = listStateOf(rest, products ? searchParams : new URLSearchParams(), vocabulary) ?? DEFAULT_LIST_STATE;
  // A tick shows at once (a checkbox never flickers back) and is then
  // confirmed by the URL; Back and Forward bring the URL's state.
  const [pending, setPending] = useState<ListState | null>(null);
  useEffect(() => setPending(null), [location]);
  const state = pending ?? urlState;
  const { count, items, page, pageCount } = listOf(loaderData, state);

  // An address whose query asks for more than its path (two materials at
  // once, say) needs the catalogue at once.
  const revalidator = useRevalidator();
  const needsCatalogue = !products && searchParams.size > 0;
  useEffect(() => {
    if (needsCatalogue) void revalidator.revalidate();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per need, not per revalidator state
  }, [needsCatalogue]);

  // An older address (?category=Tables&page=2, ?material=Wood) is replaced
  // by the list's own (/products/tables/page/2, /products/material/wood).
  useEffect(() => {
    if (notice) return; // an address not the list's: it stays, and the notice says why
    const wanted = listStateOf(rest, searchParams, vocabulary);
    const own = wanted && listPath(wanted);
    if (own && own !== location.pathname + location.search) {
      void navigate(own, { replace: true, preventScrollReset: true, state: SAME_PAGE });
    }
  }, [notice, rest, searchParams, vocabulary, navigate, location.pathname, location.search]);

  const trackFilter = (kind: "category" | "material" | "finish", value: string, next: ListState) => {
    const ticked = kind === "category" || (kind === "material" ? next.materials : next.finishes).includes(value);
    void loadProductCards().then((all) =>
      track("filter_usage", {
        filter_type: kind,
        filter_value: value,
        action: ticked ? "add" : "remove",
        result_count: filterProducts(all, next, vocabulary).length,
      }),
    ).catch(() => undefined); // no catalogue (offline): no count to send
  };

  // A category and a page of results are history entries (links), so Back
  // returns to the previous one. The ticks of one opening of the filter
  // menu make one entry, so one Back returns to the list as it was before
  // them: the first tick pushes an entry marked with the opening, the next
  // replace it while it is the entry shown (after a Back, a tick pushes
  // again rather than overwrite the list Back returned to).
  const opening = useRef<string | null>(null); // named at its first tick; opening or closing the menu ends it
  const tick = (kind: "material" | "finish", value: string, next: ListState) => {
    trackFilter(kind, value, next);
    setPending({ ...next, page: 1 });
    const again = opening.current !== null && (location.state as ListEntryState | null)?.opening === opening.current;
    opening.current ??= Math.random().toString(36).slice(2);
    const state: ListEntryState = { ...SAME_PAGE, opening: opening.current };
    void navigate(listPath({ ...next, page: 1 }), { replace: again, preventScrollReset: true, state });
  };

  return (
    <>
    {notice}
    <div className="products-page container">
      <header className="products-page__header">
        <h1>{state.category === ALL ? "All Products" : state.category}</h1>
        <p>Every piece is drawn in our studio and made by hand in {site.city}. Ask for a quote, or for any piece made to your size and finish.</p>
      </header>

      <div className="products-page__controls">
        <CategoryTabs
          tabs={tabNames(vocabulary)}
          selected={state.category}
          hrefOf={(category) => listPath({ ...state, category, page: 1 })}
          onSelect={(category) => trackFilter("category", category, { ...state, category })}
        />
        <FilterMenu
          materialOptions={vocabulary.materials}
          finishOptions={vocabulary.finishes}
          materials={state.materials}
          finishes={state.finishes}
          hrefOf={(kind, name) => listPath(choose(state, kind, name))}
          onToggleMaterial={(m) => tick("material", m, { ...state, materials: toggle(vocabulary.materials, state.materials, m) })}
          onToggleFinish={(f) => tick("finish", f, { ...state, finishes: toggle(vocabulary.finishes, state.finishes, f) })}
          onOpenChange={() => (opening.current = null)}
        />
      </div>

      <section aria-label="Products" className="products-page__results">
        <p className="visually-hidden" role="status">
          {count} {count === 1 ? "product" : "products"}
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
                  from={listPath(state)}
                  onSelect={() =>
                    track("select_item", itemEventParams(product, { item_list_name: "All Products", index: index + 1 }))
                  }
                />
              </li>
            ))}
          </ul>
        )}
      </section>

      {count > 0 && <Pagination page={page} pageCount={pageCount} hrefOf={(n) => listPath({ ...state, page: n })} />}
    </div>
    </>
  );
}

import type { CatalogueFile, ProductCardData } from "./catalogue";

// The products page's filters (spec, sections 3 and 5), on the words the
// catalogue defines (content/catalogue.json: categories, filters): a tab
// shows the categories that name it, an option the products that have one
// of its words. OR among the values chosen within one filter, AND across
// category, material and finish.

export type Option = { name: string; words: string[] };
export type Vocabulary = {
  /** In order, after "All". */
  tabs: { name: string; categories: string[] }[];
  materials: Option[];
  finishes: Option[];
};

// The filters' words, from the catalogue: the tabs in order (a category
// shows under its own name unless it lists tabs), and each option's words.
export function vocabularyOf(catalogue: Pick<CatalogueFile, "categories" | "filters">): Vocabulary {
  const tabs: Vocabulary["tabs"] = [];
  for (const c of catalogue.categories) {
    for (const name of c.tabs ?? [c.name]) {
      let tab = tabs.find((t) => t.name === name);
      if (!tab) tabs.push((tab = { name, categories: [] }));
      tab.categories.push(c.name);
    }
  }
  const options = (groups: Record<string, string[]>) => Object.entries(groups).map(([name, words]) => ({ name, words }));
  return { tabs, materials: options(catalogue.filters.material), finishes: options(catalogue.filters.finish) };
}

type Filterable = Pick<ProductCardData, "category" | "material" | "finish">;

export const ALL = "All";
export const PAGE_SIZE = 6;

export type ListState = {
  category: string;
  materials: string[];
  finishes: string[];
  page: number;
};

export const DEFAULT_LIST_STATE: ListState = { category: ALL, materials: [], finishes: [], page: 1 };

export const tabNames = (v: Vocabulary) => [ALL, ...v.tabs.map((t) => t.name)];

const chosenWords = (options: Option[], chosen: string[]) =>
  new Set(options.filter((o) => chosen.includes(o.name)).flatMap((o) => o.words));

export function matchesFilters(product: Filterable, state: Omit<ListState, "page">, v: Vocabulary): boolean {
  if (state.category !== ALL && !v.tabs.find((t) => t.name === state.category)?.categories.includes(product.category)) return false;
  const materials = chosenWords(v.materials, state.materials);
  if (state.materials.length > 0 && !product.material.some((m) => materials.has(m))) return false;
  const finishes = chosenWords(v.finishes, state.finishes);
  if (state.finishes.length > 0 && !product.finish.some((f) => finishes.has(f))) return false;
  return true;
}

export function filterProducts<T extends Filterable>(products: readonly T[], state: Omit<ListState, "page">, v: Vocabulary): T[] {
  return products.filter((p) => matchesFilters(p, state, v));
}

export type Page<T> = { items: T[]; page: number; pageCount: number };

// One page of items; a page number past either end is brought back inside.
export function paginate<T>(items: readonly T[], page: number, size = PAGE_SIZE): Page<T> {
  const pageCount = Math.max(1, Math.ceil(items.length / size));
  const current = Math.min(Math.max(1, Math.floor(page) || 1), pageCount);
  return { items: items.slice((current - 1) * size, current * size), page: current, pageCount };
}

// The list's state lives in the URL query, so a filtered page can be
// shared and Back steps through changes. Unknown values are ignored.
export function parseListState(params: URLSearchParams, v: Vocabulary): ListState {
  const category = tabNames(v).find((c) => c === params.get("category")) ?? ALL;
  const pick = (options: Option[], key: string) => options.map((o) => o.name).filter((n) => params.getAll(key).includes(n));
  const page = Number.parseInt(params.get("page") ?? "1", 10);
  return {
    category,
    materials: pick(v.materials, "material"),
    finishes: pick(v.finishes, "finish"),
    page: Number.isFinite(page) && page > 0 ? page : 1,
  };
}

// The list's addresses: the category and the page are in the path
// (/products, /products/page/2, /products/tables, /products/tables/page/2),
// so each is a prerendered page that links reach without JavaScript and
// search engines can index; materials and finishes are in the query.
// The older ?category=Tables&page=2 is still read (parseListState).
export const slugOf = (tab: string) =>
  tab
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

export function listPath(state: ListState): string {
  let path = "/products";
  if (state.category !== ALL) path += `/${slugOf(state.category)}`;
  if (state.page > 1) path += `/page/${state.page}`;
  const query = new URLSearchParams();
  state.materials.forEach((m) => query.append("material", m));
  state.finishes.forEach((f) => query.append("finish", f));
  return query.size > 0 ? `${path}?${query}` : path;
}

// The category and page named by the rest of the path after /products/
// ("", "page/2", "tables", "tables/page/2"); null for any other path.
export function parseListPath(rest: string, v: Vocabulary): Pick<ListState, "category" | "page"> | null {
  const parts = rest.split("/").filter(Boolean);
  let category = ALL;
  if (parts.length % 2 === 1) {
    const slug = parts.shift();
    const tab = v.tabs.find((t) => slugOf(t.name) === slug);
    if (!tab) return null;
    category = tab.name;
  }
  if (parts.length === 0) return { category, page: 1 };
  if (parts.length === 2 && parts[0] === "page" && /^[1-9]\d*$/.test(parts[1]!) && parts[1] !== "1") {
    return { category, page: Number(parts[1]) };
  }
  return null;
}

// The whole state of an address: its path (the rest after /products/) and
// its query; null for a path that is not the list's. The older query keys
// category and page win when present.
export function listStateOf(rest: string, query: URLSearchParams, v: Vocabulary): ListState | null {
  const fromPath = parseListPath(rest, v);
  if (!fromPath) return null;
  const fromQuery = parseListState(query, v);
  return {
    ...fromQuery,
    category: query.has("category") ? fromQuery.category : fromPath.category,
    page: query.has("page") ? fromQuery.page : fromPath.page,
  };
}

// Every address of the list without materials or finishes: each tab's
// pages. These are prerendered and listed in the sitemap.
export function listPaths(products: readonly Filterable[], v: Vocabulary): string[] {
  return tabNames(v).flatMap((category) => {
    const { pageCount } = paginate(filterProducts(products, { category, materials: [], finishes: [] }, v), 1);
    return Array.from({ length: pageCount }, (_, i) => listPath({ ...DEFAULT_LIST_STATE, category, page: i + 1 }));
  });
}

// Adds the value if absent, removes it if present, keeping the options' order.
export function toggle(options: readonly Option[], selected: readonly string[], value: string): string[] {
  const next = selected.includes(value) ? selected.filter((v) => v !== value) : [...selected, value];
  return options.map((o) => o.name).filter((n) => next.includes(n));
}

import type { CatalogueFile, ProductCardData } from "./catalogue";

// The products page's filters, on the words the
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

// The list's addresses. The category, one material, one finish and the
// page are in the path, so each is a prerendered page that links reach
// without JavaScript and search engines can index:
//   /products[/{tab}][/material/{option}][/finish/{option}][/page/{n}]
// as in /products/tables/material/wood/page/2. Two or more materials (or
// finishes) at once, which only the page's script offers, go in the query
// (?material=Wood&material=Metal). The older ?category=Tables&page=2 is
// still read (parseListState).
export const slugOf = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

// The words of the path that are not tabs.
export const LIST_WORDS = ["material", "finish", "page"] as const;

export function listPath(state: ListState): string {
  let path = "/products";
  const query = new URLSearchParams();
  if (state.category !== ALL) path += `/${slugOf(state.category)}`;
  for (const [key, chosen] of [["material", state.materials], ["finish", state.finishes]] as const) {
    if (chosen.length === 1) path += `/${key}/${slugOf(chosen[0]!)}`;
    else chosen.forEach((name) => query.append(key, name));
  }
  if (state.page > 1) path += `/page/${state.page}`;
  return query.size > 0 ? `${path}?${query}` : path;
}

// The state named by the rest of the path after /products/ ("",
// "page/2", "tables", "tables/material/wood/finish/oak/page/2"); null for
// any other path.
export function parseListPath(rest: string, v: Vocabulary): ListState | null {
  const parts = rest.split("/").filter(Boolean);
  const state: ListState = { ...DEFAULT_LIST_STATE };
  if (parts.length > 0 && !(LIST_WORDS as readonly string[]).includes(parts[0]!)) {
    const tab = v.tabs.find((t) => slugOf(t.name) === parts[0]);
    if (!tab) return null;
    state.category = tab.name;
    parts.shift();
  }
  const option = (options: Option[]) => options.find((o) => o.name && slugOf(o.name) === parts[1])?.name;
  if (parts[0] === "material") {
    const material = option(v.materials);
    if (!material) return null;
    state.materials = [material];
    parts.splice(0, 2);
  }
  if (parts[0] === "finish") {
    const finish = option(v.finishes);
    if (!finish) return null;
    state.finishes = [finish];
    parts.splice(0, 2);
  }
  if (parts[0] === "page") {
    if (!/^[1-9]\d*$/.test(parts[1] ?? "") || parts[1] === "1") return null;
    state.page = Number(parts[1]);
    parts.splice(0, 2);
  }
  return parts.length === 0 ? state : null;
}

// The whole state of an address: its path (the rest after /products/) and
// its query; null for a path that is not the list's. A key in the query
// wins over the path (the older ?category=, and two or more materials).
export function listStateOf(rest: string, query: URLSearchParams, v: Vocabulary): ListState | null {
  const fromPath = parseListPath(rest, v);
  if (!fromPath) return null;
  const fromQuery = parseListState(query, v);
  return {
    category: query.has("category") ? fromQuery.category : fromPath.category,
    materials: query.has("material") ? fromQuery.materials : fromPath.materials,
    finishes: query.has("finish") ? fromQuery.finishes : fromPath.finishes,
    page: query.has("page") ? fromQuery.page : fromPath.page,
  };
}

// A list's page is for search engines (in the sitemap, no noindex) when it
// shows products and narrows by at most one of material and finish; the
// pages of both at once are there for visitors, not to be indexed.
export const isIndexed = (state: ListState, count: number) => count > 0 && (state.materials.length === 0 || state.finishes.length === 0);

// Every address of the list with at most one material and one finish:
// each tab, alone and with each option and each pair, and its pages (an
// empty list has one). These are prerendered; the indexed ones are in the
// sitemap.
export function listPages(products: readonly Filterable[], v: Vocabulary): { path: string; indexed: boolean }[] {
  const one = (options: Option[]) => [[], ...options.map((o) => [o.name])];
  return tabNames(v).flatMap((category) =>
    one(v.materials).flatMap((materials) =>
      one(v.finishes).flatMap((finishes) => {
        const count = filterProducts(products, { category, materials, finishes }, v).length;
        const { pageCount } = paginate(new Array(count), 1);
        return Array.from({ length: pageCount }, (_, i) => {
          const state = { category, materials, finishes, page: i + 1 };
          return { path: listPath(state), indexed: isIndexed(state, count) };
        });
      }),
    ),
  );
}

// Adds the value if absent, removes it if present, keeping the options' order.
export function toggle(options: readonly Option[], selected: readonly string[], value: string): string[] {
  const next = selected.includes(value) ? selected.filter((v) => v !== value) : [...selected, value];
  return options.map((o) => o.name).filter((n) => next.includes(n));
}

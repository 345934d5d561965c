import type { Product } from "./catalogue";

// The products page's filters (spec, sections 3 and 5). Matching is a
// case-insensitive substring test, OR among the values chosen within one
// filter, AND across category, material and finish.
//
// Two choices make every option match something in the catalogue:
// - The tabs "Partition" and "Storage & Shelves" both match the catalogue's
//   one category "Partition Storage & Shelves" by substring.
// - "Other" matches a material that is neither wood nor metal (cement,
//   stone, marble); the literal rule would make it match nothing.
// The finish options (Walnut, Black, Oxidised, Oak) each match at least one
// product by substring ("Oak" also matches "Light Oak", "Oxidised" matches
// "Oxidised Brass"); a Vitest test checks every option against the catalogue.

export const CATEGORIES = ["All", "Seatings", "Tables", "Partition", "Storage & Shelves"] as const;
export const MATERIALS = ["Wood", "Metal", "Other"] as const;
export const FINISHES = ["Walnut", "Black", "Oxidised", "Oak"] as const;
export const PAGE_SIZE = 6;

export type Category = (typeof CATEGORIES)[number];
export type Material = (typeof MATERIALS)[number];
export type Finish = (typeof FINISHES)[number];

export type ListState = {
  category: Category;
  materials: Material[];
  finishes: Finish[];
  page: number;
};

export const DEFAULT_LIST_STATE: ListState = { category: "All", materials: [], finishes: [], page: 1 };

const includes = (text: string, part: string) => text.toLowerCase().includes(part.toLowerCase());
const NAMED_MATERIALS = MATERIALS.filter((m) => m !== "Other");

function materialMatches(productMaterial: string, option: Material): boolean {
  if (option === "Other") return !NAMED_MATERIALS.some((named) => includes(productMaterial, named));
  return includes(productMaterial, option);
}

export function matchesFilters(product: Product, state: Omit<ListState, "page">): boolean {
  if (state.category !== "All" && !includes(product.category, state.category)) return false;
  if (state.materials.length > 0 && !state.materials.some((m) => product.material.some((pm) => materialMatches(pm, m)))) {
    return false;
  }
  if (state.finishes.length > 0 && !state.finishes.some((f) => product.finish.some((pf) => includes(pf, f)))) {
    return false;
  }
  return true;
}

export function filterProducts(products: readonly Product[], state: Omit<ListState, "page">): Product[] {
  return products.filter((p) => matchesFilters(p, state));
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
export function parseListState(params: URLSearchParams): ListState {
  const category = CATEGORIES.find((c) => c === params.get("category")) ?? "All";
  const materials = MATERIALS.filter((m) => params.getAll("material").includes(m));
  const finishes = FINISHES.filter((f) => params.getAll("finish").includes(f));
  const page = Number.parseInt(params.get("page") ?? "1", 10);
  return { category, materials, finishes, page: Number.isFinite(page) && page > 0 ? page : 1 };
}

export function listStateToParams(state: ListState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.category !== "All") params.set("category", state.category);
  state.materials.forEach((m) => params.append("material", m));
  state.finishes.forEach((f) => params.append("finish", f));
  if (state.page > 1) params.set("page", String(state.page));
  return params;
}

// Adds the value if absent, removes it if present, keeping the options' order.
export function toggle<T extends string>(options: readonly T[], selected: readonly T[], value: T): T[] {
  const next = selected.includes(value) ? selected.filter((v) => v !== value) : [...selected, value];
  return options.filter((o) => next.includes(o));
}

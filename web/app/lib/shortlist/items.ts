import { useSyncExternalStore } from "react";
import type { ProductSummary } from "../catalogue";
import { LIMITS } from "../enquiries";
import { SHORTLIST_KEY, SHORTLIST_VERSION, announceShortlistChange, parseStored, readSavedShortlist, subscribeShortlist } from "./saved";

// The shortlist: the pieces a visitor keeps to ask one quote for, with
// their choices. The pure functions are tested (items.test.ts); the
// functions at the end read and write localStorage (saved.ts: the key and
// its format). Loaded on demand: by the shortlist page, and by an Add to
// shortlist button when it is reached for.

export type ShortlistItem = {
  productId: number;
  material: string;
  finish: string;
  /** 1 to MAX_QUANTITY. */
  quantity: number;
  /** At most NOTE_MAX characters; not carried by a shared link. */
  note: string;
};

/** What the shortlist checks a piece against: the catalogue's own options. */
export type ProductOptions = Pick<ProductSummary, "id" | "material" | "finish">;

// The limits one quote request is held to (contracts/enquiry-rules.json, which the server reads too).
export const MAX_QUANTITY = LIMITS.quantity;
export const NOTE_MAX = LIMITS.itemNote;
/** The pieces one request takes, so the most a shortlist keeps (one line per product). */
export const MAX_ITEMS = LIMITS.items;

/**
 * What checking a shortlist against the catalogue took out: pieces it no
 * longer has (or that could not be read), and choices (a material, finish
 * or quantity) it does not offer, which go back to the product's first.
 */
export type Dropped = { pieces: number; choices: number };

export const isQuantity = (n: unknown): n is number => Number.isInteger(n) && (n as number) >= 1 && (n as number) <= MAX_QUANTITY;

/** A product's first piece: its first material and finish, one of it. */
export function newItem(product: ProductOptions, material?: string, finish?: string): ShortlistItem {
  return {
    productId: product.id,
    material: material && product.material.includes(material) ? material : product.material[0]!,
    finish: finish && product.finish.includes(finish) ? finish : product.finish[0]!,
    quantity: 1,
    note: "",
  };
}

/**
 * A stored or decoded shortlist made safe to show: pieces of products the
 * catalogue no longer has (or unreadable) left out, options it does not
 * offer put back to the product's first, the quantity kept within 1 to
 * 999, a second line of one product left out, at most MAX_ITEMS pieces.
 */
export function checkItems(candidates: readonly unknown[], products: readonly ProductOptions[]): { items: ShortlistItem[]; dropped: Dropped } {
  const byId = new Map(products.map((p) => [p.id, p]));
  const items: ShortlistItem[] = [];
  let pieces = 0;
  let choices = 0;
  for (const candidate of candidates) {
    const c = (candidate ?? {}) as Partial<Record<keyof ShortlistItem, unknown>>;
    const product = typeof c.productId === "number" ? byId.get(c.productId) : undefined;
    if (!product || items.length >= MAX_ITEMS) {
      pieces++;
      continue;
    }
    if (items.some((i) => i.productId === product.id)) continue; // the same piece twice: one line
    const item = newItem(product, typeof c.material === "string" ? c.material : undefined, typeof c.finish === "string" ? c.finish : undefined);
    if (item.material !== c.material) choices++;
    if (item.finish !== c.finish) choices++;
    if (isQuantity(c.quantity)) item.quantity = c.quantity;
    else {
      choices++;
      if (typeof c.quantity === "number" && c.quantity > MAX_QUANTITY) item.quantity = MAX_QUANTITY;
    }
    if (typeof c.note === "string") item.note = [...c.note].slice(0, NOTE_MAX).join("");
    items.push(item);
  }
  return { items, dropped: { pieces, choices } };
}

export const serialize = (items: readonly unknown[]) => JSON.stringify({ version: SHORTLIST_VERSION, items });

/** The shortlist with the product's piece added at the end; unchanged when it is there already, or full. */
export function withItem<T extends { productId: number }>(items: readonly T[], item: T): T[] {
  return items.some((i) => i.productId === item.productId) || items.length >= MAX_ITEMS ? [...items] : [...items, item];
}

export const withoutItem = <T extends { productId: number }>(items: readonly T[], productId: number): T[] => items.filter((i) => i.productId !== productId);

/** The shortlist with the piece at `index` moved one place up (-1) or down (+1); unchanged at either end. */
export function moved<T>(items: readonly T[], index: number, by: -1 | 1): T[] {
  const to = index + by;
  const next = [...items];
  if (index < 0 || index >= items.length || to < 0 || to >= items.length) return next;
  [next[index], next[to]] = [next[to]!, next[index]!];
  return next;
}

export function updated(items: readonly ShortlistItem[], productId: number, change: Partial<Omit<ShortlistItem, "productId">>): ShortlistItem[] {
  return items.map((i) => (i.productId === productId ? { ...i, ...change } : i));
}

/** Two shortlists with the same pieces, choices and quantities, in the same order (notes aside: a link has none). */
export const samePieces = (a: readonly ShortlistItem[], b: readonly ShortlistItem[]) =>
  a.length === b.length && a.every((i, n) => i.productId === b[n]!.productId && i.material === b[n]!.material && i.finish === b[n]!.finish && i.quantity === b[n]!.quantity);

/** The short notice of what was left out, or "" when nothing was. */
export function droppedNotice({ pieces, choices }: Dropped, from: "link" | "saved"): string {
  const where = from === "link" ? "in the link" : "in your saved shortlist";
  const notes: string[] = [];
  if (pieces > 0) notes.push(`${pieces} ${pieces === 1 ? "piece" : "pieces"} ${where} ${pieces === 1 ? "is" : "are"} not in the catalogue now, so ${pieces === 1 ? "it was" : "they were"} left out.`);
  if (choices > 0) notes.push(`${choices} ${choices === 1 ? "choice" : "choices"} of material, finish or quantity ${where} could not be used, so the first one offered is shown instead.`);
  return notes.join(" ");
}

// In the browser: localStorage, through saved.ts's key.

/** Writes the shortlist (an empty one removes the key) and tells this page's readers. */
export function saveShortlist(items: readonly unknown[]): boolean {
  try {
    if (items.length === 0) window.localStorage.removeItem(SHORTLIST_KEY);
    else window.localStorage.setItem(SHORTLIST_KEY, serialize(items));
  } catch {
    return false; // storage full or blocked: the page says so
  } finally {
    announceShortlistChange();
  }
  return true;
}

/** Why an Add to shortlist button could not add its piece. */
export const REFUSED = {
  full: `Your shortlist has ${MAX_ITEMS} pieces, the most one request takes: send it, or take a piece out first.`,
  blocked: "This browser does not let the site keep a shortlist (its storage is full or blocked).",
};

/**
 * Adds or removes a product, for the Add to shortlist buttons, which do not
 * have the catalogue: the shortlist page checks what is stored when it shows it.
 */
export function setInShortlist(product: ProductOptions, inIt: boolean, material?: string, finish?: string): "saved" | "full" | "blocked" {
  const stored = (parseStored(readSavedShortlist()) ?? []) as { productId: number }[];
  if (inIt && stored.length >= MAX_ITEMS) return "full";
  return saveShortlist(inIt ? withItem(stored, newItem(product, material, finish)) : withoutItem(stored, product.id)) ? "saved" : "blocked";
}

/** The stored JSON, kept current (this tab and others). */
export function useSavedShortlist(): string | null {
  return useSyncExternalStore(subscribeShortlist, readSavedShortlist, () => null);
}

import { useSyncExternalStore } from "react";
import type { ProductSummary } from "../catalogue";
import { LIMITS } from "../enquiries";
import { SHORTLIST_KEY, SHORTLIST_VERSION, announceShortlistChange, offered, parseStored, readSavedShortlist, subscribeShortlist } from "./saved";

// The shortlist: the pieces a visitor keeps to ask one quote for, with
// their choices. A line is one product in one material and one finish
// (sameLine): the same product in two finishes is two lines, each with its
// quantity and note. The pure functions are tested (items.test.ts); the
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
/** The pieces one request takes, so the most lines a shortlist keeps. */
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
    material: offered(product.material, material),
    finish: offered(product.finish, finish),
    quantity: 1,
    note: "",
  };
}

/** What makes a line itself: its product, material and finish. */
export type LineKey = Pick<ShortlistItem, "productId" | "material" | "finish">;

/** The same line: one product in the same material and finish (quantity and note aside). */
export const sameLine = (a: LineKey, b: LineKey) => a.productId === b.productId && a.material === b.material && a.finish === b.finish;

/** A line's key as text, for maps of what is typed per line. */
export const lineKey = ({ productId, material, finish }: LineKey) => JSON.stringify([productId, material, finish]);

/**
 * A stored or decoded shortlist made safe to show: pieces of products the
 * catalogue no longer has (or unreadable) left out, options it does not
 * offer put back to the product's first, the quantity kept within 1 to
 * 999, at most MAX_ITEMS lines. A line that repeats an earlier one (a
 * hand-written link, or options put back to the first) is added to it:
 * the quantities summed, within 999, the notes joined.
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
    const item = newItem(product, typeof c.material === "string" ? c.material : undefined, typeof c.finish === "string" ? c.finish : undefined);
    if (item.material !== c.material) choices++;
    if (item.finish !== c.finish) choices++;
    if (isQuantity(c.quantity)) item.quantity = c.quantity;
    else {
      choices++;
      if (typeof c.quantity === "number" && c.quantity > MAX_QUANTITY) item.quantity = MAX_QUANTITY;
    }
    if (typeof c.note === "string") item.note = [...c.note].slice(0, NOTE_MAX).join("");
    const earlier = items.find((i) => sameLine(i, item));
    if (earlier) {
      earlier.quantity = Math.min(earlier.quantity + item.quantity, MAX_QUANTITY);
      earlier.note = [...[earlier.note, item.note].filter((n) => n.trim() !== "").join("; ")].slice(0, NOTE_MAX).join("");
    } else items.push(item);
  }
  return { items, dropped: { pieces, choices } };
}

export const serialize = (items: readonly unknown[]) => JSON.stringify({ version: SHORTLIST_VERSION, items });

/** The shortlist with the line added at the end; unchanged when that line is there already, or full. */
export function withItem<T extends LineKey>(items: readonly T[], item: T): T[] {
  return items.some((i) => sameLine(i, item)) || items.length >= MAX_ITEMS ? [...items] : [...items, item];
}

/** The shortlist without the line (the same product, material and finish). */
export const withoutItem = <T extends LineKey>(items: readonly T[], line: LineKey): T[] => items.filter((i) => !sameLine(i, line));

/** The shortlist without the line at `index`. */
export const withoutIndex = <T>(items: readonly T[], index: number): T[] => items.filter((_, n) => n !== index);

/** The shortlist with the piece at `index` moved one place up (-1) or down (+1); unchanged at either end. */
export function moved<T>(items: readonly T[], index: number, by: -1 | 1): T[] {
  const to = index + by;
  const next = [...items];
  if (index < 0 || index >= items.length || to < 0 || to >= items.length) return next;
  [next[index], next[to]] = [next[to]!, next[index]!];
  return next;
}

/** The shortlist with the line at `index` changed. */
export function updated(items: readonly ShortlistItem[], index: number, change: Partial<Omit<ShortlistItem, "productId">>): ShortlistItem[] {
  return items.map((i, n) => (n === index ? { ...i, ...change } : i));
}

/** The line a change of material or finish would make the one at `index` repeat (its place), or -1. */
export function repeatedBy(items: readonly ShortlistItem[], index: number, change: Partial<LineKey>): number {
  const changed = { ...items[index]!, ...change };
  return items.findIndex((i, n) => n !== index && sameLine(i, changed));
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
 * Adds or removes a line (the product in the material and finish given, or
 * its first), for the Add to shortlist buttons and the shortlist page's
 * ?add=, which do not check what is stored: the shortlist page checks it
 * when it shows it. "there": added already.
 */
export function setInShortlist(product: ProductOptions, inIt: boolean, material?: string, finish?: string): "saved" | "there" | "full" | "blocked" {
  const stored = (parseStored(readSavedShortlist()) ?? []) as LineKey[];
  const line = newItem(product, material, finish);
  if (inIt && stored.some((i) => sameLine(i, line))) return "there";
  if (inIt && stored.length >= MAX_ITEMS) return "full";
  return saveShortlist(inIt ? withItem(stored, line) : withoutItem(stored, line)) ? "saved" : "blocked";
}

/** The stored JSON, kept current (this tab and others). */
export function useSavedShortlist(): string | null {
  return useSyncExternalStore(subscribeShortlist, readSavedShortlist, () => null);
}

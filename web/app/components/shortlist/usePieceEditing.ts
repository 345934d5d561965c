import { useState } from "react";
import { itemEventParams, track } from "../../lib/analytics";
import type { ProductCardData } from "../../lib/catalogue";
import { itemField } from "../../lib/shortlist/request";
import { isQuantity, moved, saveShortlist, updated, withoutItem, type ShortlistItem } from "../../lib/shortlist/items";
import { shortlistSize } from "./pieces";

type Options = {
  items: ShortlistItem[];
  byId: Map<number, ProductCardData>;
  /** Where the pieces are, to put the focus back on one. */
  listRef: React.RefObject<HTMLElement | null>;
  setNotice: (notice: string) => void;
  setQuantities: React.Dispatch<React.SetStateAction<Record<number, string>>>;
  /** The request's problems, forgotten as the pieces they name change or move. */
  request: { clearError: (field: string) => void; clearErrors: (prefix: string) => void };
};

/**
 * Changing the pieces, each by its place in the list: every change saved
 * (or, when the browser will not keep it, said through setNotice); a move,
 * a removal or a link's pieces taken said to screen readers (said), and
 * the focus kept on the button pressed, or the next piece's, or the empty
 * list's; the request's problems with a piece forgotten as it changes.
 */
export function usePieceEditing({ items, byId, listRef, setNotice, setQuantities, request }: Options) {
  const [said, setSaid] = useState("");

  const save = (next: ShortlistItem[]) => {
    if (!saveShortlist(next)) setNotice("This browser would not keep the change (its storage is full or blocked).");
  };

  const focusIn = (productId: number, control: string) =>
    requestAnimationFrame(() => listRef.current?.querySelector<HTMLElement>(`[data-piece="${productId}"] [data-control="${control}"]`)?.focus());

  const move = (index: number, by: -1 | 1) => {
    request.clearErrors("items[");
    const item = items[index]!;
    save(moved(items, index, by));
    setSaid(`${byId.get(item.productId)?.name} moved to place ${Math.min(Math.max(index + by, 0), items.length - 1) + 1} of ${items.length}.`);
    focusIn(item.productId, by < 0 ? "up" : "down");
  };

  const remove = (index: number) => {
    request.clearErrors("items[");
    const item = items[index]!;
    const product = byId.get(item.productId);
    const left = withoutItem(items, item.productId);
    save(left);
    setSaid(`${product?.name} taken out. ${shortlistSize(left)} left.`);
    if (product) track("remove_from_wishlist", itemEventParams(product));
    const next = items[index + 1] ?? items[index - 1];
    if (next) focusIn(next.productId, "remove");
    else requestAnimationFrame(() => document.querySelector<HTMLElement>("#shortlist-empty")?.focus());
  };

  /** A quantity as typed: kept in its box as it is, saved when it is a whole number from 1 to 999. */
  const changeQuantity = (index: number, text: string) => {
    const item = items[index]!;
    request.clearError(itemField(index, "quantity"));
    setQuantities((q) => ({ ...q, [item.productId]: text }));
    const n = Number(text);
    if (text.trim() !== "" && isQuantity(n)) save(updated(items, item.productId, { quantity: n }));
  };

  const change = (index: number, change: Partial<ShortlistItem>) => {
    for (const key of Object.keys(change)) request.clearError(`items[${index}].${key}`);
    save(updated(items, items[index]!.productId, change));
  };

  /** The shortlist replaced by a link's pieces. */
  const replaceWith = (list: ShortlistItem[]) => {
    save(list);
    setSaid(`Your shortlist now has the link’s ${shortlistSize(list)}.`);
  };

  return { said, move, remove, changeQuantity, change, replaceWith };
}

export type PieceEditing = ReturnType<typeof usePieceEditing>;

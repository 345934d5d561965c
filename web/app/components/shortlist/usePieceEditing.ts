import { useState } from "react";
import { itemEventParams, track } from "../../lib/analytics";
import type { ProductCardData } from "../../lib/catalogue";
import { itemField } from "../../lib/shortlist/request";
import { isQuantity, lineKey, moved, repeatedBy, saveShortlist, updated, withoutIndex, type ShortlistItem } from "../../lib/shortlist/items";
import { lineName, shortlistSize } from "./pieces";

type Options = {
  items: ShortlistItem[];
  byId: Map<number, ProductCardData>;
  /** Where the pieces are, to put the focus back on one. */
  listRef: React.RefObject<HTMLElement | null>;
  setNotice: (notice: string) => void;
  setQuantities: React.Dispatch<React.SetStateAction<Record<string, string>>>;
  /** The request's problems, forgotten as the pieces they name change or move. */
  request: { clearError: (field: string) => void; clearErrors: (prefix: string) => void };
};

/**
 * Changing the lines, each by its place in the list: every change saved
 * (or, when the browser will not keep it, said through setNotice); a move,
 * a removal or a link's pieces taken said to screen readers (said), and
 * the focus kept on the button pressed, or the next piece's, or the empty
 * list's; the request's problems with a piece forgotten as it changes;
 * refused, a choice that would repeat another line, by its field's name.
 */
export function usePieceEditing({ items, byId, listRef, setNotice, setQuantities, request }: Options) {
  const [said, setSaid] = useState("");
  // A choice not taken, beside its control (by the field's name, as the request's problems are).
  const [refused, setRefused] = useState<Record<string, string>>({});

  const save = (next: ShortlistItem[]) => {
    setRefused({});
    if (!saveShortlist(next)) setNotice("This browser would not keep the change (its storage is full or blocked).");
  };

  // The lines are drawn by their places (PieceList), so a control is found by its line's place.
  const focusIn = (index: number, control: string) =>
    requestAnimationFrame(() => listRef.current?.querySelector<HTMLElement>(`[data-piece="${index}"] [data-control="${control}"]`)?.focus());
  const nameOf = (index: number) => lineName(items, index, byId);

  const move = (index: number, by: -1 | 1) => {
    request.clearErrors("items[");
    const to = Math.min(Math.max(index + by, 0), items.length - 1);
    save(moved(items, index, by));
    setSaid(`${nameOf(index)} moved to place ${to + 1} of ${items.length}.`);
    focusIn(to, by < 0 ? "up" : "down");
  };

  const remove = (index: number) => {
    request.clearErrors("items[");
    const product = byId.get(items[index]!.productId);
    const left = withoutIndex(items, index);
    save(left);
    setSaid(`${nameOf(index)} taken out. ${shortlistSize(left)} left.`);
    if (product) track("remove_from_wishlist", itemEventParams(product));
    // The next line takes this one's place; the last one's focus goes to the one before.
    if (left.length > 0) focusIn(Math.min(index, left.length - 1), "remove");
    else requestAnimationFrame(() => document.querySelector<HTMLElement>("#shortlist-empty")?.focus());
  };

  /** A quantity as typed: kept in its box as it is, saved when it is a whole number from 1 to 999. */
  const changeQuantity = (index: number, text: string) => {
    request.clearError(itemField(index, "quantity"));
    setQuantities((q) => ({ ...q, [lineKey(items[index]!)]: text }));
    const n = Number(text);
    if (text.trim() !== "" && isQuantity(n)) save(updated(items, index, { quantity: n }));
  };

  /**
   * A material or finish, or a note. A material or finish that would make
   * the line repeat another is not taken: the visitor is told where that
   * line is, and the choice goes back.
   */
  const change = (index: number, change: Partial<ShortlistItem>) => {
    for (const key of Object.keys(change)) request.clearError(`items[${index}].${key}`);
    const repeated = repeatedBy(items, index, change);
    if (repeated >= 0) {
      const { material, finish } = { ...items[index]!, ...change };
      const problem = `${byId.get(items[index]!.productId)?.name} in ${material}, ${finish} is on your shortlist already, at place ${repeated + 1}: change its quantity there.`;
      setRefused(Object.fromEntries(Object.keys(change).map((key) => [`items[${index}].${key}`, problem])));
      setSaid(problem);
      return;
    }
    const typed = lineKey(items[index]!);
    save(updated(items, index, change));
    // What was typed in the quantity box goes with its line to its new options.
    setQuantities(({ [typed]: text, ...q }) => (text === undefined ? q : { ...q, [lineKey({ ...items[index]!, ...change })]: text }));
  };

  /** The shortlist replaced by a link's lines. */
  const replaceWith = (list: ShortlistItem[]) => {
    save(list);
    setSaid(`Your shortlist now has the link’s ${shortlistSize(list)}.`);
  };

  return { said, refused, move, remove, changeQuantity, change, replaceWith };
}

export type PieceEditing = ReturnType<typeof usePieceEditing>;

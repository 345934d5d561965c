import type { EnquiryPayload } from "../enquiries";
import { MAX_QUANTITY, isQuantity, lineKey, type ShortlistItem } from "./items";

// The shortlist's one request for a quote: its body (every piece with its
// choices, and who is asking), the names the server gives its fields
// (items[2].finish), and the form's own check of the quantities as typed.
// Built here only, so what is checked, focused and sent is the same list.

/** Who is asking, as the quote form holds it (untrimmed). */
export type QuoteSender = { name: string; email: string; phone: string; message: string };

/** The fields of one piece in the request, in the order a piece shows them. */
export const ITEM_FIELDS = ["productId", "material", "finish", "quantity", "note"] as const;

/** The name the server gives a field of a piece: items[2].finish. */
export const itemField = (index: number, field: (typeof ITEM_FIELDS)[number]) => `items[${index}].${field}`;

/** The body of POST /api/enquiries for a shortlist: one quote for every piece. website: the honeypot; proof: useFormStart's. */
export function quoteRequest(
  items: readonly ShortlistItem[],
  sender: QuoteSender,
  website: string,
  proof: Pick<EnquiryPayload, "started" | "idempotencyKey">,
): EnquiryPayload {
  return {
    kind: "quote",
    name: sender.name.trim(),
    email: sender.email.trim(),
    phone: sender.phone.trim() || undefined,
    message: sender.message.trim(),
    items: items.map(({ productId, material, finish, quantity, note }) => ({ productId, material, finish, quantity, note: note.trim() || undefined })),
    website,
    ...proof,
  };
}

/** Every field of the request in the order the page shows them, so the first wrong one gets focus. */
export const requestFields = (items: readonly unknown[]): string[] => [
  ...items.flatMap((_, i) => ITEM_FIELDS.map((f) => itemField(i, f))),
  "items",
  "name",
  "email",
  "phone",
  "message",
];

/** The problem with a quantity as typed, or "" when it is a whole number from 1 to 999. */
export const quantityProblem = (text: string) =>
  text.trim() !== "" && isQuantity(Number(text)) ? "" : `Say how many: a whole number from 1 to ${MAX_QUANTITY}.`;

/**
 * The problems of the quantities as typed (a box may hold what the shortlist
 * could not keep, "0" or "2.5"), by their fields' names: the form's own check
 * of the pieces before sending. typed: the text of each box, by line
 * (lineKey); a line without one has its kept quantity.
 */
export const quantityProblems = (items: readonly ShortlistItem[], typed: Readonly<Record<string, string>>): Record<string, string> =>
  Object.fromEntries(
    items.flatMap((item, i) => {
      const problem = quantityProblem(typed[lineKey(item)] ?? String(item.quantity));
      return problem ? [[itemField(i, "quantity"), problem]] : [];
    }),
  );

import { useState } from "react";
import { useEnquirySubmit, useFormStart } from "../../lib/submission";
import { track } from "../../lib/analytics";
import type { ProductCardData } from "../../lib/catalogue";
import { quantityProblems, quoteRequest, requestFields, type QuoteSender } from "../../lib/shortlist/request";
import type { ShortlistItem } from "../../lib/shortlist/items";
import { listParams } from "./listParams";
import { shortlistSize } from "./pieces";

const FORM = "shortlist";
const EMPTY: QuoteSender = { name: "", email: "", phone: "", message: "" };

/**
 * The request: one quote for every piece (lib/shortlist/request.ts builds
 * it), sent through useEnquirySubmit. Its problems with a piece are named as
 * the server names them (items[2].finish) and focused among the pieces
 * (fieldsIn); quantities, the quantity boxes' text by line (lineKey), is checked
 * before sending. sent: what the thank-you says once it has gone.
 */
export function useQuoteRequest(
  items: ShortlistItem[],
  byId: Map<number, ProductCardData>,
  quantities: Record<string, string>,
  fieldsIn: React.RefObject<HTMLElement | null>,
) {
  const start = useFormStart(FORM);
  const [values, setValues] = useState<QuoteSender>(EMPTY);
  const [sent, setSent] = useState<{ email: string; size: string } | null>(null);
  const request = useEnquirySubmit({
    formName: FORM,
    messageRequired: false,
    fieldOrder: requestFields(items),
    submitParams: { item_count: items.length },
    fieldsIn,
    onSent: () => {
      track("generate_lead", listParams(items, byId));
      setSent({ email: values.email.trim(), size: shortlistSize(items) });
      setValues(EMPTY);
      start.reset();
    },
  });

  const change = (field: keyof QuoteSender) => (event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    start.edited();
    setValues((v) => ({ ...v, [field]: event.target.value }));
    request.clearError(field);
  };

  const send = (event: React.FormEvent<HTMLFormElement>) =>
    request.submit(event, values, (website) => quoteRequest(items, values, website, start.proof()), quantityProblems(items, quantities));

  return { ...request, values, sent, change, send };
}

export type QuoteRequest = ReturnType<typeof useQuoteRequest>;

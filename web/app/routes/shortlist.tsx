import { useEffect, useMemo, useRef, useState } from "react";
import { Link, useSearchParams } from "react-router";
import type { Route } from "./+types/shortlist";
import { FailureNotice, Honeypot, useEnquirySubmit, useFormStart } from "../components/EnquiryParts";
import { Field } from "../components/Field";
import { SenderFields } from "../components/SenderFields";
import { LinkOffer } from "../components/shortlist/LinkOffer";
import { Piece } from "../components/shortlist/Piece";
import { ShareLink } from "../components/shortlist/ShareLink";
import { pieces } from "../components/shortlist/pieces";
import { itemEventParams, track } from "../lib/analytics";
import { productCards } from "../lib/catalogue.server";
import type { ProductCardData } from "../lib/catalogue";
import { LIMITS } from "../lib/enquiries";
import { pageMeta } from "../lib/meta";
import { SHORTLIST_PATH } from "../lib/paths";
import { quantityProblems, quoteRequest, requestFields, type QuoteSender } from "../lib/shortlist/request";
import { parseStored } from "../lib/shortlist/saved";
import { SHARE_PARAM, decodeShare } from "../lib/shortlist/share";
import {
  checkItems,
  droppedNotice,
  isQuantity,
  moved,
  samePieces,
  saveShortlist,
  updated,
  useSavedShortlist,
  withoutItem,
  type ShortlistItem,
} from "../lib/shortlist/store";
import { useHydrated } from "../lib/useHydrated";
import "../components/Field.css";
import "./shortlist.css";

// /shortlist: the pieces a visitor keeps in this browser (lib/shortlist),
// each with its material, finish, quantity and note, sent to the studio as
// one quote request; and a link that opens the same shortlist elsewhere.
// The frame is prerendered; the list is the browser's, so it is filled
// once the script runs. The catalogue comes with the page, to check what
// is stored or linked against it.
export async function loader() {
  return { products: productCards() };
}

// The catalogue does not change while the page is open: taking a shared
// link's ?items= out of the address fetches nothing.
export const shouldRevalidate = () => false;

export const meta: Route.MetaFunction = () => [
  ...pageMeta({
    title: "Your shortlist",
    description: "The pieces you keep while you look, with their materials, finishes and quantities, sent to the studio as one request for a quote.",
    path: SHORTLIST_PATH,
  }),
  { name: "robots", content: "noindex" },
];

export default function Shortlist({ loaderData }: Route.ComponentProps) {
  const hydrated = useHydrated();
  return (
    <div className="shortlist">
      <div className="page-intro">
        <h1>Your shortlist</h1>
        <p>
          Keep the pieces you like here while you look, choose their materials, finishes and quantities, and send them to
          the studio as one request for a quote. The list stays in this browser until you change it.
        </p>
      </div>
      <div className="shortlist__body container">
        {hydrated ? (
          <ShortlistEditor products={loaderData.products} />
        ) : (
          <noscript>
            <p className="shortlist__waiting">
              Your shortlist is kept by this browser, which needs JavaScript to show it. Without it, ask for a quote from
              each piece’s own page: <Link to="/products">browse the products</Link>.
            </p>
          </noscript>
        )}
      </div>
    </div>
  );
}

const listParams = (list: readonly ShortlistItem[], byId: Map<number, ProductCardData>) => ({
  currency: "INR",
  item_list_name: "Shortlist",
  items: list.map((i) => {
    const p = byId.get(i.productId);
    return { item_id: String(i.productId), item_name: p?.name, item_category: p?.category, item_variant: `${i.material}, ${i.finish}`, quantity: i.quantity };
  }),
});

function ShortlistEditor({ products }: { products: ProductCardData[] }) {
  const byId = useMemo(() => new Map(products.map((p) => [p.id, p])), [products]);
  const raw = useSavedShortlist();
  const stored = useMemo(() => parseStored(raw), [raw]);
  const { items, dropped } = useMemo(() => checkItems(stored ?? [], products), [stored, products]);
  const [notice, setNotice] = useState("");
  const [said, setSaid] = useState("");
  const [params, setParams] = useSearchParams();
  const linked = params.get(SHARE_PARAM);
  const [offer, setOffer] = useState<ShortlistItem[] | null>(null);
  const [quantities, setQuantities] = useState<Record<number, string>>({});
  const listRef = useRef<HTMLDivElement>(null);

  // What was stored and no longer fits the catalogue is put right once, and said.
  useEffect(() => {
    if (stored === null) {
      setNotice("Your saved shortlist could not be read, so it was started again.");
      saveShortlist([]);
    } else if (dropped.pieces + dropped.choices > 0) {
      setNotice(droppedNotice(dropped, "saved"));
      saveShortlist(items);
    }
  }, [stored, dropped, items]);

  // A shared link: taken at once into an empty shortlist (or one with the
  // same pieces); otherwise the visitor chooses. The address then drops it,
  // so a reload does not ask again.
  useEffect(() => {
    if (linked === null) return;
    const fromLink = decodeShare(linked, products);
    const lost = droppedNotice(fromLink.dropped, "link");
    if (fromLink.items.length === 0) setNotice(lost || "The link holds no pieces.");
    else if (items.length === 0 || samePieces(items, fromLink.items)) {
      if (items.length === 0) saveShortlist(fromLink.items);
      setNotice(lost);
    } else {
      setOffer(fromLink.items);
      setNotice(lost);
    }
    setParams((p) => (p.delete(SHARE_PARAM), p), { replace: true, preventScrollReset: true });
    // Only the link's own value starts this; the shortlist it is compared with is read as it is then.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [linked]);

  // The shortlist shown (GA4's view_item_list), once a visit, when it has pieces.
  const viewed = useRef(false);
  useEffect(() => {
    if (viewed.current || items.length === 0 || stored === null) return;
    viewed.current = true;
    track("view_item_list", listParams(items, byId));
  }, [items, stored, byId]);

  const save = (next: ShortlistItem[]) => {
    if (!saveShortlist(next)) setNotice("This browser would not keep the change (its storage is full or blocked).");
  };

  const focusIn = (productId: number, control: string) =>
    requestAnimationFrame(() => listRef.current?.querySelector<HTMLElement>(`[data-piece="${productId}"] [data-control="${control}"]`)?.focus());

  const move = (index: number, by: -1 | 1) => {
    const item = items[index]!;
    save(moved(items, index, by));
    setSaid(`${byId.get(item.productId)?.name} moved to place ${Math.min(Math.max(index + by, 0), items.length - 1) + 1} of ${items.length}.`);
    focusIn(item.productId, by < 0 ? "up" : "down");
  };

  const remove = (index: number) => {
    const item = items[index]!;
    const product = byId.get(item.productId);
    save(withoutItem(items, item.productId));
    setSaid(`${product?.name} taken out. ${pieces(items.length - 1)} left.`);
    if (product) track("remove_from_wishlist", itemEventParams(product));
    const next = items[index + 1] ?? items[index - 1];
    if (next) focusIn(next.productId, "remove");
    else requestAnimationFrame(() => document.querySelector<HTMLElement>("#shortlist-empty")?.focus());
  };

  const replaceWith = (list: ShortlistItem[] | null) => {
    if (list) {
      save(list);
      setSaid(`Your shortlist now has the link’s ${pieces(list.length)}.`);
    }
    setOffer(null);
  };

  // The request: one quote for every piece. Its problems with a piece are named as the server names them (items[2].finish).
  const start = useFormStart(FORM);
  const [values, setValues] = useState<Values>(EMPTY);
  const [sent, setSent] = useState<{ email: string; count: number } | null>(null);
  const request = useEnquirySubmit({
    formName: FORM,
    messageRequired: false,
    fieldOrder: requestFields(items),
    submitParams: { item_count: items.length },
    fieldsIn: listRef,
    onSent: () => {
      track("generate_lead", listParams(items, byId));
      setSent({ email: values.email.trim(), count: items.length });
      setValues(EMPTY);
      start.reset();
    },
  });
  const problems = request.errors;

  const change = (field: keyof Values) => (event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    start.edited();
    setValues((v) => ({ ...v, [field]: event.target.value }));
    request.clearError(field);
  };

  const send = (event: React.FormEvent<HTMLFormElement>) =>
    request.submit(event, values, (website) => quoteRequest(items, values, website, start.proof()), quantityProblems(items, quantities));

  const changePiece = (productId: number, index: number, change: Partial<ShortlistItem>) => {
    for (const key of Object.keys(change)) request.clearError(`items[${index}].${key}`);
    save(updated(items, productId, change));
  };

  return (
    <>
      <p className="shortlist__notice" role="status">
        {notice}
      </p>
      <p className="visually-hidden" aria-live="polite">
        {said}
      </p>
      {offer && <LinkOffer offer={offer} current={items} byId={byId} onChoose={replaceWith} />}
      {items.length === 0 ? (
        <div className="shortlist__empty" id="shortlist-empty" tabIndex={-1}>
          <h2>Nothing here yet</h2>
          <p>Press “Add to shortlist” on any piece you like, then come back here to ask for one quote for them all.</p>
          <Link to="/products" className="button">
            Browse the products
          </Link>
        </div>
      ) : (
        <div className="shortlist__layout" ref={listRef}>
          <section className="shortlist__pieces" aria-labelledby="shortlist-pieces">
            <div className="shortlist__heading">
              <h2 id="shortlist-pieces">{pieces(items.length)}</h2>
              <ShareLink items={items} products={products} />
            </div>
            <ol className="shortlist__list">
              {items.map((item, index) => (
                <Piece
                  key={item.productId}
                  item={item}
                  index={index}
                  last={index === items.length - 1}
                  product={byId.get(item.productId)!}
                  errors={problems}
                  quantity={quantities[item.productId] ?? String(item.quantity)}
                  onQuantity={(text) => {
                    request.clearError(`items[${index}].quantity`);
                    setQuantities((q) => ({ ...q, [item.productId]: text }));
                    const n = Number(text);
                    if (text.trim() !== "" && isQuantity(n)) save(updated(items, item.productId, { quantity: n }));
                  }}
                  onChange={(change) => changePiece(item.productId, index, change)}
                  onMove={(by) => {
                    request.clearErrors("items[");
                    move(index, by);
                  }}
                  onRemove={() => {
                    request.clearErrors("items[");
                    remove(index);
                  }}
                />
              ))}
            </ol>
          </section>
          <section className="shortlist__request" aria-labelledby="shortlist-request">
            <h2 id="shortlist-request">Ask for a quote</h2>
            {request.state === "sent" && sent ? (
              <div className="shortlist__sent" role="status">
                <p>
                  Thank you. Your request for {pieces(sent.count)} has reached the studio, and we will write back to {sent.email} with a
                  quote.
                </p>
                <p>Your shortlist is still here, to change and send again, or to share.</p>
                <button type="button" className="button button--ghost" onClick={() => request.setState("idle")}>
                  Write another request
                </button>
              </div>
            ) : (
              <form ref={request.formRef} className="shortlist__form" noValidate onSubmit={send} aria-labelledby="shortlist-request">
                <p className="shortlist__for">
                  For the {pieces(items.length)} in your shortlist, with their choices and notes. The studio answers with prices and
                  making times.
                </p>
                <SenderFields values={values} onChange={change} errors={problems} phone />
                <Field
                  label="Message"
                  optional
                  multiline
                  name="message"
                  rows={4}
                  maxLength={LIMITS.message}
                  hint="The room, the site, when you need the pieces."
                  value={values.message}
                  onChange={change("message")}
                  error={problems.message}
                />
                <Honeypot />
                {problems.items && (
                  <p className="field__error" role="alert">
                    {problems.items}
                  </p>
                )}
                {request.state === "failed" && <FailureNotice message={request.failure} location="shortlist" />}
                <button type="submit" className="button" aria-disabled={request.state === "sending" || undefined}>
                  {request.state === "sending" ? "Sending…" : `Request a quote for ${pieces(items.length)}`}
                </button>
              </form>
            )}
          </section>
        </div>
      )}
    </>
  );
}

const FORM = "shortlist";
type Values = QuoteSender;
const EMPTY: Values = { name: "", email: "", phone: "", message: "" };

import { useMemo, useRef, useState } from "react";
import { Link } from "react-router";
import type { Route } from "./+types/shortlist";
import { EmptyShortlist } from "../components/shortlist/EmptyShortlist";
import { LinkOffer } from "../components/shortlist/LinkOffer";
import { PieceList } from "../components/shortlist/PieceList";
import { QuoteForm } from "../components/shortlist/QuoteForm";
import { shortlistSize, thesePieces } from "../components/shortlist/pieces";
import { useAddedLine } from "../components/shortlist/useAddedLine";
import { useCheckedShortlist } from "../components/shortlist/useCheckedShortlist";
import { useLinkOffer } from "../components/shortlist/useLinkOffer";
import { useListViewed } from "../components/shortlist/useListViewed";
import { usePieceEditing } from "../components/shortlist/usePieceEditing";
import { useQuoteRequest } from "../components/shortlist/useQuoteRequest";
import { productCards } from "../lib/catalogue.server";
import type { ProductCardData } from "../lib/catalogue";
import { pageMeta } from "../lib/meta";
import { siteOf } from "../lib/site";
import { SHORTLIST_PATH } from "../lib/paths";
import type { ShortlistItem } from "../lib/shortlist/items";
import { useHydrated } from "../lib/useHydrated";
import "../components/Field.css";
import "./shortlist.css";

// /shortlist: the pieces a visitor keeps in this browser (lib/shortlist),
// each with its material, finish, quantity and note, sent to the studio as
// one quote request; and a link that opens the same shortlist elsewhere.
// ?add= is a product page's Add to shortlist sent as a form (useAddedLine).
// The frame is prerendered; the list is the browser's, so it is filled
// once the script runs. The catalogue comes with the page, to check what
// is stored or linked against it.
export async function loader() {
  return { products: productCards() };
}

// The catalogue does not change while the page is open: taking a shared
// link's ?items= or an ?add= out of the address fetches nothing.
export const shouldRevalidate = () => false;

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(siteOf(matches), {
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
              Your shortlist is kept by this browser, which needs JavaScript to keep it or show it, so a piece added without
              JavaScript is not kept. You can still ask for a quote for it: go back to its page and press Get Quote, which
              takes your choices with it, or <Link to="/products">browse the products</Link>.
            </p>
          </noscript>
        )}
      </div>
    </div>
  );
}

function ShortlistEditor({ products }: { products: ProductCardData[] }) {
  const byId = useMemo(() => new Map(products.map((p) => [p.id, p])), [products]);
  const [notice, setNotice] = useState("");
  useAddedLine(products, setNotice);
  const { items, stored } = useCheckedShortlist(products, setNotice);
  const [offer, setOffer] = useLinkOffer(products, items, setNotice);
  useListViewed(items, stored, byId);

  const listRef = useRef<HTMLDivElement>(null);
  const [quantities, setQuantities] = useState<Record<string, string>>({});
  const quote = useQuoteRequest(items, byId, quantities, listRef);
  const edit = usePieceEditing({ items, byId, listRef, setNotice, setQuantities, request: quote });

  const chooseLink = (list: ShortlistItem[] | null) => {
    if (list) edit.replaceWith(list);
    setOffer(null);
  };

  return (
    <>
      <p className="shortlist__notice" role="status">
        {notice}
      </p>
      <p className="visually-hidden" aria-live="polite">
        {edit.said}
      </p>
      {offer && <LinkOffer offer={offer} current={items} byId={byId} onChoose={chooseLink} />}
      {items.length === 0 ? (
        <EmptyShortlist />
      ) : (
        <div className="shortlist__layout" ref={listRef}>
          <PieceList items={items} products={products} byId={byId} errors={quote.errors} quantities={quantities} edit={edit} />
          <QuoteForm quote={quote} size={shortlistSize(items)} these={thesePieces(items)} />
        </div>
      )}
    </>
  );
}

import { useEffect, useEffectEvent, useId, useRef, useState } from "react";
import { useNavigate } from "react-router";
import { itemEventParams, track } from "../../lib/analytics";
import type { ProductCardData } from "../../lib/catalogue";
import { takeKeyBuffer } from "../../lib/keyBuffer";
import { loadSearchIndex } from "../../lib/productCards";
import { SEARCH_SETTLE_MS, resultCountText, searchProducts, type SearchIndex } from "../../lib/search";
import { Dialog } from "../Dialog";
import { Icon } from "../Icon";
import { Picture } from "../Picture";
import "./SearchOverlay.css";

type Props = { open: boolean; onClose: () => void };

// The full-screen search overlay, as the combobox
// pattern: the input owns a listbox of results, arrow keys move through
// them, Enter opens the active one (or the first).
export default function SearchOverlay({ open, onClose }: Props) {
  const [text, setText] = useState("");
  const [active, setActive] = useState(-1);
  const inputRef = useRef<HTMLInputElement>(null);
  const lastTracked = useRef("");
  const [submitWhenListed, setSubmitWhenListed] = useState(false);
  const navigate = useNavigate();
  const id = useId();
  const listId = `${id}-results`;
  const [index, setIndex] = useState<SearchIndex | null>(null);
  const products = index?.products ?? null;
  const [loadFailed, setLoadFailed] = useState(false);
  const term = text.trim();
  const results = index ? searchProducts(index.products, text, index.synonyms) : [];

  // Keys typed since the click that opened it are the search; with none,
  // a reopened overlay's previous text is selected, so typing replaces it
  // (as in Dawn's predictive search) and the arrow keys keep it.
  useEffect(() => {
    if (!open) return;
    const input = inputRef.current;
    input?.focus();
    const early = takeKeyBuffer();
    const typed = early.replaceAll("\n", "");
    if (typed && input) {
      // Into the field at once, in the same task as the buffer is taken:
      // a key that arrives before React's render then adds to it, not to "".
      input.value = typed;
      setText(typed);
    } else input?.select();
    if (early.includes("\n")) setSubmitWhenListed(true); // Enter was pressed too
  }, [open]);

  useEffect(() => {
    if (!open || products) return;
    let current = true;
    setLoadFailed(false);
    loadSearchIndex().then(
      (loaded) => current && setIndex(loaded),
      () => current && setLoadFailed(true),
    );
    return () => {
      current = false;
    };
  }, [open, products]);

  // One "search" per term: when it has stood SEARCH_SETTLE_MS, or at once
  // when the visitor presses Enter or chooses a result before that.
  const trackSearch = () => {
    if (!term || !products || term === lastTracked.current) return;
    lastTracked.current = term;
    track("search", { search_term: term, result_count: results.length, location: "navbar" });
  };
  const settled = useEffectEvent(trackSearch);
  useEffect(() => {
    if (!term || !products) return;
    const timer = setTimeout(settled, SEARCH_SETTLE_MS);
    return () => clearTimeout(timer);
  }, [term, products]);

  const choose = (product: ProductCardData, position: number) => {
    trackSearch();
    track("select_item", itemEventParams(product, { item_list_name: "Search Results", index: position + 1 }));
    track("search_result_click", {
      search_term: term,
      item_id: String(product.id),
      item_name: product.name,
      position: position + 1,
    });
    setText("");
    setActive(-1);
    onClose();
    navigate(`/product/${product.id}`);
  };

  const onKeyDown = (event: React.KeyboardEvent<HTMLInputElement>) => {
    if (results.length === 0) return;
    if (event.key === "ArrowDown") setActive((a) => (a + 1) % results.length);
    else if (event.key === "ArrowUp") setActive((a) => (a <= 0 ? results.length - 1 : a - 1));
    else return;
    event.preventDefault();
  };

  const openActive = () => {
    const index = active >= 0 && active < results.length ? active : 0;
    if (results[index]) choose(results[index], index);
  };
  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    if (products) openActive();
    else setSubmitWhenListed(true);
  };
  // Enter pressed before the product list had arrived (or before the
  // field was there) opens the first result once it has.
  const listed = useEffectEvent(openActive);
  useEffect(() => {
    if (!products || !submitWhenListed) return;
    setSubmitWhenListed(false);
    listed();
  }, [products, submitWhenListed]);

  return (
    <Dialog open={open} onClose={onClose} label="Search products" className="search-overlay" closeLabel="Close search">
      <form role="search" className="search-overlay__form" onSubmit={onSubmit}>
        <Icon name="search" />
        <input
          ref={inputRef}
          type="text"
          inputMode="search"
          className="search-overlay__input"
          placeholder="Search chairs, tables, walnut, marble…"
          aria-label="Search products"
          role="combobox"
          aria-expanded={term.length > 0 && results.length > 0}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={active >= 0 ? `${listId}-${active}` : undefined}
          autoComplete="off"
          enterKeyHint="search"
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setActive(-1);
          }}
          onKeyDown={onKeyDown}
        />
      </form>
      <div className="search-overlay__results">
        <p role="status" className={term ? "search-overlay__count" : "visually-hidden"}>
          {!term ? "" : loadFailed ? "The search could not load. Check the connection and open it again." : products ? resultCountText(results.length) : "Searching…"}
        </p>
        {term && products && results.length === 0 && <p className="search-overlay__hint">Try searching with different keywords</p>}
        <ul id={listId} role="listbox" aria-label="Products found" className="search-overlay__list" hidden={results.length === 0}>
          {results.map((product, i) => (
            <li
              key={product.id}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              className="search-overlay__option"
              onClick={() => choose(product, i)}
              onMouseMove={() => setActive(i)}
            >
              <Picture picture={product.image} slot="search" decorative />
              <span>
                <span className="search-overlay__name">{product.name}</span>
                <span className="search-overlay__type">
                  {product.type} · {product.category}
                </span>
              </span>
            </li>
          ))}
        </ul>
      </div>
    </Dialog>
  );
}

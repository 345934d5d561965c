import { useEffect, useRef, useState } from "react";
import { activeDot, canStep, clampOffset, dotCount, dotOffset, fitsIn, itemsPerView, step } from "../../lib/carousel";
import type { ProductCardData } from "../../lib/catalogue";
import { Icon } from "../Icon";
import { ProductCard } from "../ProductCard";
import { itemEventParams, track } from "../../lib/analytics";
import { useHydrated } from "../../lib/useHydrated";

// Similar Products: a window of 4, 2 or 1 items (by width) that moves one
// step per arrow and a whole window per dot. The widths come from CSS; the
// script only tracks the offset, so nothing shifts when it starts. Where
// every item fits, the arrows and dots are hidden, by CSS (data-fits), so
// they are not there at first and then gone.
export function SimilarProducts({ items }: { items: ProductCardData[] }) {
  const [offset, setOffset] = useState(0);
  const [perView, setPerView] = useState(4);
  const hydrated = useHydrated();

  useEffect(() => {
    const update = () => setPerView(itemsPerView(window.innerWidth));
    update();
    window.addEventListener("resize", update);
    return () => window.removeEventListener("resize", update);
  }, []);

  // A narrower window can leave the offset past the end; clamp it on use.
  const w = { offset: clampOffset({ offset, perView, count: items.length }), perView, count: items.length };
  const shown = Math.min(perView, items.length);
  const hidden = (i: number) => i < w.offset || i >= w.offset + shown;
  const fits = fitsIn(items.length);

  // The offset reaches CSS through the DOM, not a style attribute, so the
  // prerendered HTML has no inline style for the CSP to allow.
  const trackRef = useRef<HTMLUListElement>(null);
  useEffect(() => {
    trackRef.current?.style.setProperty("--offset", String(w.offset));
  }, [w.offset]);

  return (
    <section className="similar" aria-labelledby="similar-heading">
      <div className="similar__header">
        <h2 id="similar-heading">Similar Products</h2>
        {items.length > 0 && (
          // The arrows and dots need the script: until it runs they keep
          // their place, unseen, so nothing moves when they appear.
          <div className="similar__arrows" data-waiting={!hydrated || undefined} data-fits={fits}>
            <button type="button" className="icon-button" aria-label="Previous similar products" disabled={!canStep(w, -1)} onClick={() => setOffset(step(w, -1))}>
              <Icon name="chevronLeft" />
            </button>
            <button type="button" className="icon-button" aria-label="Next similar products" disabled={!canStep(w, 1)} onClick={() => setOffset(step(w, 1))}>
              <Icon name="chevronRight" />
            </button>
          </div>
        )}
      </div>
      {items.length === 0 ? (
        <p className="similar__empty">No similar products found in this category.</p>
      ) : (
        <div className="similar__carousel" role="group" aria-roledescription="carousel" aria-label="Similar products">
          <p className="visually-hidden" aria-live="polite">
            Showing {w.offset + 1} to {w.offset + shown} of {items.length}
          </p>
          <div className="similar__viewport">
            <ul className="similar__track" ref={trackRef}>
              {items.map((product, i) => (
                <li key={product.id} className="similar__item" inert={hidden(i) || undefined}>
                  <ProductCard product={product} slot="similar" headingLevel="h3" onSelect={() => track("select_item", itemEventParams(product, { item_list_name: "Similar Products", index: i + 1 }))} />
                </li>
              ))}
            </ul>
          </div>
          {/* There from the first paint wherever more than one item may not fit: the number of dots is the script's. */}
          {items.length > 1 && (
            <div className="similar__dots" data-waiting={!hydrated || undefined} data-fits={fits}>
              {Array.from({ length: dotCount(w) }, (_, d) => (
                <button
                  key={d}
                  type="button"
                  className="similar__dot"
                  aria-label={`Show group ${d + 1} of ${dotCount(w)}`}
                  aria-current={d === activeDot(w) ? "true" : undefined}
                  onClick={() => setOffset(dotOffset(w, d))}
                />
              ))}
            </div>
          )}
        </div>
      )}
    </section>
  );
}

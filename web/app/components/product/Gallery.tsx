import { useRef, useState } from "react";
import { GALLERY_SLOTS, swipeDirection, wrapIndex } from "../../lib/carousel";
import { PRODUCT_IMAGE, type Product } from "../../lib/catalogue";
import { Icon } from "../Icon";

// The product's gallery: 4 slots (all the same image for now, spec section
// 9), previous/next that wrap, dots, thumbnails, a swipe over 50 px, and
// the left and right arrow keys.
export function Gallery({ product }: { product: Product }) {
  const [index, setIndex] = useState(0);
  const swipeStartX = useRef<number | null>(null);
  const slots = Array.from({ length: GALLERY_SLOTS }, (_, i) => ({
    src: product.image,
    alt: `${product.name}, ${product.type}: image ${i + 1} of ${GALLERY_SLOTS}`,
  }));
  const go = (next: number) => setIndex(wrapIndex(next, GALLERY_SLOTS));

  const onKeyDown = (event: React.KeyboardEvent) => {
    if (event.key === "ArrowRight") go(index + 1);
    else if (event.key === "ArrowLeft") go(index - 1);
    else return;
    event.preventDefault();
  };

  return (
    <section className="gallery" aria-roledescription="carousel" aria-label={`Images of ${product.name}`} onKeyDown={onKeyDown}>
      <div
        className="gallery__stage"
        onPointerDown={(e) => {
          swipeStartX.current = e.clientX;
        }}
        onPointerUp={(e) => {
          if (swipeStartX.current === null) return;
          const direction = swipeDirection(swipeStartX.current, e.clientX);
          swipeStartX.current = null;
          if (direction) go(index + direction);
        }}
        onPointerCancel={() => {
          swipeStartX.current = null;
        }}
      >
        <img
          className="gallery__image"
          src={slots[index]!.src}
          alt={slots[index]!.alt}
          width={PRODUCT_IMAGE.width}
          height={PRODUCT_IMAGE.height}
          fetchPriority="high"
          draggable={false}
        />
        <button type="button" className="icon-button gallery__arrow gallery__arrow--prev" aria-label="Previous image" onClick={() => go(index - 1)}>
          <Icon name="chevronLeft" />
        </button>
        <button type="button" className="icon-button gallery__arrow gallery__arrow--next" aria-label="Next image" onClick={() => go(index + 1)}>
          <Icon name="chevronRight" />
        </button>
        <p className="visually-hidden" aria-live="polite">
          Image {index + 1} of {GALLERY_SLOTS}
        </p>
        {/* The dots repeat the thumbnails for pointers; keyboards use the thumbnails. */}
        <div className="gallery__dots" aria-hidden="true">
          {slots.map((_, i) => (
            <button key={i} type="button" tabIndex={-1} className="gallery__dot" data-active={i === index} onClick={() => go(i)} />
          ))}
        </div>
      </div>
      <ul className="gallery__thumbs">
        {slots.map((slot, i) => (
          <li key={i}>
            <button
              type="button"
              className="gallery__thumb"
              aria-label={`Image ${i + 1} of ${GALLERY_SLOTS}`}
              aria-current={i === index ? "true" : undefined}
              onClick={() => go(i)}
            >
              <img src={slot.src} alt="" width={PRODUCT_IMAGE.width / 8} height={PRODUCT_IMAGE.height / 8} loading="lazy" />
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

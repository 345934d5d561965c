import { useRef, useState } from "react";
import { swipeDirection, wrapIndex } from "../../lib/carousel";
import type { Picture as PictureData } from "../../lib/picture";
import { Icon } from "../Icon";
import { Picture } from "../Picture";

// The product's gallery: its own images in order, previous/next that wrap,
// dots, thumbnails, a swipe over 50 px, and the left and right arrow keys.
// A product with one image shows it alone, with no controls that do nothing.
export function Gallery({ name, images }: { name: string; images: PictureData[] }) {
  const [index, setIndex] = useState(0);
  const swipeStartX = useRef<number | null>(null);
  const count = images.length;
  const several = count > 1;
  const go = (next: number) => setIndex(wrapIndex(next, count));

  const onKeyDown = (event: React.KeyboardEvent) => {
    if (!several) return;
    if (event.key === "ArrowRight") go(index + 1);
    else if (event.key === "ArrowLeft") go(index - 1);
    else return;
    event.preventDefault();
  };

  return (
    <section className="gallery" aria-roledescription="carousel" aria-label={`Images of ${name}`} onKeyDown={onKeyDown}>
      <div
        className="gallery__stage"
        onPointerDown={(e) => {
          swipeStartX.current = e.clientX;
        }}
        onPointerUp={(e) => {
          if (swipeStartX.current === null || !several) return;
          const direction = swipeDirection(swipeStartX.current, e.clientX);
          swipeStartX.current = null;
          if (direction) go(index + direction);
        }}
        onPointerCancel={() => {
          swipeStartX.current = null;
        }}
      >
        {/* The whole picture, whatever its shape, in the gallery's 4:5 frame. */}
        <Picture className="gallery__image" picture={images[index]!} slot="gallery" crop={false} priority={index === 0} draggable={false} />
        {several && (
          <>
            <button type="button" className="icon-button gallery__arrow gallery__arrow--prev" aria-label="Previous image" onClick={() => go(index - 1)}>
              <Icon name="chevronLeft" />
            </button>
            <button type="button" className="icon-button gallery__arrow gallery__arrow--next" aria-label="Next image" onClick={() => go(index + 1)}>
              <Icon name="chevronRight" />
            </button>
            <p className="visually-hidden" aria-live="polite">
              Image {index + 1} of {count}
            </p>
            {/* The dots repeat the thumbnails for pointers; keyboards use the thumbnails. */}
            <div className="gallery__dots" aria-hidden="true">
              {images.map((_, i) => (
                <button key={i} type="button" tabIndex={-1} className="gallery__dot" data-active={i === index} onClick={() => go(i)} />
              ))}
            </div>
          </>
        )}
      </div>
      {several && (
        <ul className="gallery__thumbs">
          {images.map((image, i) => (
            <li key={image.src}>
              <button
                type="button"
                className="gallery__thumb"
                aria-label={`Image ${i + 1} of ${count}`}
                aria-current={i === index ? "true" : undefined}
                onClick={() => go(i)}
              >
                <Picture picture={image} slot="thumb" decorative />
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

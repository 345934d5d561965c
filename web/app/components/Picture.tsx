import { sizesFor, type Picture as PictureData, type Slot } from "../lib/picture";

type Props = {
  picture: PictureData;
  /** Where it appears, which decides the `sizes` the browser picks a width by. */
  slot: Slot;
  className?: string;
  /** The largest image above the fold loads at once, with high priority; every other one lazily. */
  priority?: boolean;
  /**
   * Whether the frame crops the picture (object-fit: cover). A frame that
   * shows it whole keeps its own background around it, so it gets no
   * placeholder colour, which would stay in the margins.
   */
  crop?: boolean;
  /** An empty alt when the picture repeats what a nearby text says. */
  decorative?: boolean;
  draggable?: boolean;
};

// One picture: AVIF, else WebP, at the widths the pipeline made, chosen by
// the browser from `sizes`, else one JPEG; a drawing is one SVG. Width and height are the
// original's, so the page reserves the right space before it loads.
export function Picture({ picture, slot, className, priority = false, crop = true, decorative = false, draggable }: Props) {
  const sizes = sizesFor(slot, picture, crop);
  const img = (
    <img
      className={[className, crop && picture.placeholder].filter(Boolean).join(" ") || undefined}
      src={picture.src}
      alt={decorative ? "" : picture.alt}
      width={picture.width}
      height={picture.height}
      loading={priority ? "eager" : "lazy"}
      fetchPriority={priority ? "high" : undefined}
      decoding={priority ? undefined : "async"}
      draggable={draggable}
    />
  );
  if (!picture.avif) return img;
  return (
    <picture>
      <source type="image/avif" srcSet={picture.avif} sizes={sizes} />
      {picture.webp && <source type="image/webp" srcSet={picture.webp} sizes={sizes} />}
      {img}
    </picture>
  );
}

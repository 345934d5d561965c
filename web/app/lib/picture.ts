// A picture as the pages receive it: made by the image pipeline
// (scripts/images.mjs) from one original in content/images/, and looked up
// by the route loaders at build time (lib/catalogue.server.ts).
export type Picture = {
  /** The <img> src: the drawing (SVG), or a JPEG for browsers that take neither AVIF nor WebP. */
  src: string;
  /** The original's size, after its EXIF orientation: the aspect ratio the page reserves. */
  width: number;
  height: number;
  alt: string;
  /** srcset candidates ("url 320w, …"); absent for drawings. */
  avif?: string;
  webp?: string;
  /** A class that paints the dominant colour while the image loads (app/styles/placeholders.css). */
  placeholder?: string;
};

// Where each picture appears, as a `sizes` list for a frame of 4:5: the
// widths follow the layouts in the stylesheets (container 75rem; grids of
// 3, 2 or 1 column at 48rem; the similar carousel's 4, 2, 1 at 1024 and
// 640 px).
export const SIZES = {
  card: ["(max-width: 48rem) calc(50vw - 2rem)", "(max-width: 78rem) calc(33vw - 2rem)", "384px"],
  whatsHot: ["(max-width: 48rem) 75vw", "(max-width: 78rem) calc(33vw - 2rem)", "384px"],
  similar: ["(max-width: 639px) calc(100vw - 3rem)", "(max-width: 1023px) calc(50vw - 2rem)", "290px"],
  gallery: ["(max-width: 48rem) calc(100vw - 3rem)", "(max-width: 78rem) 52vw", "630px"],
  thumb: ["(max-width: 48rem) calc(25vw - 1.5rem)", "(max-width: 78rem) 12vw", "150px"],
  fresh: ["(max-width: 48rem) calc(100vw - 3rem)", "416px"],
  offer: ["(max-width: 48rem) 100vw", "500px"],
  search: ["48px"],
  hero: ["100vw"],
  drawing: ["(max-width: 48rem) calc(100vw - 3rem)", "600px"],
} as const;

export type Slot = keyof typeof SIZES;

// The `sizes` of a picture in a slot. A frame that crops (object-fit:
// cover) shows a picture wider than 4:5 at more than the frame's width,
// so each width is scaled by how much wider it is.
export function sizesFor(slot: Slot, picture: Pick<Picture, "width" | "height">, crop = true): string {
  const factor = crop ? Math.max(1, picture.width / picture.height / (4 / 5)) : 1;
  if (factor < 1.01) return SIZES[slot].join(", ");
  const scale = (size: string) => {
    const cut = size.lastIndexOf(" ");
    const [media, width] = cut > 0 && size.startsWith("(") ? [size.slice(0, cut + 1), size.slice(cut + 1)] : ["", size];
    return `${media}calc(${width.replace(/^calc/, "")} * ${factor.toFixed(2)})`;
  };
  return SIZES[slot].map(scale).join(", ");
}

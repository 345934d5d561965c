// Pure logic of the product page's gallery and Similar Products carousel.

export const SWIPE_THRESHOLD_PX = 50;
export const MAX_SIMILAR = 12;

// The gallery wraps at both ends.
export function wrapIndex(index: number, count: number): number {
  return ((index % count) + count) % count;
}

// A horizontal swipe longer than the threshold moves one image: a swipe to
// the left shows the next one. Anything shorter is a tap, not a swipe.
export function swipeDirection(startX: number, endX: number): -1 | 0 | 1 {
  const dx = endX - startX;
  if (Math.abs(dx) <= SWIPE_THRESHOLD_PX) return 0;
  return dx < 0 ? 1 : -1;
}

// How many similar products one view shows: 4 from 1024 px wide, 2 from
// 640 px, 1 below (product.css has the same widths, by these names).
export const VIEWS = [
  { name: "wide", from: 1024, perView: 4 },
  { name: "medium", from: 640, perView: 2 },
  { name: "narrow", from: 0, perView: 1 },
] as const;

export function itemsPerView(viewportWidth: number): number {
  return VIEWS.find((v) => viewportWidth >= v.from)!.perView;
}

// The views in which every item fits, so there is nothing to move to:
// "wide medium" for 2 items. The CSS hides the arrows and dots in those,
// from the first paint (the script knows the width only once it runs).
export function fitsIn(count: number): string {
  return VIEWS.filter((v) => count <= v.perView)
    .map((v) => v.name)
    .join(" ");
}

export type CarouselWindow = {
  offset: number; // index of the first visible item
  perView: number;
  count: number;
};

export function maxOffset({ count, perView }: Omit<CarouselWindow, "offset">): number {
  return Math.max(0, count - perView);
}

export function clampOffset(w: CarouselWindow): number {
  return Math.min(Math.max(0, w.offset), maxOffset(w));
}

// Arrows move one step; previous is the exact mirror of next.
export function step(w: CarouselWindow, direction: -1 | 1): number {
  return clampOffset({ ...w, offset: w.offset + direction });
}

export function canStep(w: CarouselWindow, direction: -1 | 1): boolean {
  return step(w, direction) !== clampOffset(w);
}

// Dots jump by a whole window: dot i shows the window starting at
// i × perView (the last one ends at the last item).
export function dotCount({ count, perView }: Omit<CarouselWindow, "offset">): number {
  return Math.ceil(count / perView);
}

export function dotOffset(w: Omit<CarouselWindow, "offset">, dot: number): number {
  return clampOffset({ ...w, offset: dot * w.perView });
}

export function activeDot(w: CarouselWindow): number {
  const offset = clampOffset(w);
  if (offset >= maxOffset(w)) return dotCount(w) - 1;
  return Math.floor(offset / w.perView);
}

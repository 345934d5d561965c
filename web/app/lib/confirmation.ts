import { prefersReducedMotion } from "./usePageChange";

/**
 * The ref of what a form shows in its place once it is sent (its thanks),
 * given tabIndex={-1}. The form goes, and the control that had the focus
 * with it, and the page may be shorter than it was: left alone, the view
 * stays where the form ended (a phone sees the footer) and the focus falls
 * to <body>. So the thanks is scrolled into view, below the sticky header
 * (html's scroll-padding-top), at once where motion is reduced; and it
 * takes the focus, so a keyboard or screen-reader user lands on it. Called
 * once, when the thanks appears: the function is the same on every render.
 */
export function showConfirmation(element: HTMLElement | null): void {
  if (!element) return;
  element.focus({ preventScroll: true });
  element.scrollIntoView({ block: "nearest", behavior: prefersReducedMotion() ? "instant" : "smooth" });
}

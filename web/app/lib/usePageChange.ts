import { useEffect, useRef } from "react";
import { useLocation } from "react-router";

export function prefersReducedMotion(): boolean {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

// The history state of a navigation that shows the same page another way
// (the product list's category, page and filters each have an address):
// focus stays on the control that was used.
export const SAME_PAGE = { samePage: true } as const;

// After a change of page, focus moves to the new page's main heading, as
// accessible client-side routers do: a screen reader announces the page,
// and Tab goes on from the top of it rather than from the link that was
// clicked. (Where the page is scrolled to is React Router's
// <ScrollRestoration />, in root.tsx.)
export function usePageChange(): void {
  const { pathname, state } = useLocation();
  const samePage = (state as typeof SAME_PAGE | null)?.samePage === true;
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    if (samePage) return;
    const heading = document.querySelector<HTMLElement>("main h1");
    if (heading) {
      heading.tabIndex = -1;
      heading.focus({ preventScroll: true });
    }
  }, [pathname, samePage]);
}

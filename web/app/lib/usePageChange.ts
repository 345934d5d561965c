import { useEffect, useRef } from "react";
import { useLocation } from "react-router";

export function prefersReducedMotion(): boolean {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

// After a change of page, focus moves to the new page's main heading, as
// accessible client-side routers do: a screen reader announces the page,
// and Tab goes on from the top of it rather than from the link that was
// clicked. (Where the page is scrolled to is React Router's
// <ScrollRestoration />, in root.tsx.)
export function usePageChange(): void {
  const { pathname } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const heading = document.querySelector<HTMLElement>("main h1");
    if (heading) {
      heading.tabIndex = -1;
      heading.focus({ preventScroll: true });
    }
  }, [pathname]);
}

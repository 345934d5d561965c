import { useEffect, useRef } from "react";
import { useLocation, useNavigationType } from "react-router";

export function prefersReducedMotion(): boolean {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

// Where the visitor was on each history entry (by its key), so Back and
// Forward return there, as browsers do between documents.
const positions = new Map<string, number>();

// A new page starts at the top (spec: every path change scrolls smoothly to
// the top; at once under reduced motion); Back and Forward put the visitor
// back where they were on that entry. A change of query alone (filters,
// pages) leaves the scroll where it is; the page decides.
//
// Focus moves to the new page's main heading, as accessible client-side
// routers do: a screen reader announces the page, and Tab goes on from the
// top of it rather than from the link that was clicked.
export function usePageChange(): void {
  const { pathname, key } = useLocation();
  const navigationType = useNavigationType();
  const first = useRef(true);

  useEffect(() => {
    const save = () => positions.set(key, window.scrollY);
    window.addEventListener("scroll", save, { passive: true });
    return () => window.removeEventListener("scroll", save);
  }, [key]);

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
    const saved = positions.get(key);
    if (navigationType === "POP" && saved !== undefined) {
      window.scrollTo({ top: saved, left: 0, behavior: "instant" });
    } else {
      window.scrollTo({ top: 0, left: 0, behavior: prefersReducedMotion() ? "instant" : "smooth" });
    }
    // Only a change of page moves the scroll; key changes with the query too.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pathname]);
}

import { useEffect, useRef } from "react";
import { useLocation } from "react-router";

export function prefersReducedMotion(): boolean {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

// Every path change scrolls to the top: smoothly, or at once when the
// visitor asks for reduced motion. A change of query alone (filters,
// pages) leaves the scroll where it is; the page decides.
export function useScrollToTopOnPathChange(): void {
  const { pathname } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    window.scrollTo({ top: 0, left: 0, behavior: prefersReducedMotion() ? "instant" : "smooth" });
  }, [pathname]);
}

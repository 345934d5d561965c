import { useEffect, useRef } from "react";
import { useLocation } from "react-router";
import { loadGoogleTag, newScrollDepths, scrollPercent, track } from "./analytics";
import { useSite } from "./site";

// Sends page_view and page_navigation on every path change, scroll_depth at
// each 25% once per page view, and time_on_page for each page view: when
// the visitor leaves it for another page of the site, or the document
// unloads.
export function usePageAnalytics(): void {
  const { pathname } = useLocation();
  const previousPath = useRef<string | null>(null);
  const viewStartedAt = useRef(0);
  const { ga4MeasurementId } = useSite();

  useEffect(() => {
    loadGoogleTag(ga4MeasurementId);
    const onHide = () => sendTimeOnPage(window.location.pathname, viewStartedAt.current);
    window.addEventListener("pagehide", onHide);
    return () => window.removeEventListener("pagehide", onHide);
  }, [ga4MeasurementId]);

  useEffect(() => {
    viewStartedAt.current = performance.now();
    track("page_view", {
      page_path: pathname,
      page_location: window.location.href,
      page_title: document.title,
    });
    if (previousPath.current !== null) {
      track("page_navigation", { from: previousPath.current, to: pathname });
    }
    previousPath.current = pathname;

    const sent = new Set<number>();
    let frame = 0;
    const measure = () => {
      frame = 0;
      const percent = scrollPercent(
        window.scrollY,
        window.innerHeight,
        document.documentElement.scrollHeight,
      );
      for (const depth of newScrollDepths(percent, sent)) {
        sent.add(depth);
        track("scroll_depth", { percent: depth, page_path: pathname });
      }
    };
    const onScroll = () => {
      if (!frame) frame = requestAnimationFrame(measure);
    };
    window.addEventListener("scroll", onScroll, { passive: true });
    const startedAt = viewStartedAt.current;
    return () => {
      window.removeEventListener("scroll", onScroll);
      if (frame) cancelAnimationFrame(frame);
      sendTimeOnPage(pathname, startedAt); // left for another page of the site
    };
  }, [pathname]);
}

function sendTimeOnPage(path: string, startedAt: number): void {
  const seconds = Math.round((performance.now() - startedAt) / 1000);
  track("time_on_page", { seconds, page_path: path });
}

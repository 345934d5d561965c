import { useEffect, useRef } from "react";
import { useLocation } from "react-router";
import { loadGoogleTag, newScrollDepths, scrollPercent, track } from "./analytics";
import { site } from "./site";

// Sends page_view and page_navigation on every path change, scroll_depth at
// each 25% once per page view, and time_on_page when the document unloads.
export function usePageAnalytics(): void {
  const { pathname } = useLocation();
  const previousPath = useRef<string | null>(null);
  const viewStartedAt = useRef(0);

  useEffect(() => {
    loadGoogleTag(site.ga4MeasurementId);
    const sendTimeOnPage = () => {
      const seconds = Math.round((performance.now() - viewStartedAt.current) / 1000);
      track("time_on_page", { seconds, page_path: window.location.pathname });
    };
    window.addEventListener("pagehide", sendTimeOnPage);
    return () => window.removeEventListener("pagehide", sendTimeOnPage);
  }, []);

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
    return () => {
      window.removeEventListener("scroll", onScroll);
      if (frame) cancelAnimationFrame(frame);
    };
  }, [pathname]);
}

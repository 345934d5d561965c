import { startTransition, useEffect, useState } from "react";

// Set once the prerendered page has hydrated: a component mounted after
// that (a client-side navigation) starts hydrated, with nothing to flip.
let pageHydrated = false;

// False while React hydrates the prerendered HTML, true afterwards and on
// every client-side render. State that only the browser knows (the URL's
// query, history state) waits for true, so hydration sees what the
// prerender saw and the page then updates itself.
//
// The flip is a transition, rendered in slices after hydration: with
// useSyncExternalStore, whose server value differs, React re-rendered every
// user (the header, each card's shortlist button) at once at the end of
// hydration, one long task on a slow phone (docs/benchmarks.md). Once it
// has rendered, <html> is marked data-hydrated: the page is interactive,
// for tests and scripts (the header uses this on every page).
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(pageHydrated);
  useEffect(() => {
    if (hydrated) {
      document.documentElement.dataset.hydrated = "";
      return;
    }
    pageHydrated = true;
    startTransition(() => setHydrated(true));
  }, [hydrated]);
  return hydrated;
}

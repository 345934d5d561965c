import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

// False while React hydrates the prerendered HTML, true afterwards and on
// every client-side render. State that only the browser knows (the URL's
// query, history state) waits for true, so hydration sees what the
// prerender saw and the page then updates itself.
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}

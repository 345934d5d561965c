import { useEffect } from "react";

// Fetches a chunk of code the page will probably need (the chat panel, the
// search overlay) once the page has loaded and the browser is idle, so
// the first click finds it ready instead of waiting on the network while
// the visitor's first keystrokes are lost.
export function useIdlePrefetch(load: () => Promise<unknown>): void {
  useEffect(() => {
    let idleHandle = 0;
    const prefetch = () => {
      const whenIdle = window.requestIdleCallback ?? ((cb: () => void) => window.setTimeout(cb, 1500));
      idleHandle = whenIdle(() => void load().catch(() => {})); // offline: the click tries again
    };
    if (document.readyState === "complete") prefetch();
    else window.addEventListener("load", prefetch, { once: true });
    return () => {
      window.removeEventListener("load", prefetch);
      if (idleHandle) (window.cancelIdleCallback ?? window.clearTimeout)(idleHandle);
    };
  }, [load]);
}

/**
 * Code that loads on demand (a dialog's): fetched when the browser is idle
 * after load (useIdlePrefetch), when the visitor reaches for its button,
 * or at the latest on the press. Once here, loaded() has it, so the press
 * renders it in the same event and its field has focus before the next
 * key. (React.lazy would suspend at least once, and React holds a fallback
 * it has revealed back for up to 300 ms.)
 */
export function onDemand<T>(load: () => Promise<{ default: T }>): { load: () => Promise<T>; prefetch: () => void; loaded: () => T | null } {
  let value: T | null = null;
  const fetchCode = () => load().then((module) => (value = module.default));
  return {
    load: fetchCode,
    // For a button reached for: offline, nothing is said; the press tries again.
    prefetch: () => void fetchCode().catch(() => {}),
    loaded: () => value,
  };
}

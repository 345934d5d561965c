/**
 * Whether the address now shown is another page than the one the document
 * was loaded for (`loaded`, the navigation's own address); a different
 * #fragment is the same page.
 */
export function movedBeforeHydration(loaded: string | undefined, now: string): boolean {
  if (!loaded) return false;
  const [a, b] = [new URL(loaded), new URL(now)];
  return a.pathname !== b.pathname || a.search !== b.search;
}

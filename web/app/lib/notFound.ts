// The longest address a not-found notice shows whole; a longer one is cut
// to this many characters, the last an ellipsis.
export const SHOWN_PATH_MAX = 60;

// The address a not-found notice names: the path as the browser holds it
// (location.pathname, percent-encoded, so plain ASCII), cut when very long.
// The Go server fills the same into the prerendered page, by the same rule
// (internal/server/pathpage.go, shownPath; contracts/cases/shown-path.json
// holds both to it), so the page hydrates as it was sent.
export function shownPath(path: string): string {
  return path.length > SHOWN_PATH_MAX ? `${path.slice(0, SHOWN_PATH_MAX - 1)}…` : path;
}

// The title of both (the site's "{page} | {studio}").
export const NOT_FOUND_TITLE = "Page not found";

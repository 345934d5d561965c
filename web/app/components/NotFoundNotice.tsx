import { useLocation } from "react-router";
import { shownPath } from "../lib/notFound";

// The one line above a page shown at an address that has none of its own:
// "There is no page at /xyz: here is the home page". It comes first in
// main, so a screen reader meets it first. The path is the address's: the
// prerendered page holds its own path there, which the server replaces with
// the one asked for (internal/server/pathpage.go), so the text is right
// without JavaScript; in the browser it is read from the location, the same
// text (suppressHydrationWarning covers an address the two spell apart).
export function NotFoundNotice({ what, instead }: { what: string; instead: string }) {
  const { pathname } = useLocation();
  return (
    <p className="not-found-notice" role="status">
      There is no {what} at <span suppressHydrationWarning>{shownPath(pathname)}</span>: {instead}
    </p>
  );
}

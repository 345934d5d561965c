import { data } from "react-router";
import { loader as homeLoader } from "./home";

// Any unknown path: its loader answers 404 with the home page's own data,
// and the root route's ErrorBoundary shows it (root.tsx, NotFoundPage).
// The error is the root's, not this route's, so the one prerendered
// document (/__not-found, which the Go server sends with status 404 for
// every path no page has) hydrates the same whichever route the browser
// matches at the address: /no-such-page (this route), /products/page/99
// (the product list's), /thank-you/nonsense (the thank-you page's).
export async function loader() {
  throw data(await homeLoader(), { status: 404, statusText: "Not Found" });
}

// Never shown: the loader always throws (a page route still, not a resource).
export default function NotFound() {
  return null;
}

import { useEffect } from "react";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, isRouteErrorResponse } from "react-router";
import type { Route } from "./+types/root";
import { Header } from "./components/Header";
import { Footer } from "./components/Footer";
import { ChatWidget } from "./components/chat/ChatWidget";
import { WelcomeOffer } from "./components/offer/WelcomeOffer";
import { usePageChange } from "./lib/usePageChange";
import { usePageAnalytics } from "./lib/usePageAnalytics";
import "./styles/tokens.css";
import "./styles/base.css";
// The placeholder colours of the pictures (scripts/images.mjs names them).
import "./styles/placeholders.css";
import { siteFacts } from "./lib/content.server";

// The studio's facts, which the header, the footer and the dialogs show on
// every page (lib/site.ts, useSite), read when the pages are prerendered.
export async function loader() {
  return { site: siteFacts() };
}

// The facts are the release's: a page of the site never fetches them again
// (moving between the product list's addresses still fetches nothing).
export const shouldRevalidate = () => false;

export const links: Route.LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export function Layout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en-IN">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#23305E" />
        <Meta />
        <Links />
      </head>
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <Header />
        <main id="main" tabIndex={-1}>
          {children}
        </main>
        <Footer />
        <ChatWidget />
        <WelcomeOffer />
        {/* A new page opens at its top; Back and Forward return to the place
            the visitor left (positions kept per history entry). */}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  usePageChange();
  usePageAnalytics();
  // A mark for tests and scripts: the prerendered page is now interactive.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "";
  }, []);
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const heading = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : "Something went wrong";
  return (
    <div className="page-intro">
      <h1>{heading}</h1>
      <p>
        Sorry, this page could not be shown. Try the <a href="/">home page</a> or{" "}
        <a href="/products">all products</a>.
      </p>
    </div>
  );
}

import { Links, Meta, Outlet, Scripts, ScrollRestoration, isRouteErrorResponse } from "react-router";
import type { Route } from "./+types/root";
import { Header } from "./components/Header";
import { Footer } from "./components/Footer";
import { ChatWidget } from "./components/chat/ChatWidget";
import { WelcomeOffer } from "./components/offer/WelcomeOffer";
import { usePageChange } from "./lib/usePageChange";
import { usePageAnalytics } from "./lib/usePageAnalytics";
import { siteOf, whatsappUrl } from "./lib/site";
import { whatsappText } from "./lib/whatsapp";
import { HomeContent } from "./routes/home";
import { ErrorMessage } from "./components/ErrorMessage";
import { NotFoundNotice } from "./components/NotFoundNotice";
import { notFoundMeta } from "./lib/meta";
import "./styles/tokens.css";
import "./styles/base.css";
// The placeholder colours of the pictures (scripts/images.mjs names them).
import "./styles/placeholders.css";
import { siteFacts } from "./lib/content.server";

// The studio's facts, which the header, the footer and the dialogs show on
// every page (lib/site.ts, useSite), read when the pages are prerendered.
export async function loader() {
  const site = siteFacts();
  return { site, whatsappChat: whatsappUrl(site, whatsappText(site, "ask")) };
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

// What every page does once it runs: the page's own hooks. (The mark that
// the prerendered page is interactive, html[data-hydrated], is set by
// useHydrated once what only the browser shows has rendered.)
function usePage() {
  usePageChange();
  usePageAnalytics();
}

export default function App() {
  usePage();
  return <Outlet />;
}

// The not-found page: the 404 an unknown path's route answers with the
// home page's data (routes/not-found.tsx). The root shows it, whichever
// route the browser matched at the address, so the one document the server
// sends for every unknown path hydrates as it was rendered.
type HomeData = Parameters<typeof HomeContent>[0];
function notFoundPage(error: unknown): HomeData | null {
  if (!isRouteErrorResponse(error) || error.status !== 404) return null;
  const home = error.data as Partial<HomeData> | null;
  return home && typeof home === "object" && home.hero && home.texts ? (home as HomeData) : null;
}

// The not-found page is the home page's, titled "Page not found" and told
// not to be indexed.
export const meta: Route.MetaFunction = ({ error, matches }) => (notFoundPage(error) ? notFoundMeta(siteOf(matches)) : []);

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  usePage();
  const home = notFoundPage(error);
  if (home)
    return (
      <>
        <NotFoundNotice what="page" instead="here is the home page" />
        <HomeContent {...home} />
      </>
    );
  return <ErrorMessage error={error} />;
}

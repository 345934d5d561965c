import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { movedBeforeHydration } from "./lib/movedBeforeHydration";

// Forward or Back pressed before the scripts ran can move the address to
// another of this tab's entries while the page shown is still the one the
// document was loaded for: the router would hydrate the other page over it.
// Until the router takes over the history, such a move loads the address.
const moved = () => movedBeforeHydration(performance.getEntriesByType("navigation")[0]?.name, location.href);
const reloadIfMoved = () => {
  if ("__reactRouterDataRouter" in window) removeEventListener("popstate", reloadIfMoved);
  else if (moved()) location.reload();
};
addEventListener("popstate", reloadIfMoved);

if (moved()) location.reload();
else
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
    );
  });

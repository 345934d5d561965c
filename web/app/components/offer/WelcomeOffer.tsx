import { useEffect, useState, type ComponentType } from "react";
import { useLocation } from "react-router";
import type { OfferDialogProps } from "./OfferDialog";
import { OFFER_DELAY_MS, OFFER_SEEN_KEY } from "./timing";

// The welcome offer: shown once per browser session, 1 s after the first
// visit to the home page (spec, sections 2 and 9). Its code is fetched only
// then, after hydration, so the first paint carries none of it.

export function WelcomeOffer() {
  const { pathname } = useLocation();
  return pathname === "/" ? <OfferOnHome /> : null;
}

function OfferOnHome() {
  const [Offer, setOffer] = useState<ComponentType<OfferDialogProps> | null>(null);
  const [open, setOpen] = useState(false);

  useEffect(() => {
    if (alreadySeen()) return;
    let cancelled = false;
    const loaded = import("./OfferDialog");
    const timer = window.setTimeout(async () => {
      const { OfferDialog } = await loaded;
      if (cancelled) return;
      markSeen();
      setOffer(() => OfferDialog);
      setOpen(true);
    }, OFFER_DELAY_MS);
    return () => {
      cancelled = true;
      window.clearTimeout(timer);
    };
  }, []);

  return Offer ? <Offer open={open} onClose={() => setOpen(false)} /> : null;
}

// sessionStorage can be unavailable (blocked storage); then the offer shows
// at most once per page load, which is the nearest we can do.
function alreadySeen(): boolean {
  try {
    return window.sessionStorage.getItem(OFFER_SEEN_KEY) !== null;
  } catch {
    return false;
  }
}

function markSeen(): void {
  try {
    window.sessionStorage.setItem(OFFER_SEEN_KEY, "1");
  } catch {
    // see alreadySeen
  }
}

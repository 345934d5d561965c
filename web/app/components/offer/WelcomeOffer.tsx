import { startTransition, useEffect, useState, type ComponentType } from "react";
import { useLocation } from "react-router";
import type { OfferDialogProps } from "./OfferDialog";
import { OFFER_DELAY_MS, OFFER_SEEN_KEY } from "./timing";

// The welcome offer: shown once per browser session, 1 s after the first
// visit to the home page. Its code is fetched only
// then, after hydration, so the first paint carries none of it.
//
// It never interrupts a visitor who has already started: a click, a tap, a
// key, a scroll in that first second (opening the search or the chat is
// one), or focus in a text field when it is due, and it does not open in
// this page view. It is not marked seen, so a later visit to the home page
// in the session may still show it.

// What counts as having started.
const ENGAGED = ["pointerdown", "keydown", "wheel", "touchstart", "scroll"] as const;

export function WelcomeOffer() {
  const { pathname } = useLocation();
  return pathname === "/" ? <OfferOnHome /> : null;
}

function OfferOnHome() {
  const [Offer, setOffer] = useState<ComponentType<OfferDialogProps> | null>(null);
  const [open, setOpen] = useState(false);

  useEffect(() => {
    if (alreadySeen()) return;
    // Stopped once the visitor has started, or the page is left: no offer in this view.
    let stopped = false;
    const unlisten = () => {
      for (const type of ENGAGED) window.removeEventListener(type, stop, true);
    };
    const stop = () => {
      stopped = true;
      window.clearTimeout(timer);
      unlisten();
    };
    // Drawn closed as soon as its code is here, between other work, so
    // that at 1 s only the showing is left to do: a slow phone's one short
    // task there, where making and showing it took two long ones.
    import("./OfferDialog").then(({ OfferDialog }) => {
      if (!stopped) startTransition(() => setOffer(() => OfferDialog));
    });
    const timer = window.setTimeout(() => {
      unlisten();
      if (busy()) return stop();
      markSeen();
      setOpen(true);
    }, OFFER_DELAY_MS);
    for (const type of ENGAGED) window.addEventListener(type, stop, { capture: true, passive: true });
    return stop;
  }, []);

  return Offer ? <Offer open={open} onClose={() => setOpen(false)} /> : null;
}

// A dialog is open, or the visitor is in a text field.
function busy(): boolean {
  const active = document.activeElement;
  return (
    document.querySelector("dialog[open], [role=dialog]:not([hidden])") !== null ||
    (active instanceof HTMLElement && active.matches("input, textarea, select, [contenteditable]"))
  );
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

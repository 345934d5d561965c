import { useEffect, useId, useRef, useState } from "react";
import { Dialog, type CloseReason } from "../Dialog";
import { track } from "../../lib/analytics";
import { useRouteLoaderData } from "react-router";
import type { loader as homeLoader } from "../../routes/home";
import { Picture } from "../Picture";
import { useSite, whatsappUrl, type Site } from "../../lib/site";
import "./OfferDialog.css";

export type OfferDialogProps = { open: boolean; onClose: () => void };

// Two columns from this width up; below it, the full-height mobile layout.
const WIDE = "(min-width: 48rem)";
const CLOSE_ANIMATION_MS = 200;
const greeting = (site: Site) => `Hello ${site.name}! I saw your welcome note and would love to know more about your furniture collection.`;

export function OfferDialog({ open, onClose }: OfferDialogProps) {
  const site = useSite();
  const headingId = useId();
  const wide = useMediaQuery(WIDE);
  const [closing, setClosing] = useState(false);
  const closeTimer = useRef(0);
  // The offer shows on the home page only, with its first What's Hot piece.
  const product = useRouteLoaderData<typeof homeLoader>("routes/home")?.whatsHot[0];

  useEffect(() => () => window.clearTimeout(closeTimer.current), []);

  useEffect(() => {
    if (open) track("offer_modal_view", { event_category: "engagement", event_label: "modal_shown" });
  }, [open]);

  // Plays the way out, then closes.
  const close = () => {
    if (closing) return;
    setClosing(true);
    const reduced = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    closeTimer.current = window.setTimeout(() => {
      setClosing(false);
      onClose();
    }, reduced ? 0 : CLOSE_ANIMATION_MS);
  };

  const dismiss = (reason: CloseReason) => {
    if (closing) return;
    track("offer_modal_close", { event_category: "engagement", event_label: "modal_dismissed", reason });
    close();
  };

  // The link itself opens the messaging app in a new tab.
  const discover = () => {
    track("contact_attempt", { method: "whatsapp", location: "offer_modal" });
    track("offer_modal_conversion", { event_category: "lead_generation", event_label: "grab_deal_click", value: 1 });
    close();
  };

  const cta = (
    <a
      className="button offer__cta"
      href={whatsappUrl(site, greeting(site))}
      target="_blank"
      rel="noopener noreferrer"
      onClick={discover}
    >
      Discover with us
      <span className="visually-hidden"> (opens WhatsApp in a new tab)</span>
    </a>
  );
  const image = product && <Picture className="offer__image" picture={product.image} slot="offer" priority={open} decorative={!wide} />;

  return (
    <Dialog
      open={open}
      onClose={dismiss}
      labelledBy={headingId}
      closeLabel="Close the welcome note"
      className={`offer ${wide ? "offer--wide" : "offer--narrow"}${closing ? " offer--closing" : ""}`}
    >
      {wide ? (
        <div className="offer__columns">
          <div className="offer__text">
            <h2 id={headingId} className="offer__heading">
              Welcome to a world where design whispers stories.
            </h2>
            <p>
              In {site.city}, jharokhas have framed the street for centuries: carved stone that lets in light and
              breeze, and keeps a house its own. {site.name} began with that window.
            </p>
            <p>
              Our craftsmen shape wood, stone and brass with the joinery of their grandfathers, and we draw furniture,
              interiors and light that speak the same quiet language, from a chair to a whole room.
            </p>
            <p>
              Every piece is made by hand, to order, and can be made for your space. Tell us what you are looking
              for; we would love to show you the collection.
            </p>
            {cta}
          </div>
          {image}
        </div>
      ) : (
        <div className="offer__full">
          {image}
          <div className="offer__overlay">
            <h2 id={headingId} className="offer__heading">
              Design that whispers stories.
            </h2>
            <p>Furniture, interiors and light, made by hand in {site.city}.</p>
            <p>Ask us about the collection.</p>
            {cta}
          </div>
        </div>
      )}
    </Dialog>
  );
}

// Safe here: this component is only ever rendered in the browser, after load.
function useMediaQuery(query: string): boolean {
  const [matches, setMatches] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const list = window.matchMedia(query);
    const update = () => setMatches(list.matches);
    update();
    list.addEventListener("change", update);
    return () => list.removeEventListener("change", update);
  }, [query]);
  return matches;
}

// When the welcome offer shows, shared with the
// browser tests, which must know the session flag's name.
export const OFFER_DELAY_MS = 1000;
export const OFFER_SEEN_KEY = "studio.offerSeen";

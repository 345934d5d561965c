import { useEffect, useRef, useState } from "react";
import { startKeyBuffer, takeKeyBuffer } from "../lib/keyBuffer";
import { onDemand } from "../lib/onDemand";
import { useIdlePrefetch } from "../lib/useIdlePrefetch";
import { Link, NavLink, useLocation } from "react-router";
import { closeDisclosureOnEscape } from "../lib/disclosure";
import { mainNav } from "../lib/nav";
import { SHORTLIST_PATH } from "../lib/paths";
import { useShortlistPieces } from "../lib/shortlist/saved";
import { shortlistSize } from "./shortlist/pieces";
import { useSite } from "../lib/site";
import { useHydrated } from "../lib/useHydrated";
import { Icon } from "./Icon";
import "./Header.css";

// The search overlay's code loads on demand (lib/onDemand); until it is
// here, the keys typed after the press are kept (lib/keyBuffer).
const searchOverlay = onDemand(() => import("./search/SearchOverlay"));

// The top bar gains a shadow once the page is scrolled past this.
export const HEADER_SHADOW_AFTER_PX = 50;

export function Header() {
  const site = useSite();
  const [scrolled, setScrolled] = useState(false);
  const [searchOpen, setSearchOpen] = useState(false);
  // Whether the overlay is rendered: from its first opening on, so a
  // reopened search shows the previous text.
  const [searchShown, setSearchShown] = useState(false);
  // The search needs JavaScript: until the page is interactive its button
  // keeps its place but is not shown, so nothing moves when it appears.
  const hydrated = useHydrated();
  const menuRef = useRef<HTMLDetailsElement>(null);
  const { pathname } = useLocation();
  useIdlePrefetch(searchOverlay.load);
  const SearchOverlay = searchOverlay.loaded();

  useEffect(() => {
    const update = () => setScrolled(window.scrollY > HEADER_SHADOW_AFTER_PX);
    update();
    window.addEventListener("scroll", update, { passive: true });
    return () => window.removeEventListener("scroll", update);
  }, []);

  // The mobile menu closes on navigation; focus goes to the new page.
  useEffect(() => {
    const menu = menuRef.current;
    if (menu?.open) {
      const focusWasInMenu = menu.contains(document.activeElement);
      menu.open = false;
      if (focusWasInMenu) document.getElementById("main")?.focus({ preventScroll: true });
    }
  }, [pathname]);

  return (
    <header className={scrolled ? "site-header site-header--scrolled" : "site-header"}>
      <div className="site-header__bar container">
        <Link to="/" className="site-header__brand">
          <img src="/favicon.svg" alt="" width={32} height={32} />
          <span>{site.name}</span>
        </Link>

        <nav className="site-header__nav" aria-label="Main">
          <ul>
            {mainNav.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} end={item.to === "/"}>
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>

        <div className="site-header__actions">
          <button
            type="button"
            className="icon-button site-header__search"
            hidden={!hydrated}
            aria-label="Search products"
            aria-haspopup="dialog"
            onPointerEnter={searchOverlay.prefetch}
            onFocus={searchOverlay.prefetch}
            onClick={() => {
              setSearchOpen(true);
              if (searchOverlay.loaded()) return setSearchShown(true);
              startKeyBuffer(); // what is typed before the field is ready goes into it
              searchOverlay.load().then(
                () => setSearchShown(true),
                () => {
                  takeKeyBuffer(); // offline: the page keeps its keys, and a press tries again
                  setSearchOpen(false);
                },
              );
            }}
          >
            <Icon name="search" />
          </button>
          {searchShown && SearchOverlay && <SearchOverlay open={searchOpen} onClose={() => setSearchOpen(false)} />}
          <ShortlistLink />

          {/* A native disclosure: the menu opens and closes without JavaScript too. */}
          <details className="mobile-menu" ref={menuRef} onKeyDown={closeDisclosureOnEscape}>
            <summary className="icon-button" aria-label="Menu">
              <span className="mobile-menu__open-icon">
                <Icon name="menu" />
              </span>
              <span className="mobile-menu__close-icon">
                <Icon name="close" />
              </span>
            </summary>
            <nav className="mobile-menu__panel" aria-label="Mobile">
              <ul>
                {mainNav.map((item) => (
                  <li key={item.to}>
                    <NavLink to={item.to} end={item.to === "/"}>
                      {item.label}
                    </NavLink>
                  </li>
                ))}
              </ul>
            </nav>
          </details>
        </div>
      </div>
    </header>
  );
}

// The shortlist, with the number of its products on the badge and what it
// holds in the link's name ("Shortlist, 2 products, 7 pieces",
// shortlistSize) once the script has read it. A change is said politely by a live region of its own (a link's name
// changing is not announced). The shortlist lives in the browser's
// storage, so the link keeps its place unseen until the script runs.
function ShortlistLink() {
  const hydrated = useHydrated();
  const saved = useShortlistPieces();
  const count = saved.length;
  const size = shortlistSize(saved);
  const [said, setSaid] = useState<{ size: string | null; text: string }>({ size: null, text: "" });
  if (hydrated && said.size !== size) setSaid({ size, text: said.size === null ? "" : `${size} in your shortlist` });
  return (
    <>
      <NavLink to={SHORTLIST_PATH} className="icon-button site-header__shortlist" data-waiting={!hydrated || undefined}>
        <Icon name="bookmark" />
        <span className="visually-hidden">Shortlist{hydrated && `, ${size}`}</span>
        {count > 0 && (
          <span className="site-header__count" aria-hidden="true">
            {count}
          </span>
        )}
      </NavLink>
      <span className="visually-hidden" aria-live="polite">
        {said.text}
      </span>
    </>
  );
}

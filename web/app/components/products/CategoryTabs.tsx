import { useEffect, useRef } from "react";
import { Link } from "react-router";
import { SAME_PAGE } from "../../lib/usePageChange";

type Props = {
  /** "All" and the catalogue's tabs, in order. */
  tabs: string[];
  selected: string;
  /** The address of the list with that category. */
  hrefOf: (category: string) => string;
  onSelect: (category: string) => void;
};

// The category tabs are links to the list's own address for each category,
// so they work before the page's script has run (or without it); with it,
// React Router moves between them without reloading the page.
export function CategoryTabs({ tabs, selected, hrefOf, onSelect }: Props) {
  // On a narrow phone the tabs are one row that scrolls sideways: the
  // chosen one is brought into that row's view (never scrolling the page).
  const navRef = useRef<HTMLElement>(null);
  useEffect(() => {
    const nav = navRef.current;
    const current = nav?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!nav || !current || nav.scrollWidth <= nav.clientWidth) return;
    const left = current.offsetLeft; // the row is the tabs' offsetParent (products.css)
    if (left < nav.scrollLeft || left + current.offsetWidth > nav.scrollLeft + nav.clientWidth) {
      nav.scrollLeft = left - (nav.clientWidth - current.offsetWidth) / 2;
    }
  }, [selected]);

  return (
    <nav className="category-tabs" aria-label="Categories" ref={navRef}>
      {tabs.map((category) => (
        <Link
          key={category}
          to={hrefOf(category)}
          state={SAME_PAGE}
          preventScrollReset
          aria-current={category === selected ? "page" : undefined}
          className="category-tabs__tab"
          onClick={() => category !== selected && onSelect(category)}
        >
          {category}
        </Link>
      ))}
    </nav>
  );
}

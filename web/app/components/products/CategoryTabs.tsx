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
  return (
    <nav className="category-tabs" aria-label="Categories">
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

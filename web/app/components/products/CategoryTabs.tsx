import { useRef } from "react";

type Props = {
  /** "All" and the catalogue's tabs, in order. */
  tabs: string[];
  selected: string;
  onSelect: (category: string) => void;
  panelId: string;
};

export const tabId = (category: string) => `category-tab-${category.replace(/\W+/g, "-").toLowerCase()}`;

// The category tabs, as the ARIA tabs pattern: one tab stop, arrow keys,
// Home and End move between tabs and select them.
export function CategoryTabs({ tabs, selected, onSelect, panelId }: Props) {
  const listRef = useRef<HTMLDivElement>(null);

  const onKeyDown = (event: React.KeyboardEvent) => {
    const index = tabs.indexOf(selected);
    const last = tabs.length - 1;
    const target = { ArrowRight: index === last ? 0 : index + 1, ArrowLeft: index === 0 ? last : index - 1, Home: 0, End: last }[
      event.key
    ];
    if (target === undefined) return;
    event.preventDefault();
    const category = tabs[target]!;
    onSelect(category);
    listRef.current?.querySelector<HTMLButtonElement>(`#${tabId(category)}`)?.focus();
  };

  return (
    <div className="category-tabs" role="tablist" aria-label="Categories" ref={listRef} onKeyDown={onKeyDown}>
      {tabs.map((category) => {
        const isSelected = category === selected;
        return (
          <button
            key={category}
            id={tabId(category)}
            type="button"
            role="tab"
            aria-selected={isSelected}
            aria-controls={panelId}
            tabIndex={isSelected ? 0 : -1}
            className="category-tabs__tab"
            onClick={() => onSelect(category)}
          >
            {category}
          </button>
        );
      })}
    </div>
  );
}

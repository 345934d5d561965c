import { useEffect, useRef } from "react";
import type { Option } from "../../lib/filters";
import { closeDisclosureOnEscape } from "../../lib/disclosure";
import { Icon } from "../Icon";
import { useHydrated } from "../../lib/useHydrated";

type Props = {
  /** The options, from the catalogue. */
  materialOptions: readonly Option[];
  finishOptions: readonly Option[];
  /** The options chosen. */
  materials: readonly string[];
  finishes: readonly string[];
  onToggleMaterial: (material: string) => void;
  onToggleFinish: (finish: string) => void;
};

// The Sort drop-down with the Material and Finish checkboxes: a native
// disclosure that also closes on Escape and on a click elsewhere.
export function FilterMenu({ materialOptions, finishOptions, materials, finishes, onToggleMaterial, onToggleFinish }: Props) {
  const ref = useRef<HTMLDetailsElement>(null);
  const hydrated = useHydrated();
  const active = materials.length + finishes.length;

  useEffect(() => {
    const closeOnOutsideClick = (event: MouseEvent) => {
      const menu = ref.current;
      if (menu?.open && !menu.contains(event.target as Node)) menu.open = false;
    };
    document.addEventListener("click", closeOnOutsideClick);
    return () => document.removeEventListener("click", closeOnOutsideClick);
  }, []);

  return (
    // The filters work in the page's script (the list is prerendered whole):
    // until it runs they keep their place unseen (so nothing moves when they
    // appear), and without it they are not offered; the tabs and pages are links.
    <details className="filter-menu" ref={ref} onKeyDown={closeDisclosureOnEscape} data-waiting={!hydrated || undefined}>
      <summary className="button button--ghost">
        Sort
        {active > 0 && <span className="filter-menu__count">({active} selected)</span>}
        <Icon name="chevronDown" size={18} />
      </summary>
      <div className="filter-menu__panel">
        <fieldset>
          <legend>Material</legend>
          {materialOptions.map(({ name: m }) => (
            <label key={m} className="filter-menu__option">
              <input type="checkbox" checked={materials.includes(m)} onChange={() => onToggleMaterial(m)} />
              {m}
            </label>
          ))}
        </fieldset>
        <fieldset>
          <legend>Finish</legend>
          {finishOptions.map(({ name: f }) => (
            <label key={f} className="filter-menu__option">
              <input type="checkbox" checked={finishes.includes(f)} onChange={() => onToggleFinish(f)} />
              {f}
            </label>
          ))}
        </fieldset>
      </div>
    </details>
  );
}

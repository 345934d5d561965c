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
  /** The address an option leads to before the page's script runs. */
  hrefOf: (kind: "material" | "finish", name: string) => string;
  onToggleMaterial: (material: string) => void;
  onToggleFinish: (finish: string) => void;
  /** The menu was opened or closed (each opening's ticks are one history entry). */
  onOpenChange: () => void;
};

// The Filter drop-down with the Material and Finish checkboxes: a native
// disclosure that also closes on Escape and on a click elsewhere.
export function FilterMenu({ materialOptions, finishOptions, materials, finishes, hrefOf, onToggleMaterial, onToggleFinish, onOpenChange }: Props) {
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

  // Until the page's script runs (and without it) each option is a link to
  // its prerendered list, drawn as the checkbox it becomes, so nothing
  // moves when the script takes over.
  const option = (kind: "material" | "finish", name: string, chosen: boolean, onToggle: (name: string) => void) =>
    hydrated ? (
      <label key={name} className="filter-menu__option">
        <input type="checkbox" checked={chosen} onChange={() => onToggle(name)} />
        {name}
      </label>
    ) : (
      <a key={name} className="filter-menu__option" href={hrefOf(kind, name)} aria-current={chosen ? "true" : undefined}>
        <span className="filter-menu__box" aria-hidden="true" />
        {chosen && <span className="visually-hidden">Remove the filter </span>}
        {name}
      </a>
    );

  return (
    <details className="filter-menu" ref={ref} onKeyDown={closeDisclosureOnEscape} onToggle={onOpenChange}>
      <summary className="button button--ghost">
        Filter{/* a space in its name, "Filter (2 selected)"; the flex gap draws it */ " "}
        {active > 0 && <span className="filter-menu__count">({active} selected)</span>}
        <Icon name="chevronDown" size={18} />
      </summary>
      <div className="filter-menu__panel">
        <fieldset>
          <legend>Material</legend>
          {materialOptions.map(({ name }) => option("material", name, materials.includes(name), onToggleMaterial))}
        </fieldset>
        <fieldset>
          <legend>Finish</legend>
          {finishOptions.map(({ name }) => option("finish", name, finishes.includes(name), onToggleFinish))}
        </fieldset>
      </div>
    </details>
  );
}

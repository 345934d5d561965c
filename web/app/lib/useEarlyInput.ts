import { useEffectEvent, useLayoutEffect, type RefObject } from "react";

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

/**
 * The value the visitor gave a field, if it differs from what the page was
 * rendered with (a radio group: the button chosen). Checkboxes are left
 * out: none is shown before hydration (the filter menu's are links then).
 */
function changedValue(field: Field): string | null {
  if (field instanceof HTMLSelectElement) return [...field.selectedOptions].some((option) => !option.defaultSelected) ? field.value : null;
  if (field.type === "checkbox") return null;
  if (field instanceof HTMLInputElement && field.type === "radio") return field.checked && !field.defaultChecked ? field.value : null;
  return field.value !== field.defaultValue ? field.value : null;
}

/**
 * What the visitor types or chooses in the prerendered page before its
 * scripts have run lives only in the DOM. React keeps it while hydrating,
 * but the component's state still holds the first values, which the next
 * render would write back (a tapped finish snaps back, a typed name is
 * sent as empty). So in the hydration commit, before any other render, each
 * field under `container` the visitor changed hands its value to `adopt`.
 */
export function useEarlyInput(container: RefObject<HTMLElement | null>, adopt: (name: string, value: string) => void): void {
  const adoptValue = useEffectEvent(adopt);
  useLayoutEffect(() => {
    for (const field of container.current?.querySelectorAll<Field>("input[name], textarea[name], select[name]") ?? []) {
      const value = changedValue(field);
      if (value !== null) adoptValue(field.name, value);
    }
  }, [container]);
}

// Escape closes an open <details> disclosure (the mobile menu, the Filter
// drop-down) and gives focus back to its summary, as a native dialog would.
export function closeDisclosureOnEscape(event: React.KeyboardEvent<HTMLDetailsElement>): void {
  const disclosure = event.currentTarget;
  if (event.key === "Escape" && disclosure.open) {
    event.preventDefault();
    disclosure.open = false;
    disclosure.querySelector("summary")?.focus();
  }
}

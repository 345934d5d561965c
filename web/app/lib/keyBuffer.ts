// Keys typed between a click that opens a text field and the moment that
// field is on screen and focused (its code may still be on the network):
// kept here rather than lost, and handed to the field when it takes focus.
// Enter is kept too (as "\n"): the field's form is sent once it can be.

let buffer: string | null = null;

function onKey(event: KeyboardEvent): void {
  if (buffer === null || event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
  if (event.key.length === 1) buffer += event.key;
  else if (event.key === "Enter") buffer += "\n";
  else if (event.key === "Backspace") buffer = buffer.slice(0, -1);
  else return;
  // The key is the field's, not the page's: a space would scroll it, and
  // Enter or a space would press the button that opened the field again.
  event.preventDefault();
}

// Never for long: a field that fails to appear (offline) must not keep
// the page's keys.
const GIVE_UP_MS = 10_000;
let giveUp = 0;

/** Starts keeping keys; what is kept already stays (a second click of the same button). */
export function startKeyBuffer(): void {
  if (buffer === null) {
    window.addEventListener("keydown", onKey, true);
    buffer = "";
  }
  window.clearTimeout(giveUp);
  giveUp = window.setTimeout(takeKeyBuffer, GIVE_UP_MS);
}

/** What was typed since startKeyBuffer, and stops keeping keys. */
export function takeKeyBuffer(): string {
  const typed = buffer ?? "";
  buffer = null;
  window.removeEventListener("keydown", onKey, true);
  window.clearTimeout(giveUp);
  return typed;
}

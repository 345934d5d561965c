// The reply form's "Use this template" puts the chosen template into the
// message where the cursor is (at the end before she has put it anywhere),
// a blank line around it, keeping everything typed. Without this script
// the button sends the form to the server, which puts the template after
// the message and shows the form again as it was (reply.go).
(() => {
  const form = document.querySelector("form[data-reply]");
  const button = form?.querySelector('button[name="use"]');
  const choice = form?.querySelector('select[name="template"]');
  const message = form?.querySelector('textarea[name="body"]');
  if (!button || !choice || !message) return;
  let placed = false; // whether she has put the cursor in the message
  message.addEventListener("focus", () => {
    placed = true;
  });
  // Enter in a field sends the reply, as it would without templates.
  button.type = "button";
  button.addEventListener("click", () => {
    let text = choice.selectedOptions[0]?.dataset.text ?? "";
    const value = message.value;
    const start = placed ? message.selectionStart : value.length;
    const end = placed ? message.selectionEnd : value.length;
    let before = value.slice(0, start);
    const after = value.slice(end);
    if (before.trim() && !before.endsWith("\n\n")) before += before.endsWith("\n") ? "\n" : "\n\n";
    if (after.trim() && !after.startsWith("\n\n")) text += after.startsWith("\n") ? "\n" : "\n\n";
    message.value = before + text + after;
    const caret = before.length + text.length;
    message.focus();
    message.setSelectionRange(caret, caret);
    message.dispatchEvent(new Event("input", { bubbles: true }));
  });
})();

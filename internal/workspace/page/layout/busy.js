// A form with data-busy="Saving…" says so while its request is under way:
// its buttons are disabled (a second tap sends nothing twice) and the
// button pressed, and the page's live region, say the form's words: those
// of the button pressed when it has its own data-busy ("Making the
// preview…"), the form's for its Save (value "save") or its only button,
// and "One moment…" for another (a list's Add). A form whose own script
// sends it (upload.js: the product's photographs) is left to that script.
// Without JavaScript the form posts as it is.
(() => {
  // A live region from the start, so that its first words are heard; not
  // role=status, which is the page's own news (its Notice); in the page's
  // main landmark, as all its content is.
  const said = document.createElement("p");
  said.className = "vh";
  said.setAttribute("aria-live", "polite");
  (document.querySelector("main") ?? document.body).append(said);

  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (event.defaultPrevented || !(form instanceof HTMLFormElement) || !form.dataset.busy) return;
    if (form.dataset.sending) {
      event.preventDefault(); // sent already: wait for its answer
      return;
    }
    form.dataset.sending = "yes";
    const pressed = event.submitter;
    const own = !pressed || pressed.value === "save" || form.querySelectorAll("button").length === 1;
    const words = pressed?.dataset.busy || (own ? form.dataset.busy : "One moment…");
    // After this turn: the form's entries are taken first, with the
    // button pressed (a disabled button's name and value would be left out).
    setTimeout(() => {
      for (const button of form.querySelectorAll("button")) button.disabled = true;
      if (pressed) {
        pressed.dataset.was = pressed.textContent;
        pressed.textContent = words;
      }
      said.textContent = words;
    });
  });

  // Back to a page the browser kept (the Back button): the form again as it was.
  addEventListener("pageshow", (event) => {
    if (!event.persisted) return;
    for (const form of document.querySelectorAll("form[data-sending]")) {
      delete form.dataset.sending;
      for (const button of form.querySelectorAll("button")) {
        button.disabled = false;
        if (button.dataset.was) button.textContent = button.dataset.was;
      }
    }
    said.textContent = "";
  });
})();

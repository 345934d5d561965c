// A page that follows its own progress (page.Frame.Follow: a build queued
// or running). Every second and a half it asks for its own address again
// and puts the new page's parts in place of its own: each element with
// data-follow and an id takes the children and attributes of the new
// page's element of that id. The element itself stays, so a live region
// (role=status) says what changed, and only what changed: a child that is
// the same is left alone. Once the new page follows nothing more (no
// data-following on its body) this is the last time. A part that carries
// data-follow-open="URL" opens that address (a preview ready). Without
// JavaScript the page's <noscript> refresh does the same, whole.
(() => {
  const EVERY = 1500;
  const AT_MOST = 30000; // the longest wait after failures
  let wait = EVERY;

  const sameOrigin = (url) => {
    try {
      return new URL(url, location.href).origin === location.origin;
    } catch {
      return false;
    }
  };

  // Copies the new element's attributes onto the old one.
  function copyAttributes(old, next) {
    for (const { name } of [...old.attributes]) if (!next.hasAttribute(name)) old.removeAttribute(name);
    for (const { name, value } of [...next.attributes]) if (old.getAttribute(name) !== value) old.setAttribute(name, value);
  }

  // Puts next's children in old, changing only the children that differ;
  // focus stays where it is unless what held it was replaced, when it goes
  // to the new element of the same id or address, if there is one.
  function replace(old, next) {
    copyAttributes(old, next);
    const was = [...old.childNodes];
    const now = [...next.childNodes].map((node) => document.importNode(node, true));
    const focused = document.activeElement;
    const lost = focused && old.contains(focused) && focused !== old ? { id: focused.id, href: focused.getAttribute("href") } : null;
    if (was.length === now.length) {
      was.forEach((node, i) => {
        if (!node.isEqualNode(now[i])) node.replaceWith(now[i]);
      });
    } else {
      old.replaceChildren(...now);
    }
    if (lost && !old.contains(focused)) {
      const again = (lost.id && document.getElementById(lost.id)) || (lost.href && old.querySelector(`[href="${CSS.escape(lost.href)}"]`));
      again?.focus({ preventScroll: true });
    }
  }

  // Puts the fetched page's parts in place; says whether one asks to be
  // opened, and where.
  function update(fetched) {
    let open = "";
    for (const old of document.querySelectorAll("[data-follow][id]")) {
      const next = fetched.getElementById(old.id);
      if (!next) continue;
      if (!old.isEqualNode(next)) replace(old, next);
      const asks = old.closest("[data-follow-open]") ?? old.querySelector("[data-follow-open]");
      open ||= asks?.getAttribute("data-follow-open") ?? "";
    }
    return open;
  }

  async function look() {
    if (document.hidden) {
      document.addEventListener("visibilitychange", look, { once: true });
      return;
    }
    let fetched;
    try {
      const answer = await fetch(location.href, { credentials: "same-origin", cache: "no-store", headers: { Accept: "text/html" } });
      // Signed out meanwhile, or another page: nothing of it is put in place.
      if (!answer.ok || new URL(answer.url).pathname !== location.pathname) throw new Error(String(answer.status));
      fetched = new DOMParser().parseFromString(await answer.text(), "text/html");
      wait = EVERY;
    } catch {
      wait = Math.min(wait * 2, AT_MOST);
      setTimeout(look, wait);
      return;
    }
    const open = update(fetched);
    if (open && sameOrigin(open)) {
      location.assign(open);
      return;
    }
    if (fetched.body?.hasAttribute("data-following")) setTimeout(look, wait);
  }

  if (document.body.hasAttribute("data-following")) setTimeout(look, EVERY);
})();

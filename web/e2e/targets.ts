import type { Page } from "@playwright/test";
import { expect } from "./fixtures";

// Every target of the page a finger can press (links, buttons, boxes, text
// boxes, found by role) is 44 × 44 px at least: a checkbox by its label. A
// link within a sentence (of a paragraph, a list's item, a description)
// is exempt (WCAG 2.5.8's inline exception): its size is the text's.
export async function expectTargetsOf44(page: Page) {
  expect(await smallTargets(page), `on ${page.url()}`).toEqual([]);
}

// The targets of the page smaller than 44 × 44 px, each as “ROLE “NAME”: W × H”.
export async function smallTargets(page: Page): Promise<string[]> {
  const small: string[] = [];
  for (const role of ["link", "button", "checkbox", "radio", "textbox", "combobox"] as const) {
    small.push(
      ...(await page.getByRole(role).evaluateAll(
        (elements, role) =>
          elements.flatMap((element) => {
            const label = element.closest("label");
            const box = ((role === "checkbox" || role === "radio") && label ? label : element).getBoundingClientRect();
            const sentence = element.closest("p, li, dd")?.cloneNode(true) as HTMLElement | undefined;
            sentence?.querySelectorAll("a").forEach((a) => a.remove());
            if (role === "link" && /\p{L}/u.test(sentence?.textContent ?? "")) return [];
            const name = element.getAttribute("aria-label") ?? element.textContent?.trim() ?? element.id;
            return box.width < 44 || box.height < 44 ? [`${role} “${name}”: ${box.width} × ${box.height}`] : [];
          }),
        role,
      )),
    );
  }
  return small;
}

// Nothing of the page is wider than the phone's screen, at 320 and 375 px.
export async function expectNoSidewaysScroll(page: Page) {
  expect(await sidewaysScroll(page), page.url()).toEqual([]);
}

// The widths, of 320 and 375 px, at which the page is wider than the
// screen, or a part of it scrolls sideways within the page (a table in a
// box of its own, which a phone shows cut off with no hint).
export async function sidewaysScroll(page: Page): Promise<string[]> {
  const wider: string[] = [];
  for (const width of [320, 375]) {
    await page.setViewportSize({ width, height: 740 });
    const scrolls = await page.evaluate(() => document.documentElement.scrollWidth);
    if (scrolls > width) wider.push(`${scrolls} px wide at ${width} px`);
    const parts = await page.locator("body *").evaluateAll((elements) =>
      elements
        .filter((e) => /auto|scroll/.test(getComputedStyle(e).overflowX) && e.scrollWidth > e.clientWidth && !(e instanceof HTMLTextAreaElement))
        .map((e) => `${e.tagName.toLowerCase()}${e.className ? `.${e.className}` : ""} (${e.textContent?.trim().slice(0, 40)}…) ${e.scrollWidth} px in ${e.clientWidth}`),
    );
    wider.push(...parts.map((part) => `${part} at ${width} px`));
  }
  return wider;
}

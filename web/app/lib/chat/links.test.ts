import { describe, expect, test } from "vitest";
import { CONTACT_FORM_HREF, linkParts, telHref } from "./links";

// Fixtures, not the studio's content: the chat's texts are the studio's to change.
const contacts = {
  phones: [
    { display: "+91 98765 43210", tel: "+91 98765-43210" },
    { display: "+91 98765 4321", tel: "+91987654321" },
  ],
  email: "hello@example.in",
};

describe("the chat's answers, linked", () => {
  test("each phone number is a tel: link with the number as dialled, the longest match first", () => {
    expect(linkParts("Call +91 98765 43210 or +91 98765 4321.", contacts)).toEqual([
      { kind: "text", text: "Call " },
      { kind: "phone", text: "+91 98765 43210", href: "tel:+919876543210" },
      { kind: "text", text: " or " },
      { kind: "phone", text: "+91 98765 4321", href: "tel:+91987654321" },
      { kind: "text", text: "." },
    ]);
  });

  test("the e-mail address and the words contact form are links, in the case written", () => {
    expect(linkParts("Use the Contact Form or hello@example.in", contacts)).toEqual([
      { kind: "text", text: "Use the " },
      { kind: "contactForm", text: "Contact Form", href: CONTACT_FORM_HREF },
      { kind: "text", text: " or " },
      { kind: "email", text: "hello@example.in", href: "mailto:hello@example.in" },
    ]);
  });

  test("a text with nothing to link is one part, and no text is none", () => {
    expect(linkParts("We deliver across India.", contacts)).toEqual([{ kind: "text", text: "We deliver across India." }]);
    expect(linkParts("", contacts)).toEqual([]);
  });

  test("telHref keeps the plus and the digits only", () => {
    expect(telHref("+91 (291) 262-4410")).toBe("tel:+912912624410");
  });
});

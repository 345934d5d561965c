// The chat's answers are plain text written in content/chat.json, with the
// studio's facts filled in ({{contact.phones}}, {{site.email}}). What a
// visitor would want to tap in them is found here, so the studio writes
// words and no markup: each of the studio's phone numbers (a tel: link),
// its e-mail address (mailto:) and the words "contact form" (the contact
// page's form).

export type TextPart =
  | { kind: "text"; text: string }
  | { kind: "phone" | "email" | "contactForm"; text: string; href: string };

type Contacts = { phones: { display: string; tel: string }[]; email: string };

// tel:+912912624410: the number as dialled, whatever spaces or dashes the
// content wrote in it.
export const telHref = (tel: string) => `tel:${tel.replace(/[^\d+]/g, "")}`;

// The contact page's form, by its heading's id (routes/contact-us.tsx;
// e2e/chat.spec.ts follows the link there).
export const CONTACT_FORM_HREF = "/contact-us#contact-form-heading";

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const CONTACT_FORM_WORDS = "contact form";

export function linkParts(text: string, contacts: Contacts): TextPart[] {
  const targets = new Map<string, TextPart>();
  for (const phone of contacts.phones) targets.set(phone.display.toLowerCase(), { kind: "phone", text: phone.display, href: telHref(phone.tel) });
  if (contacts.email) targets.set(contacts.email.toLowerCase(), { kind: "email", text: contacts.email, href: `mailto:${contacts.email}` });
  targets.set(CONTACT_FORM_WORDS, { kind: "contactForm", text: CONTACT_FORM_WORDS, href: CONTACT_FORM_HREF });
  // The longest first, so that a number never stops at a shorter one it starts with.
  const keys = [...targets.keys()].filter(Boolean).sort((a, b) => b.length - a.length);
  const pattern = new RegExp(`(${keys.map(escape).join("|")})`, "gi");
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    const target = targets.get(match[0].toLowerCase())!;
    if (match.index > last) parts.push({ kind: "text", text: text.slice(last, match.index) });
    parts.push({ ...target, text: match[0] });
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push({ kind: "text", text: text.slice(last) });
  return parts;
}

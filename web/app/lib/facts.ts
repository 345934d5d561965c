// Facts that follow from others in content/, derived here rather than typed
// twice: the messaging-app number is one of the studio's phones
// (site.json names it by its label), and the warranty's label and words
// follow from its years (service.json).

type Phone = { label: string; display: string; tel: string };

// The phone the studio answers messages on. A label that names no phone
// is refused by the content check first (contracts/content-references.json),
// and would stop the build here (the pages and the chat are built from it).
export function whatsappPhone(site: { phones: Phone[]; whatsappPhone: string }): Phone {
  const phone = site.phones.find((p) => p.label === site.whatsappPhone);
  if (!phone) {
    throw new Error(`content/site.json: whatsappPhone: "${site.whatsappPhone}" is the label of none of the phones (${site.phones.map((p) => p.label).join(", ")})`);
  }
  return phone;
}

// The number as wa.me links take it: digits only, with the country code.
export const whatsappNumber = (site: { phones: Phone[]; whatsappPhone: string }) => whatsappPhone(site).tel.replace(/\D/g, "");

const NUMBER_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"];

// "2 Years" for the product page, "two years" for a sentence.
export function warranty(years: number): { years: number; label: string; words: string } {
  const unit = years === 1 ? "year" : "years";
  return { years, label: `${years} ${unit[0]!.toUpperCase()}${unit.slice(1)}`, words: `${NUMBER_WORDS[years] ?? years} ${unit}` };
}

type SiteFacts = {
  name: string;
  phones: Phone[];
  whatsappPhone: string;
  email: string;
  country: string;
  address: { street: string; locality: string; region: string; postalCode: string };
  map: { linkUrl: string };
};

export type Facts = Record<string, unknown>;

// Everything a text in content/ may name as {{path}}: the files site.json
// and service.json as written, with the warranty's words derived, plus
// `contact.*`, ready-made phrases built from the site's facts.
// docs/content-editing.md lists them ("Facts in texts").
export function contentFacts(site: SiteFacts, service: { warranty: { years: number } }): Facts {
  const phones = site.phones;
  const or = (items: string[]) => (items.length > 1 ? `${items.slice(0, -1).join(", ")} or ${items.at(-1)}` : items.join(""));
  const address = `${site.address.street}, ${site.address.locality} ${site.address.postalCode}, ${site.address.region}, ${site.country}`;
  return {
    site,
    service: { ...service, warranty: warranty(service.warranty.years) },
    contact: {
      phones: or(phones.map((p) => p.display)),
      phoneLinks: or(phones.map((p) => `[${p.display}](tel:${p.tel}) (${p.label})`)),
      whatsapp: whatsappPhone(site).display,
      emailLink: `[${site.email}](mailto:${site.email})`,
      address,
      addressLink: `[${address}](${site.map.linkUrl})`,
    },
  };
}

const PLACEHOLDER = /\{\{\s*([\w.]+)\s*\}\}/g;

// The one placeholder syntax of content/: {{site.city}} in the chat script
// and in Markdown alike. A name that is no text or number stops the build
// with the file (`where`) and the name, so a typo never reaches a page.
export function fillFacts(text: string, facts: Facts, where: string): string {
  return text.replace(PLACEHOLDER, (_, path: string) => {
    const value = path.split(".").reduce<unknown>((v, key) => (v as Record<string, unknown> | undefined)?.[key], facts);
    if (typeof value !== "string" && typeof value !== "number") {
      throw new Error(`${where}: {{${path}}} names no fact (docs/content-editing.md lists them under "Facts in texts")`);
    }
    return String(value);
  });
}

// Every text of a value read from content/ (a page's texts in pages.json),
// filled as fillFacts fills one; where names each by its field
// ("content/pages.json: home.craft.text").
export function fillFactsIn<T>(value: T, facts: Facts, where: string): T {
  if (typeof value === "string") return fillFacts(value, facts, where) as T;
  if (Array.isArray(value)) return value.map((v, i) => fillFactsIn(v, facts, `${where}[${i}]`)) as T;
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillFactsIn(v, facts, `${where}.${k}`)])) as T;
  }
  return value;
}

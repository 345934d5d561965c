// Facts that follow from others in content/, derived here rather than typed
// twice: the messaging-app number is one of the studio's phones
// (site.json names it by its label), and the warranty's label and words
// follow from its years (service.json).

type Phone = { label: string; display: string; tel: string };

// The phone the studio answers messages on; a label that names no phone
// stops the build (the pages and the chat are built from it).
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

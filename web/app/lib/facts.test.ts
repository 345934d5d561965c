import { describe, expect, it } from "vitest";
import { contentFacts, fillFacts, warranty, whatsappNumber, whatsappPhone } from "./facts";

// Fixture facts: the rules, not the studio's numbers.
const site = {
  phones: [
    { label: "Studio", display: "+91 291 000 0000", tel: "+912910000000" },
    { label: "Mobile", display: "+91 98000 00000", tel: "+919800000000" },
  ],
  whatsappPhone: "Mobile",
};

describe("facts that follow from others", () => {
  it("the messaging-app number is the phone site.json names", () => {
    expect(whatsappPhone(site).display).toBe("+91 98000 00000");
    expect(whatsappNumber(site)).toBe("919800000000");
    expect(whatsappNumber({ ...site, whatsappPhone: "Studio" })).toBe("912910000000");
  });
  it("a label that names no phone stops the build with the file and the field", () => {
    expect(() => whatsappPhone({ ...site, whatsappPhone: "Fax" })).toThrow('content/site.json: whatsappPhone: "Fax" is the label of none of the phones (Studio, Mobile)');
  });
  it.each([
    [1, "1 Year", "one year"],
    [2, "2 Years", "two years"],
    [3, "3 Years", "three years"],
    [25, "25 Years", "25 years"],
  ])("a warranty of %i years reads %s and %s", (years, label, words) => {
    expect(warranty(years)).toEqual({ years, label, words });
  });
});

describe("{{placeholders}} in content texts", () => {
  const facts = contentFacts(
    {
      ...site,
      name: "Fixture Studio",
      email: "a@b.in",
      country: "India",
      address: { street: "1 Road", locality: "Town", region: "State", postalCode: "100001" },
      map: { linkUrl: "https://map.example/x" },
    },
    { warranty: { years: 3 } },
  );

  it("fills a fact of site.json or service.json, with or without spaces", () => {
    expect(fillFacts("Write to {{ site.email }}.", facts, "x.md")).toBe("Write to a@b.in.");
    expect(fillFacts("{{service.warranty.words}} of cover", facts, "x.md")).toBe("three years of cover");
  });

  it("offers ready-made contact phrases: plain for the chat, links for Markdown", () => {
    expect(fillFacts("{{contact.phones}}", facts, "x")).toBe("+91 291 000 0000 or +91 98000 00000");
    expect(fillFacts("{{contact.phoneLinks}}", facts, "x")).toBe("[+91 291 000 0000](tel:+912910000000) (Studio) or [+91 98000 00000](tel:+919800000000) (Mobile)");
    expect(fillFacts("{{contact.whatsapp}}", facts, "x")).toBe("+91 98000 00000");
    expect(fillFacts("{{contact.emailLink}}", facts, "x")).toBe("[a@b.in](mailto:a@b.in)");
    expect(fillFacts("{{contact.address}}", facts, "x")).toBe("1 Road, Town 100001, State, India");
  });

  it("stops the build on a name that is no fact, naming the file and the name", () => {
    expect(() => fillFacts("Call {{site.fax}}", facts, "content/chat.json: options.call.answer")).toThrow(
      'content/chat.json: options.call.answer: {{site.fax}} names no fact',
    );
    expect(() => fillFacts("{{site}}", facts, "x.md")).toThrow(/x\.md: \{\{site\}\} names no fact/);
  });
});

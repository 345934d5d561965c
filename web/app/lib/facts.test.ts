import { describe, expect, it } from "vitest";
import { warranty, whatsappNumber, whatsappPhone } from "./facts";

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

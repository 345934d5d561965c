import { describe, expect, it } from "vitest";
import { whatsappText } from "./whatsapp";
import type { Site } from "./site";

const site = { name: "A Studio" } as Site;
const chair = { name: "Test piece", type: "Center Table" };

describe("whatsappText", () => {
  it("names the piece and the chosen options", () => {
    expect(whatsappText(site, "ask", chair, { material: "Wood", finish: "Walnut" })).toBe(
      "Hello A Studio, I would like to ask about Test piece (Center Table, Wood, Walnut finish).",
    );
    expect(whatsappText(site, "quote", chair, { finish: "Walnut" })).toBe("Hello A Studio, I would like a quote for Test piece (Center Table, Walnut finish).");
  });
  it("greets without a piece", () => {
    expect(whatsappText(site, "ask")).toBe("Hello A Studio, I have a question.");
    expect(whatsappText(site, "customize")).toBe("Hello A Studio, I would like to talk about a bespoke piece.");
  });
});

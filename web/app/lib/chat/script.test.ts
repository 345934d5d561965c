import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import raw from "../../../../content/chat.json";
import service from "../../../../content/service.json";
import { site } from "../site";
import { whatsappNumber } from "../facts";
import { MAIN_MENU, buildScript, fillFacts, scriptFacts } from "./compile";
import { chatScript } from "./script";

// The script in content/chat.json: complete, consistent, and free of typed
// copies of the studio's facts.

const text = readFileSync(new URL("../../../../content/chat.json", import.meta.url), "utf8");

// The topics and option ids of the spec, section 3.
const specTopics: Record<string, string[]> = {
  "products-services": ["product-details", "best-sellers", "where-to-buy", "product-care"],
  "bespoke-solutions": ["custom-furniture", "design-consultation", "project-collaboration", "renovation-support", "modify-product"],
  "order-delivery": ["track-order", "order-summary", "shipping-charges", "assembly-delivery", "payment-methods"],
  "contact-support": ["request-callback", "live-chat", "warranty-claim", "damaged-missing", "email-us", "return-refund", "talk-to-expert"],
  [MAIN_MENU]: [],
};

describe("content/chat.json", () => {
  test("has exactly the spec's topics and options", () => {
    expect(Object.fromEntries(raw.topics.map((t) => [t.id, t.options]))).toEqual(specTopics);
    expect(raw.options.map((o) => o.id).sort()).toEqual(Object.values(specTopics).flat().sort());
  });

  test("every follow-up id names an option or the main menu", () => {
    const ids = new Set([...raw.options.map((o) => o.id), MAIN_MENU]);
    for (const o of raw.options) {
      expect(o.followUp.length, o.id).toBeGreaterThan(0);
      for (const id of o.followUp) expect(ids.has(id), `${o.id} → ${id}`).toBe(true);
      expect(o.followUp, `${o.id} follows up with itself`).not.toContain(o.id);
      expect(o.followUp, `${o.id} offers the main menu`).toContain(MAIN_MENU);
    }
  });

  test("ids, questions and answers are unique", () => {
    const unique = (xs: string[]) => expect(new Set(xs).size).toBe(xs.length);
    unique(raw.options.map((o) => o.id));
    unique(raw.options.map((o) => o.question));
    unique(raw.options.map((o) => o.answer));
  });

  test("types none of the studio's facts: they come from site.json", () => {
    const facts = [
      site.name,
      site.city,
      site.email,
      whatsappNumber(site),
      site.address.street,
      site.address.postalCode,
      ...site.phones.flatMap((p) => [p.display, p.tel, p.tel.replace("+", "")]),
    ];
    for (const fact of facts) expect(text, fact).not.toContain(fact);
    expect(text).not.toMatch(/@|\d{6,}|\+\d/); // no address, pin code or number of any kind
    // Delivery days, attempts and hours come from content/service.json.
    expect(text).not.toMatch(/\d+-\d+ days|\d+ hours|\d+ delivery attempts/);
  });

  test("every text fills its placeholders from the site's facts", () => {
    const facts = scriptFacts(site, service);
    for (const value of [...Object.values(raw.messages), ...raw.options.flatMap((o) => [o.question, o.answer])]) {
      expect(() => fillFacts(value, facts)).not.toThrow();
    }
    expect(JSON.stringify(chatScript)).not.toMatch(/\{\w+\}/);
    expect(chatScript.options["email-us"]!.answer).toContain(site.email);
    expect(chatScript.options["live-chat"]!.answer).toContain(facts.whatsapp!);
    for (const p of site.phones) expect(chatScript.options["request-callback"]!.answer).toContain(p.display);
    expect(chatScript.messages.whatsappText).toContain(site.name);
  });

  test("an unknown placeholder is an error", () => {
    expect(() => fillFacts("Call {fax}", scriptFacts(site, service))).toThrow(/fax/);
  });

  test("the messaging-app number is the phone site.json names, shown as it", () => {
    const phone = site.phones.find((p) => p.label === site.whatsappPhone)!;
    expect(scriptFacts(site, service).whatsapp).toBe(phone.display);
    const other = site.phones.at(-1)!;
    expect(scriptFacts({ ...site, whatsappPhone: other.label }, service).whatsapp).toBe(other.display);
    expect(() => scriptFacts({ ...site, whatsappPhone: "Fax" }, service)).toThrow(/content\/site\.json: whatsappPhone: "Fax"/);
  });

  test("states the spec's facts", () => {
    const s = buildScript(raw, site, service);
    const answer = (id: string) => s.options[id]!.answer;
    expect(answer("where-to-buy")).toMatch(/online only, through our website and our social platforms/);
    expect(answer("payment-methods")).toMatch(/card, UPI and wallets, or net banking/);
    expect(answer("shipping-charges")).toMatch(/vary by delivery location/);
    expect(answer("shipping-charges")).toMatch(/non-refundable/);
    expect(answer("assembly-delivery")).toMatch(/15-20 days.*45-60 days.*up to 3 delivery attempts/);
    expect(answer("damaged-missing")).toMatch(/within 48 hours of delivery/);
    expect(answer("email-us")).toMatch(/within 24 hours on business days/);
    expect(answer("warranty-claim")).toMatch(/Warranty varies by product/);
  });
});

import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import raw from "../../../../content/chat.json";
import service from "../../../../content/service.json";
import site from "../../../../content/site.json";
import { contentFacts, whatsappNumber } from "../facts";
import { MAIN_MENU, buildScript } from "./compile";

// The script as routes/chat-script.ts prerenders it (/chat.json).
const chatScript = buildScript(raw, contentFacts(site, service));

// The script in content/chat.json: complete, consistent, and free of typed
// copies of the studio's facts.

const text = readFileSync(new URL("../../../../content/chat.json", import.meta.url), "utf8");

describe("content/chat.json", () => {
  test("every topic but the main menu offers options, and every option is in a topic", () => {
    const ids = new Set(raw.options.map((o) => o.id));
    expect(raw.topics.find((t) => t.id === MAIN_MENU)?.options).toEqual([]);
    for (const t of raw.topics.filter((t) => t.id !== MAIN_MENU)) {
      expect(t.options.length, t.id).toBeGreaterThan(0);
      for (const id of t.options) expect(ids.has(id), `${t.id} → ${id}`).toBe(true);
    }
    const listed = new Set(raw.topics.flatMap((t) => t.options));
    for (const id of ids) expect(listed.has(id), `${id} is in no topic`).toBe(true);
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

  test("types none of the studio's facts: they come from site.json and service.json", () => {
    const facts = [
      site.name,
      site.city,
      site.email,
      whatsappNumber(site),
      site.address.street,
      site.address.postalCode,
      service.delivery.inStockDays,
      service.delivery.customDays,
      ...site.phones.flatMap((p) => [p.display, p.tel, p.tel.replace("+", "")]),
    ];
    for (const fact of facts) expect(text, fact).not.toContain(fact);
    expect(text).not.toMatch(/@|\d{6,}|\+\d/); // no address, pin code or number of any kind
    // Delivery days, attempts and hours come from content/service.json.
    expect(text).not.toMatch(/\d+-\d+ days|\d+ hours|\d+ delivery attempts/);
  });

  test("every placeholder is filled from the studio's facts", () => {
    expect(JSON.stringify(chatScript)).not.toMatch(/\{\{\s*[\w.]+\s*\}\}/);
    const compiled = Object.values(chatScript.options);
    for (const o of raw.options.filter((o) => o.answer.includes("{{contact.phones}}"))) {
      for (const p of site.phones) expect(chatScript.options[o.id]!.answer, o.id).toContain(p.display);
    }
    for (const o of raw.options.filter((o) => o.answer.includes("{{service.delivery.inStockDays}}"))) {
      expect(chatScript.options[o.id]!.answer, o.id).toContain(service.delivery.inStockDays);
    }
    expect(compiled.length).toBe(raw.options.length);
  });

  test("a wrong placeholder stops the build, naming the option and the name", () => {
    const broken = { ...raw, options: [{ ...raw.options[0]!, id: "fax", answer: "Call {{site.fax}}" }] };
    expect(() => buildScript(broken, contentFacts(site, service))).toThrow('content/chat.json: options "fax": answer: {{site.fax}} names no fact');
  });
});

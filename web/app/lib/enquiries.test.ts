import { afterEach, describe, expect, it, vi } from "vitest";
import { readFileSync } from "node:fs";
import rules from "../../../contracts/enquiry-rules.json";
import { checkEnquiry, onlyMissing, sendEnquiry, subscribe } from "./enquiries";

const payload = { kind: "contact" as const, name: "Asha", email: "asha@example.com", message: "Hello", idempotencyKey: "0123456789abcdef0123" };

function answer(status: number, body: unknown) {
  return vi.fn(async () => new Response(typeof body === "string" ? body : JSON.stringify(body), { status }));
}

describe("sendEnquiry", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("posts JSON to the API and reports a 201 as sent", async () => {
    const fetch = answer(201, { id: 7 });
    vi.stubGlobal("fetch", fetch);
    expect(await sendEnquiry(payload)).toEqual({ outcome: "sent", status: 201 });
    const [path, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(path).toBe("/api/enquiries");
    expect(init.method).toBe("POST");
    expect((init.headers as Record<string, string>)["Content-Type"]).toBe("application/json");
    expect(JSON.parse(init.body as string)).toEqual(payload);
  });

  it("hands the server's field messages back", async () => {
    vi.stubGlobal("fetch", answer(422, { error: "Some fields need another look.", fields: { email: "Check it." } }));
    expect(await sendEnquiry(payload)).toEqual({ outcome: "invalid", message: "Some fields need another look.", fields: { email: "Check it." } });
  });

  it.each([
    ["a server error", answer(500, { error: "internal detail" })],
    ["an HTML error page", answer(502, "<html>bad gateway</html>")],
    ["a network failure", vi.fn(async () => Promise.reject(new TypeError("Failed to fetch")))],
  ])("reports %s as failed, without the server's details", async (_, fetch) => {
    vi.stubGlobal("fetch", fetch);
    const result = await sendEnquiry(payload);
    expect(result.outcome).toBe("failed");
    expect(JSON.stringify(result)).not.toContain("internal detail");
  });

  it("passes on the rate limit's message", async () => {
    vi.stubGlobal("fetch", answer(429, { error: "Please wait a few minutes." }));
    expect(await sendEnquiry(payload)).toEqual({ outcome: "failed", message: "Please wait a few minutes." });
  });
});

describe("subscribe", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("tells a new subscriber (201) from one already on the list (200)", async () => {
    vi.stubGlobal("fetch", answer(201, { status: "subscribed" }));
    expect(await subscribe("a@b.in")).toEqual({ outcome: "sent", status: 201 });
    vi.stubGlobal("fetch", answer(200, { status: "already subscribed" }));
    expect(await subscribe("a@b.in")).toEqual({ outcome: "sent", status: 200 });
    // Mail on: a link to confirm is on its way (double opt-in).
    vi.stubGlobal("fetch", answer(202, { status: "confirm" }));
    expect(await subscribe("a@b.in")).toEqual({ outcome: "sent", status: 202 });
  });
});

describe("checkEnquiry", () => {
  it("names every missing field at once, and says they are only missing", () => {
    const values = { name: " ", email: "", message: "" };
    const errors = checkEnquiry(values, true);
    expect(Object.keys(errors).sort()).toEqual(["email", "message", "name"]);
    expect(onlyMissing(values, errors)).toBe(true);
  });

  it("tells a wrong address from a missing one", () => {
    const values = { name: "Asha", email: "asha.example.com", message: "Hi" };
    const errors = checkEnquiry(values, true);
    expect(Object.keys(errors)).toEqual(["email"]);
    expect(onlyMissing(values, errors)).toBe(false);
  });
});

// The table the Go server is tested on too (internal/enquiry/parity_test.go):
// both checks judge every case alike.
type Span = { fill: string; length: string; end?: string };
const table: { valid: Record<string, string>; cases: { case: string; edit: Record<string, string | Span>; problems: Record<string, keyof typeof rules.messages> }[] } = JSON.parse(
  readFileSync(new URL("../../../contracts/cases/enquiry-parity.json", import.meta.url), "utf8"),
);
const limitOf = (field: string) => rules.limits[field as keyof typeof rules.limits];
const spanText = ({ fill, length, end = "" }: Span) => {
  const [field, plus] = length.split("+");
  return fill.repeat(limitOf(field!) + Number(plus ?? 0) - [...end].length) + end;
};

describe("the enquiry rules agree with the server's", () => {
  it.each(table.cases.map((c) => [c.case, c] as const))("%s", (_, c) => {
    const values = { ...table.valid };
    for (const [field, edit] of Object.entries(c.edit)) values[field] = typeof edit === "string" ? edit : spanText(edit);
    const want = Object.fromEntries(Object.entries(c.problems).map(([field, key]) => [field, rules.messages[key].replace("{limit}", String(limitOf(field)))]));
    expect(checkEnquiry(values as { name: string; email: string }, values.kind === "contact")).toEqual(want);
  });
});

// Sending enquiries and newsletter sign-ups to the studio's API
// (POST /api/enquiries, POST /api/newsletter; contracts in ARCHITECTURE.md).
import rules from "../../../contracts/enquiry-rules.json";

export type EnquiryKind = "contact" | "quote" | "customize";
/** The kinds the quote dialog and the request page ask for: a quote, or a piece made to measure. */
export type QuoteKind = Exclude<EnquiryKind, "contact">;

/** One piece of a shortlist's quote request; the server names its problems as items[2].finish. */
export type EnquiryItem = { productId: number; material: string; finish: string; quantity: number; note?: string };

export type EnquiryPayload = {
  kind: EnquiryKind;
  name: string;
  email: string;
  phone?: string;
  message: string;
  productId?: number;
  material?: string;
  finish?: string;
  /** The shortlist's pieces: one quote request for them all (kind "quote", no productId). */
  items?: EnquiryItem[];
  /** The honeypot: a field people never see, so never fill. */
  website?: string;
  /** The server's signed time of the form's first edit (POST /api/form-start). */
  started?: string;
  /** The same for every try of one submission, so it is stored once. */
  idempotencyKey: string;
};

export type SendResult =
  | { outcome: "sent"; status: number }
  | { outcome: "invalid"; message: string; fields: Record<string, string> }
  | { outcome: "failed"; message: string };

const FAILED = "We could not reach the studio just now, so nothing was sent.";

async function postJSON(path: string, body: unknown): Promise<SendResult> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body),
    });
  } catch {
    return { outcome: "failed", message: FAILED };
  }
  if (response.ok) return { outcome: "sent", status: response.status };
  let error: { error?: string; fields?: Record<string, string> } = {};
  try {
    error = await response.json();
  } catch {
    // a proxy's HTML error page: the generic message will do
  }
  if ((response.status === 422 || response.status === 400) && error.fields && Object.keys(error.fields).length > 0) {
    return { outcome: "invalid", message: error.error ?? "Some fields need another look.", fields: error.fields };
  }
  return { outcome: "failed", message: response.status === 429 && error.error ? error.error : FAILED };
}

export function sendEnquiry(payload: EnquiryPayload): Promise<SendResult> {
  return postJSON("/api/enquiries", payload);
}

/** 201: a new subscriber; 202: a link to confirm was mailed (not on the list until followed); 200: the address was already on the list. */
export function subscribe(email: string): Promise<SendResult> {
  return postJSON("/api/newsletter", { email });
}

// The form's own check before sending, by the rules the server applies
// (contracts/enquiry-rules.json, read by both; contracts/cases/enquiry-parity.json is the
// table of cases both are tested on). The server checks again.
export const LIMITS = rules.limits;
const PHONE = new RegExp(rules.phonePattern);
const EMAIL = /^[^\s@<>"]+@[^\s@<>"]+$/;
const EMAIL_DOMAIN = new RegExp(rules.emailDomainPattern, "u");
type RuleKey = keyof typeof rules.messages;
const message = (key: RuleKey, limit: number) => rules.messages[key].replace("{limit}", String(limit));
// Characters as the server counts them (runes, and bytes for an address).
const length = (s: string) => [...s].length;
const bytes = (s: string) => new TextEncoder().encode(s).length;

export function checkEnquiry(values: { name: string; email: string; phone?: string; message?: string }, messageRequired: boolean) {
  const errors: Record<string, string> = {};
  const name = values.name.trim();
  const email = values.email.trim();
  const phone = (values.phone ?? "").trim();
  const text = (values.message ?? "").trim();
  if (!name) errors.name = message("nameMissing", LIMITS.name);
  else if (length(name) > LIMITS.name) errors.name = message("nameTooLong", LIMITS.name);
  if (!email) errors.email = message("emailMissing", LIMITS.email);
  else if (bytes(email) > LIMITS.email) errors.email = message("emailTooLong", LIMITS.email);
  else if (!EMAIL.test(email) || !EMAIL_DOMAIN.test(email.slice(email.lastIndexOf("@") + 1))) errors.email = message("emailInvalid", LIMITS.email);
  if (length(phone) > LIMITS.phone || !PHONE.test(phone)) errors.phone = message("phoneInvalid", LIMITS.phone);
  if (!text && messageRequired) errors.message = message("messageMissing", LIMITS.message);
  else if (length(text) > LIMITS.message) errors.message = message("messageTooLong", LIMITS.message);
  return errors;
}

/** True when only required fields are missing, as opposed to wrong. */
export function onlyMissing(values: Record<string, string | undefined>, errors: Record<string, string>): boolean {
  return Object.keys(errors).every((k) => !values[k]?.trim());
}

// Sending enquiries and newsletter sign-ups to the studio's API
// (POST /api/enquiries, POST /api/newsletter; contracts in ARCHITECTURE.md).

export type EnquiryKind = "contact" | "quote" | "customize";

export type EnquiryPayload = {
  kind: EnquiryKind;
  name: string;
  email: string;
  phone?: string;
  message: string;
  productId?: number;
  material?: string;
  finish?: string;
  /** The honeypot: a field people never see, so never fill. */
  website?: string;
  /** Milliseconds between the form appearing and its submission. */
  fillMs: number;
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

/** 201: a new subscriber; 200: the address was already on the list. */
export function subscribe(email: string): Promise<SendResult> {
  return postJSON("/api/newsletter", { email });
}

// The form's own check before sending; the server checks again.
export const LIMITS = { name: 120, email: 254, phone: 20, message: 5000 } as const;
const EMAIL = /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/;

export function checkContact(values: { name: string; email: string; message?: string }, messageRequired: boolean) {
  const errors: Record<string, string> = {};
  if (!values.name.trim()) errors.name = "Please tell us your name.";
  if (!values.email.trim()) errors.email = "Please give your e-mail address.";
  else if (!EMAIL.test(values.email.trim())) errors.email = "Please check your e-mail address: it looks like name@example.com.";
  if (messageRequired && !values.message?.trim()) errors.message = "Please write a message.";
  return errors;
}

/** True when only required fields are missing, as opposed to wrong. */
export function onlyMissing(values: Record<string, string | undefined>, errors: Record<string, string>): boolean {
  return Object.keys(errors).every((k) => !values[k]?.trim());
}

import { useRef, useState } from "react";
import { track } from "../lib/analytics";
import { checkContact, LIMITS, onlyMissing, sendEnquiry } from "../lib/enquiries";
import { site } from "../lib/site";
import { FailureNotice, Honeypot, useFillTimer, useFormStart } from "./EnquiryParts";
import { Field } from "./Field";
import "./ContactForm.css";

type Values = { name: string; email: string; message: string };
const EMPTY: Values = { name: "", email: "", message: "" };
const FORM = "contact";

// The contact form: Your Name, Your Email, Message, Send Message. It posts
// to /api/enquiries; the studio gets the message in its inbox (and by
// e-mail). Checks happen here first, then again on the server.
export function ContactForm() {
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [state, setState] = useState<"idle" | "sending" | "sent" | "failed">("idle");
  const [sentTo, setSentTo] = useState("");
  const [failure, setFailure] = useState("");
  const formRef = useRef<HTMLFormElement>(null);
  const fill = useFillTimer();
  const start = useFormStart(FORM);

  const change = (field: keyof Values) => (event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    start.edited();
    setValues((v) => ({ ...v, [field]: event.target.value }));
    if (errors[field]) setErrors(({ [field]: _, ...rest }) => rest);
    if (state === "sent") setState("idle");
  };

  const focusFirstError = (fields: Record<string, string>) => {
    const first = (["name", "email", "message"] as const).find((f) => fields[f]);
    if (first) formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
  };

  const onSubmit = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (state === "sending") return;
    const found = checkContact(values, true);
    if (Object.keys(found).length > 0) {
      setErrors(found);
      track("validation_error", {
        form_name: FORM,
        error_message: onlyMissing(values, found) ? "Missing required fields" : "Invalid fields",
        fields: Object.keys(found),
      });
      focusFirstError(found);
      return;
    }
    setState("sending");
    const honeypot = new FormData(event.currentTarget).get("website");
    const result = await sendEnquiry({
      kind: "contact",
      name: values.name.trim(),
      email: values.email.trim(),
      message: values.message.trim(),
      website: typeof honeypot === "string" ? honeypot : "",
      fillMs: fill.elapsed(),
    });
    if (result.outcome === "sent") {
      setSentTo(values.email.trim());
      setValues(EMPTY);
      setErrors({});
      setState("sent");
      start.reset();
      fill.restart();
      track("form_submit", { form_name: FORM });
    } else if (result.outcome === "invalid") {
      setErrors(result.fields);
      setState("idle");
      track("form_error", { form_name: FORM, error_message: result.message, fields: Object.keys(result.fields) });
      focusFirstError(result.fields);
    } else {
      setFailure(result.message);
      setState("failed");
      track("submission_error", { form_name: FORM, error_message: result.message });
    }
  };

  return (
    <form
      ref={formRef}
      className="contact-form"
      method="post"
      action="/api/enquiries"
      noValidate
      aria-label="Contact form"
      onSubmit={onSubmit}
    >
      <noscript>
        <p>
          This form needs JavaScript. Write to us at <a href={`mailto:${site.email}`}>{site.email}</a> instead.
        </p>
      </noscript>
      <Field label="Your Name" name="name" required autoComplete="name" maxLength={LIMITS.name} value={values.name} onChange={change("name")} error={errors.name} />
      <Field
        label="Your Email"
        name="email"
        type="email"
        required
        autoComplete="email"
        maxLength={LIMITS.email}
        value={values.email}
        onChange={change("email")}
        error={errors.email}
      />
      <Field
        label="Message"
        multiline
        name="message"
        required
        rows={5}
        maxLength={LIMITS.message}
        value={values.message}
        onChange={change("message")}
        error={errors.message}
      />
      <Honeypot />
      {state === "failed" && <FailureNotice message={failure} location="contact_form" />}
      <p className={state === "sent" ? "enquiry-status enquiry-status--sent" : "enquiry-status"} role="status">
        {state === "sent" && `Thank you. Your message has reached the studio, and we will write back to ${sentTo}.`}
      </p>
      <button type="submit" className="button contact-form__send" aria-disabled={state === "sending" || undefined}>
        {state === "sending" ? "Sending…" : "Send Message"}
      </button>
    </form>
  );
}

import { useState } from "react";
import { useLocation } from "react-router";
import { LIMITS } from "../lib/enquiries";
import { FormPost, Honeypot, useEnquirySubmit, useFormStart } from "../lib/submission";
import { useEarlyInput } from "../lib/useEarlyInput";
import { FailureNotice } from "./FailureNotice";
import { Field, FormProblem } from "./Field";
import { SenderFields } from "./SenderFields";
import "./ContactForm.css";

type Values = { name: string; email: string; message: string };
const EMPTY: Values = { name: "", email: "", message: "" };
const FORM = "contact";

// The contact form: Your Name, Your Email, Message, Send Message. It posts
// to /api/enquiries; the studio gets the message in its inbox (and by
// e-mail). Checks happen here first, then again on the server. Without
// JavaScript it is a plain form post to the page's own address, which the
// server answers with a thank-you page, or this page again with the
// problems shown.
export function ContactForm() {
  const { pathname } = useLocation();
  const [values, setValues] = useState<Values>(EMPTY);
  const [sentTo, setSentTo] = useState("");
  const start = useFormStart(FORM);
  const { errors, state, setState, failure, formRef, clearError, submit } = useEnquirySubmit({
    formName: FORM,
    messageRequired: true,
    fieldOrder: ["name", "email", "message"],
    onSent: () => {
      setSentTo(values.email.trim());
      setValues(EMPTY);
      start.reset();
    },
  });

  // What was typed before the scripts ran is the form's, and its start.
  useEarlyInput(formRef, (field, value) => {
    if (!(field in EMPTY)) return;
    start.edited();
    setValues((v) => ({ ...v, [field]: value }));
  });

  const change = (field: keyof Values) => (event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    start.edited();
    setValues((v) => ({ ...v, [field]: event.target.value }));
    clearError(field);
    if (state === "sent") setState("idle");
  };

  const onSubmit = (event: React.FormEvent<HTMLFormElement>) =>
    submit(event, values, (website) => ({
      kind: "contact",
      name: values.name.trim(),
      email: values.email.trim(),
      message: values.message.trim(),
      website,
      ...start.proof(),
    }));

  return (
    <form
      ref={formRef}
      className="contact-form"
      method="post"
      action={pathname}
      data-form="contact"
      noValidate
      aria-label="Contact form"
      onSubmit={onSubmit}
    >
      <FormPost kind="contact" />
      <FormProblem />
      <SenderFields values={values} onChange={change} errors={errors} />
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

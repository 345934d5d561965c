import { useId, useRef, useState } from "react";
import { track } from "../lib/analytics";
import { useFetcher } from "react-router";
import type { SendResult } from "../lib/enquiries";
import { FormPost, submitForm, useFetcherResult } from "../lib/submission";
import { useEarlyInput } from "../lib/useEarlyInput";

// What the server's answer means (POST /api/newsletter): 202 with mail on
// (double opt-in), for every address alike: a new one is mailed a link to
// confirm, and is not on the list until it is followed.
const NOTES: Record<number, string> = {
  201: "Thank you: you are on the list.",
  202: "Thank you. Unless you are on the list already, we have sent you an e-mail: open its link to finish.",
  200: "You were already on the list. Thank you.",
};

// The footer's newsletter box. It posts without reloading the page (a
// fetcher, through routes/send.ts), clears
// the input and says so when the address is on the list; without
// JavaScript it is a plain form post (a thank-you page follows).
export function NewsletterForm() {
  const inputId = useId();
  const [email, setEmail] = useState("");
  const [outcome, setState] = useState<"idle" | "done" | "failed">("idle");
  const [note, setNote] = useState("");

  const formRef = useRef<HTMLFormElement>(null);
  useEarlyInput(formRef, (field, value) => field === "email" && setEmail(value)); // typed before the scripts ran
  const fetcher = useFetcher<SendResult>();
  const state = fetcher.state !== "idle" ? "sending" : outcome;

  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = email.trim();
    if (!value || state === "sending") return;
    submitForm(fetcher, "newsletter", { email: value });
  };

  useFetcherResult(fetcher, (result) => {
    if (result.outcome === "sent") {
      track("newsletter_signup", { location: "footer" });
      setEmail("");
      setState("done");
      setNote(NOTES[result.status] ?? NOTES[200]!);
    } else {
      setState("failed");
      setNote(
        result.outcome === "invalid"
          ? (result.fields.email ?? result.message)
          : "We could not add you just now. Please try again in a moment.",
      );
    }
  });

  return (
    <form ref={formRef} className="newsletter" method="post" action="/api/newsletter" data-form="newsletter" noValidate onSubmit={onSubmit}>
      <FormPost />
      <label htmlFor={inputId}>Your e-mail</label>
      <div className="newsletter__row">
        <input
          id={inputId}
          type="email"
          name="email"
          required
          autoComplete="email"
          maxLength={254}
          value={email}
          aria-invalid={state === "failed" || undefined}
          aria-describedby={`${inputId}-note`}
          onChange={(e) => {
            setEmail(e.target.value);
            if (state !== "sending") setState("idle");
          }}
        />
        <button type="submit" className="button" aria-disabled={state === "sending" || undefined}>
          Subscribe
        </button>
      </div>
      <p id={`${inputId}-note`} className="newsletter__note" role="status">
        {state === "done" || state === "failed" ? note : ""}
      </p>
    </form>
  );
}

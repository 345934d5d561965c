import { flushSync } from "react-dom";
import { FailureNotice } from "../FailureNotice";
import { Honeypot } from "../../lib/submission";
import { Field } from "../Field";
import { SenderFields } from "../SenderFields";
import { LIMITS } from "../../lib/enquiries";
import { showConfirmation } from "../../lib/confirmation";
import type { QuoteRequest } from "./useQuoteRequest";

/**
 * Ask for a quote: who is asking, for what the shortlist holds (size: "2
 * products, 7 pieces"; these: "these 7 pieces", thesePieces); once sent,
 * the thanks and a way to write again.
 */
export function QuoteForm({ quote, size, these }: { quote: QuoteRequest; size: string; these: string }) {
  const problems = quote.errors;
  // The button goes with the thanks, and the focus would fall to <body>:
  // the form is drawn at once and its first field takes the focus.
  const writeAgain = () => {
    flushSync(() => quote.setState("idle"));
    quote.formRef.current?.querySelector<HTMLElement>("input, textarea")?.focus();
  };
  return (
    <section className="shortlist__request" aria-labelledby="shortlist-request">
      <h2 id="shortlist-request">Ask for a quote</h2>
      {quote.state === "sent" && quote.sent ? (
        <div className="shortlist__sent" role="status" tabIndex={-1} ref={showConfirmation}>
          <p>
            Thank you. Your request for {quote.sent.size} has reached the studio, and we will write back to {quote.sent.email} with a
            quote.
          </p>
          <p>Your shortlist is still here, to change and send again, or to share.</p>
          <button type="button" className="button button--ghost" onClick={writeAgain}>
            Write another request
          </button>
        </div>
      ) : (
        <form ref={quote.formRef} className="shortlist__form" noValidate onSubmit={quote.send} aria-labelledby="shortlist-request">
          <p className="shortlist__for">
            For {these} in your shortlist, with your choices and notes. The studio answers with prices and making
            times.
          </p>
          <SenderFields values={quote.values} onChange={quote.change} errors={problems} phone />
          <Field
            label="Message"
            optional
            multiline
            name="message"
            rows={4}
            maxLength={LIMITS.message}
            hint="The room, the site, when you need the pieces."
            value={quote.values.message}
            onChange={quote.change("message")}
            error={problems.message}
          />
          <Honeypot />
          {problems.items && (
            <p className="field__error" role="alert">
              {problems.items}
            </p>
          )}
          {quote.state === "failed" && <FailureNotice message={quote.failure} location="shortlist" />}
          <button type="submit" className="button" aria-disabled={quote.state === "sending" || undefined}>
            {quote.state === "sending" ? "Sending…" : `Request a quote for ${size}`}
          </button>
        </form>
      )}
    </section>
  );
}

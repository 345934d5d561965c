import { useCallback, useEffect, useEffectEvent, useRef, useState } from "react";
import { useFetcher, useLocation } from "react-router";
import { track } from "./analytics";
import { checkEnquiry, onlyMissing, type EnquiryPayload, type SendResult } from "./enquiries";

// What a form of the site sends besides what was typed, and how: its
// hidden fields (the honeypot; kind, product and page for a post without
// JavaScript), the proof of a submission (start time, idempotency key),
// the post through routes/send.ts, and what an enquiry form does with
// each outcome.

/** The honeypot field: hidden from people by CSS and from screen readers. */
export function Honeypot({ name = "website" }: { name?: string }) {
  return (
    <div className="enquiry-trap" aria-hidden="true">
      <label>
        Leave this field empty
        <input type="text" name={name} tabIndex={-1} autoComplete="off" defaultValue="" />
      </label>
    </div>
  );
}

/**
 * What a form sent without JavaScript tells the server besides its fields:
 * its kind (and product), and the page it is on, which the server shows
 * again with the problems if something needs another look.
 */
export function FormPost({ kind, productId }: { kind?: string; productId?: number }) {
  const { pathname } = useLocation();
  return (
    <>
      {kind && <input type="hidden" name="kind" value={kind} />}
      {productId !== undefined && <input type="hidden" name="productId" value={productId} />}
      <input type="hidden" name="page" value={pathname} />
    </>
  );
}

/** What proves a submission to the server: when it was started, and which it is. */
export type SubmissionProof = { started?: string; idempotencyKey: string };

/** 128 random bits, as a key the server accepts (A-Za-z0-9_-). */
function newKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The first edit of a form: it tracks form_start, asks the server for a
 * signed start time (POST /api/form-start; a submission less than 3 s
 * after it is spam) and makes the submission's idempotency key, so a retry
 * of the same submission is stored once. reset() after a send starts over.
 */
export function useFormStart(formName: string): { edited: () => void; reset: () => void; proof: () => SubmissionProof } {
  const started = useRef(false);
  const token = useRef<string | undefined>(undefined);
  const key = useRef("");
  return {
    edited: useCallback(() => {
      if (started.current) return;
      started.current = true;
      key.current = newKey();
      track("form_start", { form_name: formName });
      fetch("/api/form-start", { method: "POST" })
        .then((r) => (r.ok ? r.json() : undefined))
        .then((answer: { started?: unknown } | undefined) => {
          if (started.current && typeof answer?.started === "string") token.current = answer.started;
        })
        .catch(() => {
          // no start time: the server's other spam checks still apply
        });
    }, [formName]),
    reset: useCallback(() => {
      started.current = false;
      token.current = undefined;
      key.current = "";
    }, []),
    proof: useCallback(() => {
      if (!key.current) key.current = newKey();
      return { started: token.current, idempotencyKey: key.current };
    }, []),
  };
}

export type SubmitState = "idle" | "sending" | "sent" | "failed";

/** Sends a form through the clientAction of routes/send.ts. */
export function submitForm(fetcher: ReturnType<typeof useFetcher>, form: "enquiry" | "newsletter", payload: object) {
  fetcher.submit({ form, ...payload } as Record<string, string>, { method: "post", action: "/send", encType: "application/json" });
}

/**
 * Calls onResult once for each answer a fetcher brings back.
 */
export function useFetcherResult(fetcher: ReturnType<typeof useFetcher<SendResult>>, onResult: (result: SendResult) => void) {
  const handled = useRef<SendResult | undefined>(undefined);
  const handle = useEffectEvent(onResult);
  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data || fetcher.data === handled.current) return;
    handled.current = fetcher.data;
    handle(fetcher.data);
  }, [fetcher.state, fetcher.data]);
}

type SubmitOptions = {
  formName: string;
  messageRequired: boolean;
  /** The fields in the order they appear, so the first wrong one gets focus. */
  fieldOrder: readonly string[];
  /** Extra parameters of the form_submit event. */
  submitParams?: Record<string, unknown>;
  onSent?: () => void;
  /** Where the named fields are, when some are outside the form (the shortlist's pieces); the form by default. */
  fieldsIn?: React.RefObject<HTMLElement | null>;
};

/**
 * What happens when an enquiry form is sent, the same for the contact form
 * and the quote dialog: the form's own check (validation_error), the post
 * through React Router's fetcher and routes/send.ts's clientAction, and its
 * three outcomes: sent (form_submit), the server's field messages
 * (form_error), or a failure that keeps what was typed (submission_error).
 */
export function useEnquirySubmit({ formName, messageRequired, fieldOrder, submitParams, onSent, fieldsIn }: SubmitOptions) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [outcome, setState] = useState<SubmitState>("idle");
  const [failure, setFailure] = useState("");
  const formRef = useRef<HTMLFormElement>(null);
  const fetcher = useFetcher<SendResult>();
  const state: SubmitState = fetcher.state !== "idle" ? "sending" : outcome;

  const focusFirstError = (fields: Record<string, string>) => {
    const first = fieldOrder.find((f) => fields[f]);
    if (first) (fieldsIn ?? formRef).current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
  };

  const clearError = (field: string) => {
    if (errors[field]) setErrors(({ [field]: _, ...rest }) => rest);
  };

  /** Forgets every problem under a prefix ("items["): the pieces they named have moved. */
  const clearErrors = (prefix: string) => {
    if (Object.keys(errors).some((f) => f.startsWith(prefix))) setErrors((all) => Object.fromEntries(Object.entries(all).filter(([f]) => !f.startsWith(prefix))));
  };

  useFetcherResult(fetcher, (result) => {
    if (result.outcome === "sent") {
      setErrors({});
      setState("sent");
      track("form_submit", { form_name: formName, ...submitParams });
      onSent?.();
    } else if (result.outcome === "invalid") {
      setErrors(result.fields);
      setState("idle");
      track("form_error", { form_name: formName, error_message: result.message, fields: Object.keys(result.fields) });
      focusFirstError(result.fields);
    } else {
      setFailure(result.message);
      setState("failed");
      track("submission_error", { form_name: formName, error_message: result.message });
    }
  });

  const submit = (
    event: React.FormEvent<HTMLFormElement>,
    values: { name: string; email: string; phone?: string; message: string } & Record<string, string>,
    payload: (website: string) => EnquiryPayload,
    /** The problems the form's other fields have (a shortlist's quantities). */
    otherProblems: Record<string, string> = {},
  ) => {
    event.preventDefault();
    if (state === "sending") return;
    const found = { ...otherProblems, ...checkEnquiry(values, messageRequired) };
    if (Object.keys(found).length > 0) {
      setErrors(found);
      track("validation_error", {
        form_name: formName,
        error_message: onlyMissing(values, found) ? "Missing required fields" : "Invalid fields",
        fields: Object.keys(found),
      });
      focusFirstError(found);
      return;
    }
    const honeypot = new FormData(event.currentTarget).get("website");
    submitForm(fetcher, "enquiry", payload(typeof honeypot === "string" ? honeypot : ""));
  };

  return { errors, state, setState, failure, formRef, clearError, clearErrors, submit };
}

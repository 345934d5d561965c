import { useEffect, useEffectEvent, useId, useState } from "react";
import type { ProductSummary } from "../lib/catalogue";
import { LIMITS, type QuoteKind } from "../lib/enquiries";
import { useSite, whatsappUrl } from "../lib/site";
import { whatsappText } from "../lib/whatsapp";
import { Dialog } from "./Dialog";
import { Honeypot, useEnquirySubmit, useFormStart } from "../lib/submission";
import { showConfirmation } from "../lib/confirmation";
import { FailureNotice, trackContactAttempt } from "./FailureNotice";
import { Field } from "./Field";
import { SenderFields } from "./SenderFields";
import { Icon } from "./Icon";
import "./Field.css";
import "./QuoteDialog.css";

type Props = {
  open: boolean;
  onClose: () => void;
  kind: QuoteKind;
  product?: ProductSummary;
  material?: string;
  finish?: string;
};

type Values = { name: string; email: string; phone: string; message: string; material: string; finish: string };

function title(kind: QuoteKind, product?: ProductSummary): string {
  if (kind === "quote") return product ? `Get a quote for ${product.name}` : "Get a quote";
  return product ? `Customize ${product.name}` : "Begin a bespoke piece";
}

// The quote dialog: a quote or customisation request for a product, with
// its material and finish, or a bespoke request from no product. Loaded
// on demand by QuoteDialogTrigger.
export default function QuoteDialog({ open, onClose, kind, product, material, finish }: Props) {
  const site = useSite();
  const headingId = useId();
  const initial = (): Values => ({
    name: "",
    email: "",
    phone: "",
    message: "",
    material: material ?? product?.material[0] ?? "",
    finish: finish ?? product?.finish[0] ?? "",
  });
  const [values, setValues] = useState<Values>(initial);
  const formName = kind;
  const start = useFormStart(formName);
  const { errors, state, setState, failure, formRef, clearError, submit } = useEnquirySubmit({
    formName,
    messageRequired: false,
    fieldOrder: ["name", "email", "phone", "material", "finish", "message"],
    submitParams: { product_id: product?.id },
  });

  // Each opening shows the page's current material and finish; what was typed stays unless it was sent. An effect
  // event: it reads the latest state without running again when it changes.
  const onOpen = useEffectEvent(() => {
    setValues((v) => ({ ...v, material: material ?? v.material, finish: finish ?? v.finish }));
    if (state === "sent") {
      setValues(initial());
      setState("idle");
      start.reset();
    }
  });
  useEffect(() => {
    if (open) onOpen();
  }, [open, material, finish]);

  const change = (field: keyof Values) => (event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) => {
    start.edited();
    setValues((v) => ({ ...v, [field]: event.target.value }));
    clearError(field);
  };

  const onSubmit = (event: React.FormEvent<HTMLFormElement>) =>
    submit(event, values, (website) => ({
      kind,
      name: values.name.trim(),
      email: values.email.trim(),
      phone: values.phone.trim() || undefined,
      message: values.message.trim(),
      productId: product?.id,
      material: product ? values.material : undefined,
      finish: product ? values.finish : undefined,
      website,
      ...start.proof(),
    }));

  const heading = title(kind, product);
  return (
    <Dialog open={open} onClose={onClose} labelledBy={headingId} className="quote-dialog">
      <div className="quote-dialog__content">
        <h2 id={headingId}>{heading}</h2>
        {product && (
          <p className="quote-dialog__product">
            {product.name}, {product.type}
          </p>
        )}
        {state === "sent" ? (
          <div className="quote-dialog__sent" role="status" tabIndex={-1} ref={showConfirmation}>
            <p>
              Thank you. Your request has reached the studio, and we will write back to {values.email.trim()} with{" "}
              {kind === "quote" ? "a quote" : "ideas and a quote"}.
            </p>
            <button type="button" className="button" onClick={onClose}>
              Done
            </button>
          </div>
        ) : (
          <form ref={formRef} className="quote-dialog__form" noValidate onSubmit={onSubmit} aria-label={heading}>
            {product && (
              <div className="quote-dialog__options">
                <div className="field">
                  <label htmlFor={`${headingId}-material`}>Material</label>
                  <select id={`${headingId}-material`} name="material" value={values.material} onChange={change("material")}>
                    {product.material.map((m) => (
                      <option key={m}>{m}</option>
                    ))}
                  </select>
                </div>
                <div className="field">
                  <label htmlFor={`${headingId}-finish`}>Finish</label>
                  <select id={`${headingId}-finish`} name="finish" value={values.finish} onChange={change("finish")}>
                    {product.finish.map((f) => (
                      <option key={f}>{f}</option>
                    ))}
                  </select>
                </div>
              </div>
            )}
            <SenderFields values={values} onChange={change} errors={errors} phone />
            <Field
              label="Message"
              optional
              multiline
              name="message"
              rows={4}
              maxLength={LIMITS.message}
              hint={kind === "quote" ? "Size, quantity, where it will go." : product ? "What would you change: size, material, finish, use?" : "The piece you have in mind, the room it is for, its size."}
              value={values.message}
              onChange={change("message")}
              error={errors.message ?? errors.productId}
            />
            <Honeypot />
            {state === "failed" && <FailureNotice message={failure} location="quote_dialog" />}
            <div className="quote-dialog__actions">
              <button type="submit" className="button" aria-disabled={state === "sending" || undefined}>
                {state === "sending" ? "Sending…" : kind === "quote" ? "Request a quote" : "Send request"}
              </button>
              <a
                className="button button--ghost"
                href={whatsappUrl(site, whatsappText(site, kind, product, values))}
                target="_blank"
                rel="noopener noreferrer"
                onClick={() => trackContactAttempt("whatsapp", "quote_dialog")}
              >
                <Icon name="whatsapp" />
                Message us on WhatsApp
                <span className="visually-hidden"> (opens in a new tab)</span>
              </a>
            </div>
          </form>
        )}
      </div>
    </Dialog>
  );
}

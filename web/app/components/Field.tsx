import { useId } from "react";
import "./Field.css";

type Common = { label: string; hint?: string; error?: string; optional?: boolean };
type InputField = Common & { multiline?: false } & React.ComponentPropsWithRef<"input">;
type TextareaField = Common & { multiline: true } & React.ComponentPropsWithRef<"textarea">;

// A form field: its label, the control, a hint and an error message, tied
// together so a screen reader reads them with the control.
//
// The error's element is always there, hidden while empty, and the
// control's aria-describedby always names it: it is the slot the server
// fills when a form sent without JavaScript comes back (fillForm in
// internal/server/forms.go), so the markup is written here only. An
// invalid control is styled by its aria-invalid (Field.css).
export function Field(props: InputField | TextareaField) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = props.hint ? `${hintId} ${errorId}` : errorId;
  const shared = { id, "aria-invalid": props.error ? true : undefined, "aria-describedby": describedBy };

  let control: React.ReactNode;
  if (props.multiline) {
    const { label, hint, error, optional, multiline, ...rest } = props;
    control = <textarea {...rest} {...shared} />;
  } else {
    const { label, hint, error, optional, multiline, ...rest } = props;
    control = <input {...rest} {...shared} />;
  }
  return (
    <div className="field">
      <label htmlFor={id}>
        {props.label}
        {props.optional && <span className="field__optional"> (optional)</span>}
      </label>
      {props.hint && (
        <p id={hintId} className="field__hint">
          {props.hint}
        </p>
      )}
      {control}
      <FieldError id={errorId} error={props.error} />
    </div>
  );
}

/** A field's error, or its empty slot (see Field). */
export function FieldError({ id, error }: { id: string; error?: string }) {
  return (
    <p id={id} className="field__error" hidden={!error}>
      {error}
    </p>
  );
}

/**
 * The slot of a problem of the whole form sent without JavaScript (the
 * product it names is gone, say), empty and hidden; the server fills it
 * (fillForm in internal/server/forms.go). With JavaScript a form shows its
 * problems with FailureNotice.
 */
export function FormProblem() {
  return (
    <div className="enquiry-problem" role="alert" hidden>
      <p />
    </div>
  );
}

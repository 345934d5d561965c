import { useId } from "react";
import "./Field.css";

type Common = { label: string; hint?: string; error?: string; optional?: boolean };
type InputField = Common & { multiline?: false } & React.ComponentPropsWithRef<"input">;
type TextareaField = Common & { multiline: true } & React.ComponentPropsWithRef<"textarea">;

// A form field: its label, the control, a hint and an error message, tied
// together so a screen reader reads them with the control.
export function Field(props: InputField | TextareaField) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [props.hint ? hintId : "", props.error ? errorId : ""].filter(Boolean).join(" ") || undefined;
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
    <div className={props.error ? "field field--invalid" : "field"}>
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
      {props.error && (
        <p id={errorId} className="field__error">
          {props.error}
        </p>
      )}
    </div>
  );
}

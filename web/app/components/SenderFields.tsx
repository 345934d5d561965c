import { LIMITS } from "../lib/enquiries";
import { Field } from "./Field";

// F: the form's own field names, of which these are "name", "email" and "phone".
type Props<F extends string> = {
  /** The form's values and their change handlers, when the page keeps them in state; none for a plain post. */
  values?: Partial<Record<F, string>>;
  onChange?: (field: F) => (event: React.ChangeEvent<HTMLInputElement>) => void;
  errors?: Partial<Record<string, string>>;
  /** Whether the form asks for a phone number (optional) too. */
  phone?: boolean;
};

// Who is writing: Your Name, Your Email and, on a request, Phone; the same
// labels, limits and autocomplete in every enquiry form.
export function SenderFields<F extends string>({ values, onChange, errors = {}, phone = false }: Props<F>) {
  const state = (field: F) => (values ? { value: values[field] ?? "", onChange: onChange?.(field), error: errors[field] } : {});
  return (
    <>
      <Field label="Your Name" name="name" required autoComplete="name" maxLength={LIMITS.name} {...state("name" as F)} />
      <Field label="Your Email" name="email" type="email" required autoComplete="email" maxLength={LIMITS.email} {...state("email" as F)} />
      {phone && <Field label="Phone" optional name="phone" type="tel" autoComplete="tel" maxLength={LIMITS.phone} {...state("phone" as F)} />}
    </>
  );
}

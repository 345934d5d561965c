import { useId, useState } from "react";
import { track } from "../lib/analytics";

// The footer's newsletter box. Submitting does not reload the page.
export function NewsletterForm() {
  const inputId = useId();
  const [email, setEmail] = useState("");

  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const value = email.trim();
    if (!value) return;
    track("newsletter_signup", { location: "footer" });
    setEmail("");
  };

  return (
    <form className="newsletter" onSubmit={onSubmit}>
      <label htmlFor={inputId}>Your e-mail</label>
      <div className="newsletter__row">
        <input
          id={inputId}
          type="email"
          name="email"
          required
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <button type="submit" className="button">
          Subscribe
        </button>
      </div>
    </form>
  );
}

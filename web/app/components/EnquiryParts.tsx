import { useCallback, useEffect, useRef } from "react";
import { track } from "../lib/analytics";
import { site } from "../lib/site";

// Pieces the contact form and the quote dialog share.

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

/** Milliseconds since the form appeared (or since restart() was called). */
export function useFillTimer(): { elapsed: () => number; restart: () => void } {
  const shownAt = useRef<number | null>(null);
  useEffect(() => {
    shownAt.current = performance.now();
  }, []);
  return {
    elapsed: useCallback(() => (shownAt.current === null ? 0 : Math.round(performance.now() - shownAt.current)), []),
    restart: useCallback(() => {
      shownAt.current = performance.now();
    }, []),
  };
}

/** Tracks form_start on the first edit; reset() after a send starts over. */
export function useFormStart(formName: string): { edited: () => void; reset: () => void } {
  const started = useRef(false);
  return {
    edited: useCallback(() => {
      if (started.current) return;
      started.current = true;
      track("form_start", { form_name: formName });
    }, [formName]),
    reset: useCallback(() => {
      started.current = false;
    }, []),
  };
}

export function trackContactAttempt(method: "phone" | "email" | "whatsapp", location: string) {
  track("contact_attempt", { method, location });
}

/** What to do when sending failed: the reason, and the other ways to reach the studio. */
export function FailureNotice({ message, location }: { message: string; location: string }) {
  const phone = site.phones[0];
  return (
    <div className="enquiry-problem" role="alert">
      <p>{message} What you typed is still here: try again in a moment, or reach us directly:</p>
      <ul>
        {phone && (
          <li>
            call{" "}
            <a href={`tel:${phone.tel}`} onClick={() => trackContactAttempt("phone", location)}>
              {phone.display}
            </a>
          </li>
        )}
        <li>
          write to{" "}
          <a href={`mailto:${site.email}`} onClick={() => trackContactAttempt("email", location)}>
            {site.email}
          </a>
        </li>
      </ul>
    </div>
  );
}

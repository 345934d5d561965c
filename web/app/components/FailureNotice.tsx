import { track } from "../lib/analytics";
import { useSite } from "../lib/site";

// What a form shows when sending failed, and the contact_attempt event of
// its (and the quote dialog's) other ways to reach the studio.

export function trackContactAttempt(method: "phone" | "email" | "whatsapp", location: string) {
  track("contact_attempt", { method, location });
}

/** What to do when sending failed: the reason, and the other ways to reach the studio. */
export function FailureNotice({ message, location }: { message: string; location: string }) {
  const site = useSite();
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

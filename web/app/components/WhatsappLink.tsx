import { track } from "../lib/analytics";
type Props = {
  /** The wa.me link, with the message the chat starts with (lib/whatsapp.ts). */
  href: string;
  /** Where the link is, for the contact_attempt event. */
  location: string;
  className?: string;
  children: React.ReactNode;
};

// A click-to-chat link to the studio's WhatsApp number: a plain link, so it
// works without scripts; it opens in a new tab, as the site's other
// external links do, and is tracked as a contact_attempt like the phone
// and e-mail links.
export function WhatsappLink({ href, location, className, children }: Props) {
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      className={className}
      onClick={() => track("contact_attempt", { method: "whatsapp", location })}
    >
      {children}
      <span className="visually-hidden"> (opens in a new tab)</span>
    </a>
  );
}

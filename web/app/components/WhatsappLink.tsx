import { track } from "../lib/analytics";
import { useSite, whatsappUrl } from "../lib/site";

type Props = {
  /** The message the chat starts with (lib/site.ts, whatsappText). */
  text: string;
  /** Where the link is, for the contact_attempt event. */
  location: string;
  className?: string;
  children: React.ReactNode;
};

// A click-to-chat link to the studio's WhatsApp number: a plain link, so it
// works without scripts; it opens in a new tab, as the site's other
// external links do, and is tracked as a contact_attempt like the phone
// and e-mail links.
export function WhatsappLink({ text, location, className, children }: Props) {
  const site = useSite();
  return (
    <a
      href={whatsappUrl(site, text)}
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

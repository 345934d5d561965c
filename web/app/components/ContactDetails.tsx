import { track } from "../lib/analytics";
import { useSite, useWhatsappChat } from "../lib/site";
import { whatsappPhone } from "../lib/facts";
import { Icon } from "./Icon";
import { WhatsappLink } from "./WhatsappLink";
import "./ContactDetails.css";

// The studio's phones, e-mail and address, all from content/site.json.
export function ContactDetails() {
  const site = useSite();
  const whatsappChat = useWhatsappChat();
  const a = site.address;
  const addressLines = [a.street, `${a.locality} ${a.postalCode}`, `${a.region}, ${site.country}`];
  return (
    <section className="contact-details" aria-labelledby="contact-details-heading">
      <h2 id="contact-details-heading">Call, write or visit</h2>
      <dl className="contact-details__list">
        <div>
          <dt>
            <Icon name="phone" size={20} /> Phone
          </dt>
          {site.phones.map((p) => (
            <dd key={p.tel}>
              <a href={`tel:${p.tel}`} onClick={() => track("contact_attempt", { method: "phone", location: "contact_page" })}>
                {p.display}
              </a>{" "}
              <span className="contact-details__label">({p.label})</span>
            </dd>
          ))}
        </div>
        <div>
          <dt>
            <Icon name="whatsapp" size={20} /> WhatsApp
          </dt>
          <dd>
            <WhatsappLink href={whatsappChat} location="contact_page">
              <span className="visually-hidden">WhatsApp </span>
              {whatsappPhone(site).display}
            </WhatsappLink>
          </dd>
        </div>
        <div>
          <dt>
            <Icon name="mail" size={20} /> E-mail
          </dt>
          <dd>
            <a href={`mailto:${site.email}`} onClick={() => track("contact_attempt", { method: "email", location: "contact_page" })}>
              {site.email}
            </a>
          </dd>
        </div>
        <div>
          <dt>Studio</dt>
          <dd>
            <address>
              <a href={site.map.linkUrl} target="_blank" rel="noopener noreferrer">
                {site.name}
                {addressLines.map((line) => (
                  <span key={line}>
                    <br />
                    {line}
                  </span>
                ))}
                <span className="visually-hidden"> (map, opens in a new tab)</span>
              </a>
            </address>
          </dd>
        </div>
      </dl>
    </section>
  );
}

// The map of the studio's address (content/site.json), with a link to open
// it in the map's own site.
export function StudioMap() {
  const site = useSite();
  const a = site.address;
  return (
    <figure className="studio-map">
      <iframe
        src={site.map.embedUrl}
        title={`Map showing ${site.name}, ${a.street}, ${a.locality}`}
        loading="lazy"
        width={600}
        height={400}
        referrerPolicy="no-referrer-when-downgrade"
      />
      <figcaption>
        <a href={site.map.linkUrl} target="_blank" rel="noopener noreferrer">
          Open the map<span className="visually-hidden"> (opens in a new tab)</span>
        </a>
      </figcaption>
    </figure>
  );
}

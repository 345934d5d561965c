import { Link } from "react-router";
import { track } from "../lib/analytics";
import { footerQuickLinks, policyLinks } from "../lib/nav";
import { useSite, useWhatsappChat } from "../lib/site";
import { Icon, type IconName } from "./Icon";
import { NewsletterForm } from "./NewsletterForm";
import { WhatsappLink } from "./WhatsappLink";
import "./Footer.css";

const socialIcons: Record<string, IconName> = {
  "photo-sharing": "instagram",
  "general-social": "facebook",
  "pin-board": "pinterest",
  "professional-network": "linkedin",
};

export function Footer() {
  const site = useSite();
  const whatsappChat = useWhatsappChat();
  return (
    <footer className="site-footer">
      <div className="site-footer__grid container">
        <section className="site-footer__about" aria-labelledby="footer-studio">
          <h2 id="footer-studio">{site.name}</h2>
          <p>{site.tagline}.</p>
          <ul className="site-footer__social" aria-label="Social media">
            {site.social.map((s) => (
              <li key={s.kind}>
                <a
                  href={s.url}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="icon-button"
                  onClick={() => track("social_click", { platform: s.platform, location: "footer" })}
                >
                  <Icon name={socialIcons[s.kind] ?? "arrowRight"} />
                  <span className="visually-hidden">{s.platform} (opens in a new tab)</span>
                </a>
              </li>
            ))}
            <li>
              <WhatsappLink href={whatsappChat} location="footer" className="icon-button">
                <Icon name="whatsapp" />
                <span className="visually-hidden">WhatsApp</span>
              </WhatsappLink>
            </li>
          </ul>
        </section>

        <nav aria-labelledby="footer-quick-links">
          <h2 id="footer-quick-links">Quick links</h2>
          <ul>
            {footerQuickLinks.map((l) => (
              <li key={l.to}>
                <Link to={l.to}>{l.label}</Link>
              </li>
            ))}
          </ul>
        </nav>

        <nav aria-labelledby="footer-policies">
          <h2 id="footer-policies">Policies</h2>
          <ul>
            {policyLinks.map((l) => (
              <li key={l.to}>
                <Link to={l.to}>{l.label}</Link>
              </li>
            ))}
          </ul>
        </nav>

        <section aria-labelledby="footer-newsletter">
          <h2 id="footer-newsletter">Newsletter</h2>
          <p>New pieces and stories from the workshop, a few times a year.</p>
          <NewsletterForm />
        </section>
      </div>
      <p className="site-footer__copyright container">
        © {site.copyrightYear} {site.name}. All rights reserved.
      </p>
    </footer>
  );
}

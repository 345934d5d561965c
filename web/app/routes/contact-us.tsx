import type { Route } from "./+types/contact-us";
import { ContactForm } from "../components/ContactForm";
import { ContactDetails, StudioMap } from "../components/ContactDetails";
import { Faq } from "../components/Faq";
import { Marquee } from "../components/Marquee";
import { pageMeta } from "../lib/meta";
import { site } from "../lib/site";
import { studioJsonLd } from "../lib/structuredData";
import service from "../../../content/service.json";
import faq from "../../../content/pages/faq.md";
import "./contact-us.css";

export const meta: Route.MetaFunction = () =>
  pageMeta({
    title: "Contact us",
    description: `Call, write or visit ${site.name} in ${site.city}: ask about a piece, a quote or a bespoke project.`,
    path: "/contact-us",
    jsonLd: [studioJsonLd()],
  });

export default function Page() {
  return (
    <>
      <div className="page-intro">
        <h1>Get in touch</h1>
        <p>
          Ask about a piece, a quote or a project. We answer e-mails within {service.emailReplyHours} hours on business
          days.
        </p>
      </div>

      <div className="contact container">
        <section className="contact__form" aria-labelledby="contact-form-heading">
          <h2 id="contact-form-heading">Send us a message</h2>
          <ContactForm />
        </section>
        <ContactDetails />
        <StudioMap />
      </div>

      <Marquee text={site.marquee} />

      <Faq id="faq" title="Frequently asked questions" items={faq.sections} />
    </>
  );
}

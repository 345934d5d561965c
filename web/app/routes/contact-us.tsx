import type { Route } from "./+types/contact-us";
import { ContactForm } from "../components/ContactForm";
import { ContactDetails, StudioMap } from "../components/ContactDetails";
import { Faq } from "../components/Faq";
import { Marquee } from "../components/Marquee";
import { pageMeta } from "../lib/meta";
import { siteOf, useSite } from "../lib/site";
import { studioJsonLd } from "../lib/structuredData";
import { markdownDoc, service } from "../lib/content.server";
import "./contact-us.css";

export const meta: Route.MetaFunction = ({ matches }) => {
  const site = siteOf(matches);
  return pageMeta(site, {
    title: "Contact us",
    description: `Call, write or visit ${site.name} in ${site.city}: ask about a piece, a quote or a bespoke project.`,
    path: "/contact-us",
    jsonLd: [studioJsonLd(site)],
  });
};

// The reply time (content/service.json) and the questions (pages/faq.md), read at prerender time.
export async function loader() {
  return { emailReplyHours: service().emailReplyHours, faq: markdownDoc("pages/faq.md").sections };
}

export default function Page({ loaderData: { emailReplyHours, faq } }: Route.ComponentProps) {
  const site = useSite();
  return (
    <>
      <div className="page-intro">
        <h1>Get in touch</h1>
        <p>
          Ask about a piece, a quote or a project. We answer e-mails within {emailReplyHours} hours on business
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

      <Faq id="faq" title="Frequently asked questions" items={faq} />
    </>
  );
}

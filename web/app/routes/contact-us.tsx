import type { Route } from "./+types/contact-us";
import { ContactForm } from "../components/ContactForm";
import { PageIntro } from "../components/PageIntro";
import { pageMeta } from "../lib/meta";
import { site } from "../lib/site";

export const meta: Route.MetaFunction = () =>
  pageMeta({
    title: "Contact us",
    description: `Call, write or visit ${site.name} in ${site.city}: ask about a piece, a quote or a bespoke project.`,
    path: "/contact-us",
  });

export default function Page() {
  return (
    <>
      <PageIntro title="Get in touch">Ask about a piece, a quote or a project. We answer e-mails within a day on business days.</PageIntro>
      <div className="container">
        <ContactForm />
      </div>
    </>
  );
}

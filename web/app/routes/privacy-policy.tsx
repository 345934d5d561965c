import type { Route } from "./+types/privacy-policy";
import { PolicyPage } from "../components/PolicyPage";
import { pageMeta } from "../lib/meta";
import { site } from "../lib/site";
import doc from "../../../content/policies/privacy.md";

export const meta: Route.MetaFunction = () =>
  pageMeta({
    title: doc.meta.title!,
    description: `What the ${site.name} website counts and keeps: no cookies, no identifiers, visits counted on its own server, enquiries used only to answer them.`,
    path: "/privacy-policy",
  });

export default function Page() {
  return <PolicyPage doc={doc} />;
}

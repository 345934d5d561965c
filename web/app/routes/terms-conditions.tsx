import type { Route } from "./+types/terms-conditions";
import { PolicyPage } from "../components/PolicyPage";
import { pageMeta } from "../lib/meta";
import { site } from "../lib/site";
import doc from "../../../content/policies/terms.md";

export const meta: Route.MetaFunction = () =>
  pageMeta({
    title: doc.meta.title!,
    description: `The terms of use of the ${site.name} website: accounts, communication, warranties, links, copyright and acceptable use.`,
    path: "/terms-conditions",
  });

export default function Page() {
  return <PolicyPage doc={doc} />;
}

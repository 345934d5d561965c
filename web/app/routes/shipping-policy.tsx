import type { Route } from "./+types/shipping-policy";
import { PolicyPage } from "../components/PolicyPage";
import { pageMeta } from "../lib/meta";
import { site } from "../lib/site";
import doc from "../../../content/policies/shipping.md";

export const meta: Route.MetaFunction = () =>
  pageMeta({
    title: doc.meta.title!,
    description: `How ${site.name} ships across India: processing, delivery times, delivery attempts, charges and tracking.`,
    path: "/shipping-policy",
  });

export default function Page() {
  return <PolicyPage doc={doc} />;
}

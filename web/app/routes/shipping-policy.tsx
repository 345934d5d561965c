import type { Route } from "./+types/shipping-policy";
import { PolicyPage } from "../components/PolicyPage";
import { policyDoc } from "../lib/content.server";
import { pageMeta } from "../lib/meta";
import { siteOf } from "../lib/site";

// content/policies/shipping.md, as HTML at prerender time.
export async function loader() {
  return policyDoc("policies/shipping.md");
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  const site = siteOf(matches);
  return pageMeta(site, {
    title: loaderData?.meta.title ?? "",
    description: `How ${site.name} ships across India: processing, delivery times, delivery attempts, charges and tracking.`,
    path: "/shipping-policy",
  });
};

export default function Page({ loaderData }: Route.ComponentProps) {
  return <PolicyPage doc={loaderData} />;
}

import type { Route } from "./+types/privacy-policy";
import { PolicyPage } from "../components/PolicyPage";
import { policyDoc } from "../lib/content.server";
import { pageMeta } from "../lib/meta";
import { siteOf } from "../lib/site";

// content/policies/privacy.md, as HTML at prerender time.
export async function loader() {
  return policyDoc("policies/privacy.md");
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  const site = siteOf(matches);
  return pageMeta(site, {
    title: loaderData?.meta.title ?? "",
    description: `What the ${site.name} website counts and keeps: no cookies, no identifiers, visits counted on its own server, enquiries used only to answer them.`,
    path: "/privacy-policy",
  });
};

export default function Page({ loaderData }: Route.ComponentProps) {
  return <PolicyPage doc={loaderData} />;
}

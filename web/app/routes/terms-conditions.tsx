import type { Route } from "./+types/terms-conditions";
import { PolicyPage } from "../components/PolicyPage";
import { policyDoc } from "../lib/content.server";
import { pageMeta } from "../lib/meta";
import { siteOf } from "../lib/site";

// content/policies/terms.md, as HTML at prerender time.
export async function loader() {
  return policyDoc("policies/terms.md");
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  const site = siteOf(matches);
  return pageMeta(site, {
    title: loaderData?.meta.title ?? "",
    description: `The terms of use of the ${site.name} website: accounts, communication, warranties, links, copyright and acceptable use.`,
    path: "/terms-conditions",
  });
};

export default function Page({ loaderData }: Route.ComponentProps) {
  return <PolicyPage doc={loaderData} />;
}

import type { Route } from "./+types/returns";
import { PolicyPage } from "../components/PolicyPage";
import { policyDoc } from "../lib/content.server";
import { pageMeta } from "../lib/meta";
import { siteOf } from "../lib/site";

// content/policies/returns.md, as HTML at prerender time.
export async function loader() {
  return policyDoc("policies/returns.md");
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  const site = siteOf(matches);
  return pageMeta(site, {
    title: loaderData?.meta.title ?? "",
    description: `Returns, refunds, replacements and warranty at ${site.name}.`,
    path: "/returns",
  });
};

export default function Page({ loaderData }: Route.ComponentProps) {
  return <PolicyPage doc={loaderData} />;
}

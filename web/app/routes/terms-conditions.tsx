import type { Route } from "./+types/terms-conditions";
import { PageIntro } from "../components/PageIntro";
import { pageMeta } from "../lib/meta";
import { site } from "../lib/site";

export const meta: Route.MetaFunction = () =>
  pageMeta({
    title: "Terms and Conditions",
    description: `The terms of use of the ${site.name} website.`,
    path: "/terms-conditions",
  });

export default function Page() {
  return <PageIntro title="Terms and Conditions">The terms on which you use the {site.name} website.</PageIntro>;
}

import type { Route } from "./+types/returns";
import { PageIntro } from "../components/PageIntro";
import { pageMeta } from "../lib/meta";
import { site } from "../lib/site";

export const meta: Route.MetaFunction = () =>
  pageMeta({
    title: "Returns and Refund",
    description: `Returns, refunds, replacements and warranty at ${site.name}.`,
    path: "/returns",
  });

export default function Page() {
  return <PageIntro title="Returns and Refund">What happens if a piece arrives damaged, develops a defect, or is out of stock.</PageIntro>;
}

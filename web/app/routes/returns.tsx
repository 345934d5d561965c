import type { Route } from "./+types/returns";
import { PolicyPage } from "../components/PolicyPage";
import { pageMeta } from "../lib/meta";
import { site } from "../lib/site";
import doc from "../../../content/policies/returns.md";

export const meta: Route.MetaFunction = () =>
  pageMeta({
    title: doc.meta.title!,
    description: `Returns, refunds, replacements and warranty at ${site.name}.`,
    path: "/returns",
  });

export default function Page() {
  return <PolicyPage doc={doc} />;
}

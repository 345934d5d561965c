import type { Route } from "./+types/shipping-policy";
import { PageIntro } from "../components/PageIntro";
import { pageMeta } from "../lib/meta";
import { site } from "../lib/site";

export const meta: Route.MetaFunction = () =>
  pageMeta({
    title: "Shipping Policy",
    description: `How ${site.name} ships across India: processing, delivery times, delivery attempts, charges and tracking.`,
    path: "/shipping-policy",
  });

export default function Page() {
  return <PageIntro title="Shipping Policy">How we pack, ship and deliver your order across India.</PageIntro>;
}

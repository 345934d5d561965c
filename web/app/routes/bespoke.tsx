import type { Route } from "./+types/bespoke";
import { PageIntro } from "../components/PageIntro";
import { pageMeta } from "../lib/meta";
import { site } from "../lib/site";

export const meta: Route.MetaFunction = () =>
  pageMeta({
    title: "Bespoke Solution",
    description: `Bespoke furniture, interiors and lighting by ${site.name}: no blueprint, craft over compromise, design that breathes you.`,
    path: "/bespoke",
  });

export default function Page() {
  return <PageIntro title="Bespoke Solution">Furniture, interiors and light drawn for one place and one person, made by hand in {site.city}.</PageIntro>;
}

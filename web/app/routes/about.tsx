import type { Route } from "./+types/about";
import { PageIntro } from "../components/PageIntro";
import { pageMeta } from "../lib/meta";
import { site } from "../lib/site";

export const meta: Route.MetaFunction = () =>
  pageMeta({
    title: "About us",
    description: `${site.name} is a furniture, interior and lighting design studio in ${site.city}, rooted in the crafts of Rajasthan.`,
    path: "/about",
  });

export default function Page() {
  return <PageIntro title="About us">{site.name} designs furniture, interiors and light in one language, made by hand with craftsmen in {site.city}.</PageIntro>;
}

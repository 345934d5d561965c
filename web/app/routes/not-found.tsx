import type { Route } from "./+types/not-found";
import { HomeContent } from "./home";
import { pageMeta } from "../lib/meta";
import { siteOf } from "../lib/site";

// Any unknown path shows the home page. The server sends
// it with status 404, and robots are told not to index it.
export const meta: Route.MetaFunction = ({ matches }) => {
  const site = siteOf(matches);
  return [
  ...pageMeta(site, { title: site.tagline, description: site.description, path: "/" }),
  { name: "robots", content: "noindex" },
];
};

// The home page's own data, made at build time for /__not-found.
export { loader } from "./home";

export default function NotFound({ loaderData }: Route.ComponentProps) {
  return <HomeContent {...loaderData} />;
}

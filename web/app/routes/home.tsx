import { Link } from "react-router";
import type { Route } from "./+types/home";
import { pageMeta } from "../lib/meta";
import { site } from "../lib/site";

export const meta: Route.MetaFunction = () =>
  pageMeta({ title: site.tagline, description: site.description, path: "/" });

export default function Home() {
  return (
    <>
      <section className="container">
        <img
          src="/images/hero.svg"
          alt="A sandstone room with an arched window, a lounge chair, a side table and a brass pendant lamp"
          width={1600}
          height={900}
          fetchPriority="high"
        />
      </section>
      <div className="page-intro">
        <h1>{site.name}</h1>
        <p>
          {site.tagline}. A studio in {site.city} designing furniture, interiors and light in one language.{" "}
          <Link to="/products">See all products</Link>.
        </p>
      </div>
    </>
  );
}

import { Link } from "react-router";
import type { Route } from "./+types/about";
import { pageMeta } from "../lib/meta";
import { siteOf } from "../lib/site";
import { markdownDoc, pagesSection } from "../lib/content.server";
import { drawing } from "../lib/catalogue.server";
import { Picture } from "../components/Picture";
import "./about.css";

export const meta: Route.MetaFunction = ({ matches }) => {
  const site = siteOf(matches);
  return pageMeta(site, {
    title: "About us",
    description: `${site.name} is a furniture, interior and lighting design studio in ${site.city}, rooted in the crafts of Rajasthan.`,
    path: "/about",
  });
};

// The story (content/pages/about.md) and the team, read at prerender time.
export async function loader() {
  const { founders, craftsmen, projects } = pagesSection("about");
  const square = { width: 600, height: 600 };
  return {
    story: markdownDoc("pages/about.md").html,
    founders: founders.map((f) => ({ ...f, image: drawing(f.image, f.alt, square) })),
    craftsmen: { ...craftsmen, image: drawing(craftsmen.image, craftsmen.alt, square) },
    projects: projects.map((p) => ({ ...p, image: drawing(p.image, p.alt, { width: 1200, height: 800 }) })),
  };
}

export default function Page({ loaderData: { story, founders, craftsmen, projects } }: Route.ComponentProps) {
  return (
    <>
      <section className="about-story" aria-labelledby="about-heading">
        <h1 id="about-heading">About us</h1>
        <div className="prose about-story__text" dangerouslySetInnerHTML={{ __html: story }} />
      </section>

      <section className="about-team container" aria-labelledby="team-heading">
        <h2 id="team-heading">The team</h2>
        <ul className="about-team__list">
          {founders.map((person) => (
            <li key={person.name} className="about-team__member">
              <Picture picture={person.image} slot="drawing" />
              <h3>{person.name}</h3>
              <p className="about-team__role">{person.role}</p>
              <p>{person.text}</p>
            </li>
          ))}
          <li className="about-team__member">
            <Picture picture={craftsmen.image} slot="drawing" />
            <h3>{craftsmen.title}</h3>
            <p className="about-team__role">The workshop</p>
            <p>{craftsmen.text}</p>
          </li>
        </ul>
      </section>

      <section className="about-glimpses container" aria-labelledby="glimpses-heading">
        <h2 id="glimpses-heading">Glimpses</h2>
        <p className="about-glimpses__intro">Three projects we have delivered.</p>
        <ul className="about-glimpses__list">
          {projects.map((project) => (
            <li key={project.image.src}>
              <figure>
                <Picture picture={project.image} slot="drawing" />
                <figcaption>
                  <h3>
                    {project.title}, {project.place}
                  </h3>
                  <p>{project.text}</p>
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </section>

      <section className="about-contact container" aria-labelledby="about-contact-heading">
        <h2 id="about-contact-heading">Work with us</h2>
        <p>Tell us about your room, your project or the piece you have in mind.</p>
        <Link to="/contact-us" className="button">
          Contact us
        </Link>
      </section>
    </>
  );
}

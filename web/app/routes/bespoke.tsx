import type { Route } from "./+types/bespoke";
import { QuoteDialogTrigger } from "../components/QuoteDialogTrigger";
import { pageMeta } from "../lib/meta";
import { siteOf, useSite } from "../lib/site";
import { markdownDoc, pagesSection } from "../lib/content.server";
import { drawing } from "../lib/catalogue.server";
import { Picture } from "../components/Picture";
import "./bespoke.css";

export const meta: Route.MetaFunction = ({ matches }) => {
  const site = siteOf(matches);
  return pageMeta(site, {
    title: "Bespoke Solution",
    description: `Bespoke furniture, interiors and lighting by ${site.name}: no blueprint, craft over compromise, design that breathes you.`,
    path: "/bespoke",
  });
};

// The page's texts (content/pages.json, pages/bespoke.md), read at prerender time.
export async function loader() {
  const { hero, pillars, disciplines } = pagesSection("bespoke");
  return {
    intro: markdownDoc("pages/bespoke.md").html,
    hero: { ...hero, image: drawing(hero.image, hero.alt, { width: 1600, height: 700 }) },
    pillars,
    disciplines: disciplines.map((d) => ({ ...d, image: drawing(d.image, d.alt, { width: 1200, height: 800 }) })),
  };
}

export default function Page({ loaderData: { intro, hero, pillars, disciplines } }: Route.ComponentProps) {
  const site = useSite();
  return (
    <>
      <section className="bespoke-hero" aria-labelledby="bespoke-heading">
        <Picture className="bespoke-hero__image" picture={hero.image} slot="hero" priority />
        <div className="bespoke-hero__text container">
          <h1 id="bespoke-heading">Bespoke Solution</h1>
          <p>Furniture, interiors and light drawn for one place and one person, made by hand in {site.city}.</p>
        </div>
      </section>

      <section className="bespoke-intro" aria-label="How bespoke work goes">
        <div className="prose" dangerouslySetInnerHTML={{ __html: intro }} />
      </section>

      <section className="bespoke-pillars container" aria-labelledby="pillars-heading">
        <h2 id="pillars-heading">How we work</h2>
        <ol className="bespoke-pillars__list">
          {pillars.map((pillar) => (
            <li key={pillar.title}>
              <h3>{pillar.title}</h3>
              <p>{pillar.text}</p>
            </li>
          ))}
        </ol>
      </section>

      <section className="bespoke-disciplines container" aria-labelledby="disciplines-heading">
        <h2 id="disciplines-heading">What we make</h2>
        <ul className="bespoke-disciplines__list">
          {disciplines.map((d) => (
            <li key={d.title}>
              <Picture picture={d.image} slot="drawing" />
              <h3>{d.title}</h3>
              <p>{d.text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section className="bespoke-begin container" aria-labelledby="begin-heading">
        <h2 id="begin-heading">Have something in mind?</h2>
        <p>Tell us about the space and the piece, and we will come back with ideas, drawings and a quote.</p>
        <QuoteDialogTrigger kind="customize">Let's begin</QuoteDialogTrigger>
      </section>
    </>
  );
}

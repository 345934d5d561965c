import { Link } from "react-router";
import type { Route } from "./+types/home";
import { Icon } from "../components/Icon";
import { Marquee } from "../components/Marquee";
import { Picture } from "../components/Picture";
import { ProductCard } from "../components/ProductCard";
import { drawing, featured as featuredPicks, picture, productCard, productCards, productEntry } from "../lib/catalogue.server";
import { facts, pagesSection } from "../lib/content.server";
import { fillFactsIn } from "../lib/facts";
import { itemEventParams, track } from "../lib/analytics";
import { pageMeta } from "../lib/meta";
import { useSite, siteOf } from "../lib/site";
import { studioJsonLd } from "../lib/structuredData";
import "../components/home/home.css";

export const meta: Route.MetaFunction = ({ matches }) => {
  const site = siteOf(matches);
  return pageMeta(site, { title: site.tagline, description: site.description, path: "/", jsonLd: [studioJsonLd(site)] });
};

// The home page's texts, pictures and picks, at build time: its texts
// (content/pages.json, home, with the studio's facts filled in), the hero,
// What's Hot, and the product the "Fresh from" banner opens.
export async function loader() {
  const featured = featuredPicks();
  const { hero, disciplines, craft, showcase, ...texts } = fillFactsIn(pagesSection("home"), facts(), "content/pages.json: home");
  const fresh = productEntry(featured.fresh)!;
  return {
    hero: { picture: picture(hero.src, hero.alt), link: hero.link },
    texts: {
      ...texts,
      disciplines: disciplines.map((d) => ({ ...d, image: drawing(d.image, d.alt, WIDE) })),
      craft: { ...craft, image: drawing(craft.image, craft.alt, WIDE) },
      showcase: { ...showcase, items: showcase.items.map((s) => ({ ...s, image: drawing(s.image, "", WIDE) })) },
    },
    whatsHot: productCards(featured.whatsHot),
    fresh: { ...productCard(fresh), description: fresh.description },
  };
}

// A drawing's frame: 3:2, as the site's drawings are drawn.
const WIDE = { width: 1200, height: 800 };

export default function Home({ loaderData }: Route.ComponentProps) {
  return <HomeContent {...loaderData} />;
}

// The home page's content, which the not-found route shows too.
export function HomeContent({ hero, texts, whatsHot, fresh }: Awaited<ReturnType<typeof loader>>) {
  const site = useSite();
  const { disciplines, intention, values, craft, showcase } = texts;
  return (
    <>
      {/* Not a named region: its name, the studio's, is the footer's too,
          and the page's h1 opens it. */}
      <section className="hero">
        <Picture className="hero__image" picture={hero.picture} slot="hero" priority />
        <div className="hero__text container">
          <h1 id="hero-heading">{site.name}</h1>
          <p>{site.tagline}.</p>
          <Link to={hero.link.to} className="button">
            {hero.link.label}
          </Link>
        </div>
      </section>

      {disciplines.map((d, i) => (
        <section key={i} className={`discipline container${i % 2 ? " discipline--reverse" : ""}`} aria-labelledby={`discipline-${i}`}>
          <div className="discipline__frame">
            <Picture className="discipline__image" picture={d.image} slot="drawing" />
          </div>
          <div className="discipline__text">
            <h2 id={`discipline-${i}`}>{d.title}</h2>
            <p>{d.text}</p>
            <Link to={d.link.to}>{d.link.label}</Link>
          </div>
        </section>
      ))}

      <section className="intention" aria-labelledby="intention-heading">
        <div className="intention__text container">
          <h2 id="intention-heading">{intention.title}</h2>
          <p>{intention.text}</p>
        </div>
      </section>

      <section className="values container" aria-label="What we stand for">
        {values.map((v, i) => (
          <div key={i} className="values__item">
            <h2>{v.title}</h2>
            <p>{v.text}</p>
          </div>
        ))}
      </section>

      <section className="whats-hot container" aria-labelledby="whats-hot-heading">
        <div className="whats-hot__header">
          <h2 id="whats-hot-heading">{texts.whatsHot.title}</h2>
          <Link to="/products" className="whats-hot__all">
            {texts.whatsHot.allLink}
            <Icon name="arrowRight" size={20} />
          </Link>
        </div>
        <ul className="whats-hot__grid">
          {whatsHot.map((product, index) => (
            <li key={product.id}>
              <ProductCard
                product={product}
                slot="whatsHot"
                headingLevel="h3"
                onSelect={() => track("select_item", itemEventParams(product, { item_list_name: "What's Hot", index: index + 1 }))}
              />
            </li>
          ))}
        </ul>
      </section>

      <section className="fresh" aria-labelledby="fresh-heading">
        <div className="fresh__inner container">
          <Picture className="fresh__image" picture={fresh.image} slot="fresh" />
          <div className="fresh__text">
            <p className="fresh__eyebrow">{texts.fresh.eyebrow}</p>
            <h2 id="fresh-heading">{texts.fresh.title}</h2>
            <p>{fresh.description}</p>
            <Link to={`/product/${fresh.id}`} className="button">
              {texts.fresh.link} {fresh.name}
            </Link>
          </div>
        </div>
      </section>

      <Marquee text={site.marquee} />

      <section className="craft container" aria-labelledby="craft-heading">
        <Picture className="craft__image" picture={craft.image} slot="drawing" />
        <div className="craft__text">
          <h2 id="craft-heading">{craft.title}</h2>
          <p>{craft.text}</p>
          <Link to={craft.link.to}>{craft.link.label}</Link>
        </div>
      </section>

      <section className="showcase container" aria-labelledby="showcase-heading">
        <h2 id="showcase-heading">{showcase.title}</h2>
        <ul className="showcase__grid">
          {showcase.items.map((s, i) => (
            <li key={i} className="showcase__item">
              <Picture picture={s.image} slot="drawing" decorative />
              {/* A space's title leads to pieces for it (a list page, there without scripts). */}
              <h3>{s.to ? <Link to={s.to}>{s.title}</Link> : s.title}</h3>
              <p>{s.text}</p>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}

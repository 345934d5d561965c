import { Link } from "react-router";
import type { Route } from "./+types/home";
import { Icon } from "../components/Icon";
import { Marquee } from "../components/Marquee";
import { Picture } from "../components/Picture";
import { ProductCard } from "../components/ProductCard";
import { catalogue, picture, productCard, productCards, productEntry } from "../lib/catalogue.server";
import { pages } from "../lib/content.server";
import { itemEventParams, track } from "../lib/analytics";
import { pageMeta } from "../lib/meta";
import { useSite, siteOf } from "../lib/site";
import { studioJsonLd } from "../lib/structuredData";
import "../components/home/home.css";

export const meta: Route.MetaFunction = ({ matches }) => {
  const site = siteOf(matches);
  return pageMeta(site, { title: site.tagline, description: site.description, path: "/", jsonLd: [studioJsonLd(site)] });
};

// The home page's pictures and picks, at build time: the
// hero, What's Hot, and the product the "Fresh from" banner opens.
export async function loader() {
  const { featured } = catalogue();
  const { hero } = pages().home;
  const fresh = productEntry(featured.fresh)!;
  return {
    hero: picture(hero.src, hero.alt),
    whatsHot: productCards(featured.whatsHot),
    fresh: { ...productCard(fresh), description: fresh.description },
  };
}

const disciplines = [
  {
    title: "Furniture Design",
    image: "/images/furniture-design.svg",
    alt: "A chair on a workbench beside its joinery details",
    text: "Chairs, tables and screens drawn in the studio and made by hand: solid wood, honest joints, forms that come from use.",
    link: { to: "/products", label: "See the furniture" },
  },
  {
    title: "Interior Design",
    image: "/images/interior-design.svg",
    alt: "A room elevation with arches and a jali screen",
    text: "Homes, hotels and cafés planned around light and air, with the arches, screens and courtyards of Rajasthan in a calm, modern voice.",
    link: { to: "/bespoke", label: "Plan a space with us" },
  },
  {
    title: "Lighting Design",
    image: "/images/lighting-design.svg",
    alt: "A cluster of brass pendant lamps casting cones of light",
    text: "Lamps in brass, cane and stone that give a room its evening: warm, low and soft, made to be lived under.",
    link: { to: "/contact-us", label: "Ask about lighting" },
  },
];

const showcases = [
  { image: "/images/showcase-1.svg", title: "Living rooms", text: "Low seating, warm wood and a lamp for every corner." },
  { image: "/images/showcase-2.svg", title: "Dining spaces", text: "A table for long meals, in stone and metal." },
  { image: "/images/showcase-3.svg", title: "Workspaces", text: "Quiet desks and chairs for long, good days." },
];

export default function Home({ loaderData }: Route.ComponentProps) {
  return <HomeContent {...loaderData} />;
}

// The home page's content, which the not-found route shows too.
export function HomeContent({ hero, whatsHot, fresh }: Awaited<ReturnType<typeof loader>>) {
  const site = useSite();
  return (
    <>
      <section className="hero" aria-labelledby="hero-heading">
        <Picture className="hero__image" picture={hero} slot="hero" priority />
        <div className="hero__text container">
          <h1 id="hero-heading">{site.name}</h1>
          <p>{site.tagline}.</p>
          <Link to="/products" className="button">
            Explore the collection
          </Link>
        </div>
      </section>

      {disciplines.map((d, i) => (
        <section key={d.title} className={`discipline container${i % 2 ? " discipline--reverse" : ""}`} aria-labelledby={`discipline-${i}`}>
          <div className="discipline__frame">
            <img className="discipline__image" src={d.image} alt={d.alt} width={1200} height={800} loading="lazy" decoding="async" />
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
          <h2 id="intention-heading">Our intention</h2>
          <p>
            To make fewer, better things: pieces that carry the hand of the craftsman and the memory of a place, and that
            are still loved in thirty years.
          </p>
        </div>
      </section>

      <section className="values container" aria-label="What we stand for">
        <div className="values__item">
          <h2>Minimum Hardware</h2>
          <p>Smart joinery, cleaner lines. Our pieces hold together by the way they are cut, not by screws and brackets.</p>
        </div>
        <div className="values__item">
          <h2>Maximum transparency</h2>
          <p>What it is made of, who made it and how long it takes: we tell you before you ask, and the quote says it in writing.</p>
        </div>
      </section>

      <section className="whats-hot container" aria-labelledby="whats-hot-heading">
        <div className="whats-hot__header">
          <h2 id="whats-hot-heading">What's Hot</h2>
          <Link to="/products" className="whats-hot__all">
            All products
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
            <p className="fresh__eyebrow">New this season</p>
            <h2 id="fresh-heading">Fresh from {site.name}</h2>
            <p>{fresh.description}</p>
            <Link to={`/product/${fresh.id}`} className="button">
              Discover {fresh.name}
            </Link>
          </div>
        </div>
      </section>

      <Marquee text={site.marquee} />

      <section className="craft container" aria-labelledby="craft-heading">
        <img className="craft__image" src="/images/craft.svg" alt="A chisel, a mallet and a carved wooden panel with a block-print motif" width={1200} height={800} loading="lazy" />
        <div className="craft__text">
          <h2 id="craft-heading">Our Craft and Creation</h2>
          <p>
            Every piece begins as a drawing in our {site.city} studio and is made by craftsmen whose families have worked wood,
            stone and metal for generations. We design with them, not for them: the joint, the carving and the finish are
            decided at the bench.
          </p>
          <Link to="/about">Meet the studio</Link>
        </div>
      </section>

      <section className="showcase container" aria-labelledby="showcase-heading">
        <h2 id="showcase-heading">Spaces we have shaped</h2>
        <ul className="showcase__grid">
          {showcases.map((s) => (
            <li key={s.title} className="showcase__item">
              <img src={s.image} alt="" width={1200} height={800} loading="lazy" decoding="async" />
              <h3>{s.title}</h3>
              <p>{s.text}</p>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}

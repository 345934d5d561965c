import type { MetaDescriptor } from "react-router";
import { site } from "./site";

type PageMeta = {
  title: string;
  description: string;
  path: string;
  image?: string;
};

// The title, description and canonical URL of one page. Titles are unique
// per page: "{page} | {studio}", the home page "{studio}: {tagline}".
export function pageMeta({ title, description, path, image }: PageMeta): MetaDescriptor[] {
  const fullTitle = path === "/" ? `${site.name}: ${title}` : `${title} | ${site.name}`;
  const url = new URL(path, site.baseUrl).href;
  return [
    { title: fullTitle },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:site_name", content: site.name },
    { property: "og:title", content: fullTitle },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    { property: "og:type", content: "website" },
    { property: "og:image", content: new URL(image ?? "/images/hero.svg", site.baseUrl).href },
    { name: "twitter:card", content: "summary_large_image" },
  ];
}

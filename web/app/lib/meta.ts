import type { MetaDescriptor } from "react-router";
import type { Site } from "./site";
import { NOT_FOUND_TITLE } from "./notFound";

type PageMeta = {
  title: string;
  description: string;
  path: string;
  /** The link-preview picture: a 1200×630 JPEG made by the image pipeline (scripts/images.mjs). */
  ogImage?: string;
  ogImageAlt?: string;
  /** Structured data (schema.org) for search engines. */
  jsonLd?: object[];
};

export const absoluteUrl = (site: Pick<Site, "baseUrl">, path: string) => new URL(path, site.baseUrl).href;

// The title, description, canonical URL, link-preview tags and structured
// data of one page. Titles are unique per page: "{page} | {studio}", the
// home page "{studio}: {tagline}".
export function pageMeta(site: Site, { title, description, path, ogImage = "/images/og/site.jpg", ogImageAlt, jsonLd = [] }: PageMeta): MetaDescriptor[] {
  const fullTitle = path === "/" ? `${site.name}: ${title}` : `${title} | ${site.name}`;
  const url = absoluteUrl(site, path);
  const image = absoluteUrl(site, ogImage);
  return [
    { title: fullTitle },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:site_name", content: site.name },
    { property: "og:title", content: fullTitle },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    { property: "og:type", content: "website" },
    { property: "og:locale", content: "en_IN" },
    { property: "og:image", content: image },
    { property: "og:image:width", content: "1200" },
    { property: "og:image:height", content: "630" },
    { property: "og:image:alt", content: ogImageAlt ?? fullTitle },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: fullTitle },
    { name: "twitter:description", content: description },
    { name: "twitter:image", content: image },
    ...jsonLd.map((data) => ({ "script:ld+json": data })),
  ];
}

// A page shown at an address that has none of its own (NotFoundNotice):
// "Page not found | {studio}", never indexed, and no link preview.
export function notFoundMeta(site: Site): MetaDescriptor[] {
  return [
    { title: `${NOT_FOUND_TITLE} | ${site.name}` },
    { name: "description", content: site.description },
    { name: "robots", content: "noindex" },
  ];
}

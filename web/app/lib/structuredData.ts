import type { ProductData } from "./catalogue";
import { absoluteUrl } from "./meta";
import type { Site } from "./site";

// schema.org descriptions of the studio and its products, from the same
// content as the pages, for search engines.

export function studioJsonLd(site: Site): object {
  return {
    "@context": "https://schema.org",
    "@type": "FurnitureStore",
    "@id": absoluteUrl(site, "/#studio"),
    name: site.name,
    description: site.description,
    url: absoluteUrl(site, "/"),
    logo: absoluteUrl(site, "/favicon.svg"),
    image: absoluteUrl(site, "/images/og/site.jpg"),
    email: site.email,
    telephone: site.phones.map((p) => p.tel),
    address: {
      "@type": "PostalAddress",
      streetAddress: site.address.street,
      addressLocality: site.address.locality,
      addressRegion: site.address.region,
      postalCode: site.address.postalCode,
      addressCountry: site.address.country,
    },
    sameAs: site.social.map((s) => s.url),
  };
}

// No offers: the studio publishes no prices; a quote is the buying path.
export function productJsonLd(site: Site, product: ProductData): object {
  return {
    "@context": "https://schema.org",
    "@type": "Product",
    name: product.name,
    description: product.description,
    image: product.images.map((i) => absoluteUrl(site, i.src)),
    url: absoluteUrl(site, `/product/${product.id}`),
    category: product.category,
    material: product.material.join(", "),
    brand: { "@type": "Brand", name: site.name },
    manufacturer: { "@id": absoluteUrl(site, "/#studio") },
  };
}

export function breadcrumbJsonLd(site: Site, product: Pick<ProductData, "id" | "name">): object {
  const crumbs = [
    { name: "Home", path: "/" },
    { name: "Products", path: "/products" },
    { name: product.name, path: `/product/${product.id}` },
  ];
  return {
    "@context": "https://schema.org",
    "@type": "BreadcrumbList",
    itemListElement: crumbs.map((c, i) => ({ "@type": "ListItem", position: i + 1, name: c.name, item: absoluteUrl(site, c.path) })),
  };
}

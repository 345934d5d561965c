import type { APIRequestContext } from "@playwright/test";
import { decodeHTML } from "entities";
import sharp from "sharp";
import { test, expect } from "./fixtures";
import { catalogue, products, site } from "./content";
import { indexedPaths, pagePaths } from "../app/lib/paths";

// What a crawler or a link preview reads of a page: its HTML as served,
// which needs no script run, so these tests ask the server without a browser
// (the browser's view of each page is frame.spec.ts's).
const routes = pagePaths(catalogue);
const absolute = (path: string) => new URL(path, site.baseUrl).href;

async function htmlOf(request: APIRequestContext, path: string): Promise<string> {
  const response = await request.get(path);
  expect(response.status(), path).toBe(200);
  return response.text();
}

// The attributes of each <meta> and <link> tag of a page's head.
function headTags(html: string): Record<string, string>[] {
  const head = html.slice(0, html.indexOf("</head>"));
  return [...head.matchAll(/<(?:meta|link)\b([^>]*)>/g)].map(([, attributes]) =>
    Object.fromEntries([...attributes!.matchAll(/([\w:-]+)="([^"]*)"/g)].map(([, name, value]) => [name, decodeHTML(value!)])),
  );
}

type JsonLd = Record<string, unknown> & { "@type": string };
const jsonLdOf = (html: string): JsonLd[] =>
  [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)].map(([, json]) => JSON.parse(json!));

test("every page has a canonical URL and link-preview tags with a picture that exists", async ({ request }) => {
  const pictures = new Set<string>(); // each checked once: many pages share one
  for (const path of routes) {
    const tags = headTags(await htmlOf(request, path));
    // Each tag once, as a crawler would not choose between two.
    const values = (key: "rel" | "property" | "name", name: string, value: "href" | "content") => tags.filter((t) => t[key] === name).map((t) => t[value]);
    expect(values("rel", "canonical", "href"), path).toEqual([absolute(path)]);
    for (const property of ["og:title", "og:description", "og:url", "og:image"]) {
      expect(values("property", property, "content"), `${path} ${property}`).toEqual([expect.stringMatching(/.+/)]);
    }
    expect(values("name", "twitter:card", "content"), path).toEqual(["summary_large_image"]);
    const image = new URL(values("property", "og:image", "content")[0]!);
    if (pictures.has(image.pathname)) continue;
    pictures.add(image.pathname);
    const response = await request.get(image.pathname);
    expect(response.status(), `${path}: ${image.pathname}`).toBe(200);
    expect(response.headers()["content-type"]).toBe("image/jpeg");
    const { width, height, format } = await sharp(await response.body()).metadata();
    expect({ width, height, format }, `${path}: ${image.pathname}`).toEqual({ width: 1200, height: 630, format: "jpeg" });
  }
});

test("the studio is described as a FurnitureStore on the home and contact pages", async ({ request }) => {
  for (const path of ["/", "/contact-us"]) {
    const store = jsonLdOf(await htmlOf(request, path)).find((d) => d["@type"] === "FurnitureStore");
    expect(store, path).toMatchObject({
      name: site.name,
      email: site.email,
      telephone: site.phones.map((p) => p.tel),
      sameAs: site.social.map((s) => s.url),
      address: { addressLocality: site.address.locality, postalCode: site.address.postalCode },
    });
  }
});

test("product pages carry Product and BreadcrumbList data, without offers", async ({ request }) => {
  for (const product of products) {
    const data = jsonLdOf(await htmlOf(request, `/product/${product.id}`));
    const described = data.find((d) => d["@type"] === "Product");
    expect(described).toMatchObject({
      name: product.name,
      description: product.description,
      category: product.category,
      brand: { name: site.name },
    });
    // Each of its pictures, in gallery order, by the file the build made of it.
    const stems = product.images.map((i) => i.src.replace(/^.*\//, "").replace(/\.[^.]+$/, ""));
    const images = described!.image as string[];
    expect(images.map((url) => new URL(url).pathname.replace(/^.*\//, "").split(".")[0])).toEqual(stems);
    for (const url of images) expect(url.startsWith(site.baseUrl)).toBe(true);
    expect(described).not.toHaveProperty("offers");
    const crumbs = data.find((d) => d["@type"] === "BreadcrumbList");
    const names = (crumbs?.itemListElement as { name: string }[] | undefined)?.map((c) => c.name);
    expect(names).toEqual(["Home", "Products", product.name]);
  }
});

test("the sitemap lists every page and robots.txt names it", async ({ request }) => {
  const sitemap = await (await request.get("/sitemap.xml")).text();
  const locs = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
  expect(locs.sort()).toEqual(indexedPaths(catalogue).map(absolute).sort());
  const robots = await (await request.get("/robots.txt")).text();
  expect(robots).toContain(`Sitemap: ${absolute("/sitemap.xml")}`);
});

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { loadFacts, renderMarkdown, type MarkdownDoc } from "../app/lib/markdown.server";
import type { CatalogueFile, ProductEntry } from "../app/lib/catalogue";
import { vocabularyOf } from "../app/lib/filters";
import type { Site } from "../app/lib/site";
import { contentFacts, fillFactsIn } from "../app/lib/facts";

// The same content files the site is built from.
const read = (name: string) => JSON.parse(readFileSync(new URL(`../../content/${name}`, import.meta.url), "utf8"));

export const site: Site = read("site.json");
export const catalogue: CatalogueFile = read("catalogue.json");
export const products: ProductEntry[] = catalogue.products;
export const vocabulary = vocabularyOf(catalogue);
export const productById = (id: number) => products.find((p) => p.id === id)!;

// Service facts (delivery, returns, warranty) and the studio pages' data.
export const service: typeof import("../../content/service.json") = read("service.json");
export const pages: typeof import("../../content/pages.json") = read("pages.json");
// The home page's texts, with the studio's facts filled in as the build fills them.
export const home = fillFactsIn(pages.home, contentFacts(site, service), "content/pages.json: home");
// A Markdown text of content/ (pages/faq.md, policies/returns.md) as the
// build renders it, with its source.
export function markdownDoc(path: string): MarkdownDoc & { source: string } {
  const source = readFileSync(new URL(`../../content/${path}`, import.meta.url), "utf8");
  return { ...renderMarkdown(source, loadFacts(fileURLToPath(new URL("../../content", import.meta.url))), path), source };
}

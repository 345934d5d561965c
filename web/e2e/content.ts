import { readFileSync } from "node:fs";
import type { CatalogueFile, ProductEntry } from "../app/lib/catalogue";
import { vocabularyOf } from "../app/lib/filters";
import type { Site } from "../app/lib/site";

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
// A policy's front matter (title, updated), from content/policies/NAME.md.
export function policyMeta(name: string): Record<string, string> {
  const text = readFileSync(new URL(`../../content/policies/${name}.md`, import.meta.url), "utf8");
  const block = /^---\n([\s\S]*?)\n---/.exec(text)?.[1] ?? "";
  return Object.fromEntries(block.split("\n").map((line) => [line.slice(0, line.indexOf(":")).trim(), line.slice(line.indexOf(":") + 1).trim()]));
}

import { readFileSync } from "node:fs";
import type { Product } from "../app/lib/catalogue";
import type { Site } from "../app/lib/site";

// The same content files the site is built from.
const read = (name: string) => JSON.parse(readFileSync(new URL(`../../content/${name}`, import.meta.url), "utf8"));

export const site: Site = read("site.json");
export const products: Product[] = read("catalogue.json").products;

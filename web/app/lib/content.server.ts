// The content (the repository's content/), read when the pages are
// prerendered, never imported: the bundles are the same for any content,
// so a text change only renders the pages again (scripts/prerender.mjs).
// CONTENT_DIR names the folder; by default ../content beside web/.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { CatalogueFile } from "./catalogue";
import type { Site } from "./site";
import { contentFacts, type Facts } from "./facts";
import { renderMarkdown, type MarkdownDoc } from "./markdown.server";
import type pagesData from "../../../content/pages.json";
import type serviceData from "../../../content/service.json";

export type Pages = typeof pagesData;
export type Service = typeof serviceData;

export const contentDir = () => resolve(process.env.CONTENT_DIR ?? join(process.cwd(), "..", "content"));
// The image pipeline's manifest (scripts/images.mjs), made from the same content.
export const generatedDir = () => resolve(process.env.GENERATED_DIR ?? join(process.cwd(), ".generated"));

// Each file is read once per prerender (scripts/prerender.mjs marks it);
// under \`react-router dev\`, at every request, so an edit shows on reload.
const cache = new Map<string, unknown>();
function once<T>(key: string, make: () => T): T {
  if (process.env.IS_RR_BUILD_REQUEST !== "yes") return make();
  if (!cache.has(key)) cache.set(key, make());
  return cache.get(key) as T;
}

export const readContentJson = <T>(name: string): T =>
  once(`json:${name}`, () => JSON.parse(readFileSync(join(contentDir(), name), "utf8")) as T);

export const siteFacts = () => readContentJson<Site>("site.json");
export const service = () => readContentJson<Service>("service.json");
export const pages = () => readContentJson<Pages>("pages.json");
export const catalogueFile = () => readContentJson<CatalogueFile>("catalogue.json");
export const facts = (): Facts => once("facts", () => contentFacts(siteFacts(), service()));

// A Markdown text of content/ (e.g. "policies/returns.md") as HTML, with
// the studio's facts filled in (markdown.server.ts).
export const markdownDoc = (name: string): MarkdownDoc =>
  once(`md:${name}`, () => renderMarkdown(readFileSync(join(contentDir(), name), "utf8"), facts(), `content/${name}`));

export const imageManifest = <T>(): T =>
  once("images", () => JSON.parse(readFileSync(join(generatedDir(), "images.json"), "utf8")) as T);

// A policy as its page shows it: no sections (the HTML has them).
export function policyDoc(name: string): Pick<MarkdownDoc, "meta" | "html" | "toc"> {
  const { meta, html, toc } = markdownDoc(name);
  return { meta, html, toc };
}

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
import { currentRender, recorded as recordedInSnapshot } from "./snapshot.server";
import type pagesData from "../../../content/pages.json";
import type serviceData from "../../../content/service.json";

export type Pages = typeof pagesData;
export type Service = typeof serviceData;

// Where the content is: the snapshot's of the render that runs
// (snapshot.server.ts), else CONTENT_DIR, by default ../content beside web/.
export const contentDir = () => currentRender()?.snapshot.contentDir ?? resolve(process.env.CONTENT_DIR ?? join(process.cwd(), "..", "content"));
// The image pipeline's manifest (scripts/images.mjs), made from the same content.
export const generatedDir = () => currentRender()?.snapshot.generatedDir ?? resolve(process.env.GENERATED_DIR ?? join(process.cwd(), ".generated"));

// Outside a render's snapshot, each value is made once per prerender
// (IS_RR_BUILD_REQUEST marks one); under \`react-router dev\`, at every
// request, so an edit shows on reload.
const cache = new Map<string, unknown>();
function once<T>(key: string, make: () => T): T {
  if (process.env.IS_RR_BUILD_REQUEST !== "yes") return make();
  if (!cache.has(key)) cache.set(key, make());
  return cache.get(key) as T;
}

// A value of the content under its key ("file:site.json", "product:7"):
// made once per snapshot and recorded as read by the page that asks
// (snapshot.server.ts). Every accessor of the content goes through it, so
// an incremental build knows what each page read.
export const recorded = <T>(key: string, make: () => T): T => recordedInSnapshot(key, make, once);

// A whole file of content/, parsed: a page that reads one depends on all of it.
export const readContentJson = <T>(name: string): T =>
  recorded(`file:${name}`, () => JSON.parse(readFileSync(join(contentDir(), name), "utf8")) as T);

export const siteFacts = () => readContentJson<Site>("site.json");
export const service = () => readContentJson<Service>("service.json");
// One page's texts of content/pages.json ("home", "about", "bespoke").
export const pagesSection = <K extends keyof Pages>(section: K): Pages[K] =>
  recorded(`pages:${section}`, () => readContentJson<Pages>("pages.json")[section]);
export const catalogueFile = () => readContentJson<CatalogueFile>("catalogue.json");
export const facts = (): Facts => recorded("facts", () => contentFacts(siteFacts(), service()));

// A Markdown text of content/ (e.g. "policies/returns.md") as HTML, with
// the studio's facts filled in (markdown.server.ts).
export const markdownDoc = (name: string): MarkdownDoc =>
  recorded(`md:${name}`, () => renderMarkdown(readFileSync(join(contentDir(), name), "utf8"), facts(), `content/${name}`));

// The image manifest (generated/images.json), whole.
export const imageManifest = <T>(): T =>
  recorded("generated:images.json", () => JSON.parse(readFileSync(join(generatedDir(), "images.json"), "utf8")) as T);

// A policy as its page shows it: no sections (the HTML has them).
export function policyDoc(name: string): Pick<MarkdownDoc, "meta" | "html" | "toc"> {
  const { meta, html, toc } = markdownDoc(name);
  return { meta, html, toc };
}

import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CatalogueFile } from "./catalogue";
import { openSnapshot, recompute, renderIn, type Snapshot } from "./snapshot.server";
import { productCards } from "./catalogue.server";
import { readContentJson, siteFacts, type Pages } from "./content.server";
import { loader as rootLoader } from "../root";
import { loader as homeLoader } from "../routes/home";
import { loader as notFoundLoader } from "../routes/not-found";
import { loader as productLoader } from "../routes/product";
import { loader as requestLoader } from "../routes/request";
import { loader as productsLoader } from "../routes/products";
import { loader as aboutLoader } from "../routes/about";
import { loader as bespokeLoader } from "../routes/bespoke";
import { loader as contactLoader } from "../routes/contact-us";
import { loader as thanksLoader } from "../routes/thank-you";
import { loader as shortlistLoader } from "../routes/shortlist";
import { loader as searchIndexLoader } from "../routes/search-index";
import { loader as chatLoader } from "../routes/chat-script";
import { loader as returnsLoader } from "../routes/returns";
import { loader as privacyLoader } from "../routes/privacy-policy";
import { loader as shippingLoader } from "../routes/shipping-policy";
import { loader as termsLoader } from "../routes/terms-conditions";

// A copy of content/ (its texts, no pictures) with an image manifest of
// its own: each picture the catalogue and the home page name.
const shipped = fileURLToPath(new URL("../../../content", import.meta.url));
let root: string;
function contentCopy(name: string, change?: (catalogue: CatalogueFile) => void, changePages?: (pages: Pages) => void) {
  const contentDir = join(root, name, "content");
  const generatedDir = join(root, name, "generated");
  cpSync(shipped, contentDir, { recursive: true, filter: (src) => !src.includes("/images/") });
  const catalogue = JSON.parse(readFileSync(join(contentDir, "catalogue.json"), "utf8")) as CatalogueFile;
  change?.(catalogue);
  writeFileSync(join(contentDir, "catalogue.json"), JSON.stringify(catalogue, null, 2));
  const pages = JSON.parse(readFileSync(join(contentDir, "pages.json"), "utf8")) as Pages;
  changePages?.(pages);
  writeFileSync(join(contentDir, "pages.json"), JSON.stringify(pages, null, 2));
  // The pictures of content/images/ in a drawing's place: an image without the leading "/".
  const drawings = [pages.home.craft.image, ...pages.home.disciplines.map((d) => d.image)].filter((src) => !src.startsWith("/"));
  const srcs = [pages.home.hero.src, ...drawings, ...catalogue.products.flatMap((p) => p.images.map((i) => i.src))];
  const manifest = Object.fromEntries(srcs.map((src) => [src, { src: `/images/${src}`, width: 800, height: 600, og: `/images/${src}.og.jpg` }]));
  mkdirSync(generatedDir, { recursive: true });
  writeFileSync(join(generatedDir, "images.json"), JSON.stringify(manifest));
  return { contentDir, generatedDir, catalogue };
}

let shippedCopy: ReturnType<typeof contentCopy>;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "snapshot-test-"));
  shippedCopy = contentCopy("shipped");
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const snapshotOf = ({ contentDir, generatedDir }: { contentDir: string; generatedDir: string }, fresh = "") =>
  openSnapshot({ contentDir, generatedDir, fresh });

// The keys a loader read (one that throws, as not-found's does, counts too).
async function keysOf(loader: () => unknown, snapshot: Snapshot = snapshotOf(shippedCopy)) {
  const { deps } = await renderIn(snapshot, async () => {
    try {
      await loader();
    } catch {
      // the keys it read before are what counts
    }
  });
  return deps;
}

describe("each loader records the keys it read", () => {
  it("the pages read what they show, no more", async () => {
    const { featured, products } = shippedCopy.catalogue;
    const product = products[0]!;
    const args = (params: Record<string, string>) => ({ params }) as never;
    const home = [...new Set([...featured.whatsHot, featured.fresh].map((id) => `card:${id}`))].concat(["facts", "featured", "image:hero.svg", "pages:home", `product:${featured.fresh}`]).sort();
    expect(await keysOf(rootLoader)).toEqual(["file:site.json"]);
    expect(await keysOf(homeLoader)).toEqual(home);
    expect(await keysOf(notFoundLoader)).toEqual(home);
    expect(await keysOf(() => productLoader(args({ id: String(product.id) })))).toEqual([`data:${product.id}`, "details", `product:${product.id}`, `similar:${product.id}`]);
    // An id no product has: whether it was removed is read too (a page saying
    // it is gone), and, when it was not, the products list it shows instead.
    expect(await keysOf(() => productLoader(args({ id: "99999" })))).toEqual(["list:", "product:99999", "removed:99999"]);
    expect(await keysOf(() => requestLoader(args({ id: String(product.id), kind: "quote" })))).toEqual([`data:${product.id}`, `product:${product.id}`]);
    expect(await keysOf(() => productsLoader(args({ "*": "" })))).toEqual(["list:"]);
    expect(await keysOf(() => productsLoader(args({ "*": "page/2" })))).toEqual(["list:page/2"]);
    expect(await keysOf(aboutLoader)).toEqual(["md:pages/about.md", "pages:about"]);
    expect(await keysOf(bespokeLoader)).toEqual(["md:pages/bespoke.md", "pages:bespoke"]);
    expect(await keysOf(contactLoader)).toEqual(["file:service.json", "md:pages/faq.md"]);
    expect(await keysOf(thanksLoader)).toEqual(["file:service.json"]);
    expect(await keysOf(shortlistLoader)).toEqual(["cards"]);
    expect(await keysOf(searchIndexLoader)).toEqual(["search"]);
    expect(await keysOf(chatLoader)).toEqual(["facts", "file:chat.json"]);
    expect(await keysOf(returnsLoader)).toEqual(["md:policies/returns.md"]);
    expect(await keysOf(privacyLoader)).toEqual(["md:policies/privacy.md"]);
    expect(await keysOf(shippingLoader)).toEqual(["md:policies/shipping.md"]);
    expect(await keysOf(termsLoader)).toEqual(["md:policies/terms.md"]);
  });

  it("a picture in a drawing's place is read as a picture: the home page depends on it", async () => {
    const uploaded = contentCopy("uploaded-drawing", undefined, (pages) => (pages.home.craft.image = "pages/home-craft-3f9a1c.jpg"));
    expect(await keysOf(homeLoader, snapshotOf(uploaded))).toContain("image:pages/home-craft-3f9a1c.jpg");
    const { texts } = await renderIn(snapshotOf(uploaded), () => homeLoader()).then((r) => r.value);
    expect(texts.craft.image).toMatchObject({ src: "/images/pages/home-craft-3f9a1c.jpg", width: 800, height: 600 });
    // The site's own drawings are shown as they are, in their frame.
    expect(texts.disciplines[0]!.image).toMatchObject({ src: expect.stringMatching(/^\/images\/.+\.svg$/), width: 1200, height: 800 });
  });

  it("a raw read records the whole file; a derived value, only its own key", async () => {
    expect(await keysOf(() => readContentJson("catalogue.json"))).toEqual(["file:catalogue.json"]);
    // Made from the catalogue, read first here: still its own key alone.
    expect(await keysOf(() => productCards())).toEqual(["cards"]);
  });
});

describe("snapshots", () => {
  it("two contents render apart, interleaved, each from its own files", async () => {
    const other = contentCopy("other");
    const site = JSON.parse(readFileSync(join(other.contentDir, "site.json"), "utf8"));
    writeFileSync(join(other.contentDir, "site.json"), JSON.stringify({ ...site, tagline: "Another tagline" }));
    const [a, b] = [snapshotOf(shippedCopy, "a"), snapshotOf(other, "b")];
    const tagline = (s: Snapshot) =>
      renderIn(s, async () => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        return siteFacts().tagline;
      });
    const [ta, tb] = await Promise.all([tagline(a), tagline(b)]);
    expect(ta.value).toBe(site.tagline);
    expect(tb.value).toBe("Another tagline");
  });

  it("a key's hash follows its value: a description changes its product, not the cards; a name changes the cards", async () => {
    const { products } = shippedCopy.catalogue;
    const id = products[0]!.id;
    const before = snapshotOf(shippedCopy, "before");
    const described = snapshotOf(
      contentCopy("described", (c) => {
        c.products[0]!.description += " Changed.";
      }),
    );
    const renamed = snapshotOf(
      contentCopy("renamed", (c) => {
        c.products[0]!.name += " Changed";
      }),
    );
    const keys = [`product:${id}`, `card:${id}`, "cards", `similar:${products.find((p) => p.category === products[0]!.category && p.id !== id)!.id}`];
    const hashes = (s: Snapshot) => keys.map((key) => recompute(s, key));
    const [b, d, r] = [hashes(before), hashes(described), hashes(renamed)];
    expect(b.every((h) => typeof h === "string")).toBe(true);
    expect(d[0]).not.toBe(b[0]);
    expect(d.slice(1)).toEqual(b.slice(1));
    expect(r[0]).not.toBe(b[0]);
    expect(r[1]).not.toBe(b[1]);
    expect(r[2]).not.toBe(b[2]);
    // The similar products of another of its category show its card.
    expect(r[3]).not.toBe(b[3]);
    // A key of no known kind, or of a product gone, has no hash: it changed.
    expect(recompute(before, "nothing:1")).toBeNull();
    expect(recompute(before, "similar:99999")).toBeNull();
  });

  it("without a snapshot, each read is fresh, as under react-router dev", () => {
    const dir = contentCopy("dev");
    const saved = process.env.CONTENT_DIR;
    process.env.CONTENT_DIR = dir.contentDir;
    try {
      const site = siteFacts();
      writeFileSync(join(dir.contentDir, "site.json"), JSON.stringify({ ...site, tagline: "Edited" }));
      expect(siteFacts().tagline).toBe("Edited");
    } finally {
      process.env.CONTENT_DIR = saved;
    }
  });
});

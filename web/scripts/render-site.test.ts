import { existsSync } from "node:fs";
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_LIST_STATE, listPath } from "../app/lib/filters";
import { openRenderPool } from "./render-site.mjs";

// The render pool on the bundles `make build` made: pages of two contents,
// one pool, answered as they would be served (previews).
const web = fileURLToPath(new URL("..", import.meta.url));
const serverBuild = join(web, "build", "server", "index.js");
const generatedDir = join(web, ".generated");
const assetsDir = join(web, "build", "client", "assets");

type Page = { path: string; status: number; type: string; body: string; data: string | null };
type Pool = { renderPages(o: object): Promise<Page[]>; close(): Promise<void> };
let pool: Pool;
let dir: string;
let shipped: string;
let other: string;

beforeAll(async () => {
  if (!existsSync(serverBuild)) throw new Error(`${serverBuild}: not there; make build makes the bundles this test renders with (make test does it first)`);
  dir = await mkdtemp(join(tmpdir(), "render-site-"));
  shipped = join(web, "..", "content");
  other = join(dir, "content");
  await cp(shipped, other, { recursive: true });
  const site = JSON.parse(await readFile(join(other, "site.json"), "utf8"));
  await writeFile(join(other, "site.json"), JSON.stringify({ ...site, tagline: "A tagline of the other content" }));
  pool = await openRenderPool({ serverBuild, size: 2 });
}, 120_000);
afterAll(async () => {
  await pool?.close();
  await rm(dir, { recursive: true, force: true });
});

const render = (contentDir: string, paths: string[]) => pool.renderPages({ contentDir, generatedDir, assetsDir, paths });

describe("renderPages", () => {
  it("answers each path as served: a page with its data, a resource, the not-found pages with 404", async () => {
    const catalogue = JSON.parse(await readFile(join(shipped, "catalogue.json"), "utf8"));
    const product = catalogue.products[0];
    const pages = await render(shipped, [`/product/${product.id}`, "/search-index.json", "/no-such-page", "/product/99999"]);
    expect(pages.map((p) => [p.path, p.status])).toEqual([
      [`/product/${product.id}`, 200],
      ["/search-index.json", 200],
      ["/no-such-page", 404],
      ["/product/99999", 404],
    ]);
    const [page, index, missing, unknownProduct] = pages as [Page, Page, Page, Page];
    // An unknown product's address: the products list, under its notice
    // (the path is the page's own until the server fills it in).
    expect(unknownProduct.body.replaceAll("<!-- -->", "")).toContain("There is no piece at <span>/product/__not-found</span>: here are all our pieces");
    expect(unknownProduct.body).toContain(">All Products</h1>");
    expect(page.type).toMatch(/^text\/html/);
    expect(page.body).toContain(product.name);
    // After first paint's changes: the stylesheets written in.
    expect(page.body).toContain("<style data-href=");
    expect(page.data).toContain(product.description.slice(0, 40));
    expect(index.type).toMatch(/^application\/json/);
    expect(JSON.parse(index.body).products).toHaveLength(catalogue.products.length);
    expect(missing.data).toBeNull();
    expect(missing.body).toContain('name="robots" content="noindex"');
  });

  it("a page the content cannot make fails with the content's problem", async () => {
    const broken = join(dir, "broken");
    await cp(shipped, broken, { recursive: true });
    const catalogue = JSON.parse(await readFile(join(broken, "catalogue.json"), "utf8"));
    catalogue.products[0].images[0].src = "products/not-made.svg";
    await writeFile(join(broken, "catalogue.json"), JSON.stringify(catalogue));
    await expect(render(broken, [`/product/${catalogue.products[0].id}`])).rejects.toMatchObject({
      problems: ["content/images/products/not-made.svg: not made by scripts/images.mjs (run npm run build)"],
    });
  });

  it("renders two contents at once, each with its own texts", async () => {
    const site = JSON.parse(await readFile(join(shipped, "site.json"), "utf8"));
    const [a, b] = await Promise.all([render(shipped, ["/", "/about"]), render(other, ["/", "/about"])]);
    for (const page of a) expect(page.body).toContain(site.tagline);
    for (const page of b) {
      expect(page.body).toContain("A tagline of the other content");
      expect(page.body).not.toContain(site.tagline);
    }
  });

  it("a removed product's page and its quote page say it is gone, with status 410, and lead to its category and similar pieces", async () => {
    const removed = join(dir, "removed");
    await cp(shipped, removed, { recursive: true });
    const catalogue = JSON.parse(await readFile(join(removed, "catalogue.json"), "utf8"));
    // A piece whose category has others, taken out as the workspace does.
    type Entry = { id: number; name: string; category: string };
    const products: Entry[] = catalogue.products;
    const gone = products.find((p) => p.id !== catalogue.featured.fresh && products.some((o) => o.id !== p.id && o.category === p.category))!;
    const similar = products.find((o) => o.id !== gone.id && o.category === gone.category)!;
    catalogue.products = products.filter((p) => p.id !== gone.id);
    catalogue.featured.whatsHot = catalogue.featured.whatsHot.filter((id: number) => id !== gone.id);
    catalogue.removed = [{ id: gone.id, name: gone.name, category: gone.category }];
    await writeFile(join(removed, "catalogue.json"), JSON.stringify(catalogue));
    const tab = (catalogue.categories as { name: string; tabs?: string[] }[]).find((c) => c.name === gone.category)!.tabs?.[0] ?? gone.category;

    const pages = await render(removed, [`/product/${gone.id}`, `/product/${gone.id}/quote`]);
    for (const page of pages) {
      expect(page.status, page.path).toBe(410);
      expect(page.body).toContain("This piece is no longer in the catalogue");
      expect(page.body).toContain(`href="${listPath({ ...DEFAULT_LIST_STATE, category: tab })}"`);
      expect(page.body).toContain(`href="/product/${similar.id}"`);
      expect(page.body).toContain('<meta name="robots" content="noindex"/>');
    }
    // Its data, for a browser that navigates to it, says the same.
    expect(pages[0]!.data).toContain(gone.name);
  });
});

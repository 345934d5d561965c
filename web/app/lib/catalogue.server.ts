// The catalogue and its pictures, read at build time by the route loaders:
// each page's HTML (and its .data file) carries only what that page shows,
// so no page's JavaScript grows with the catalogue.
//
// Each accessor records a key of its own (content.server.ts, recorded), as fine
// as what it gives: a page showing a product's card depends on that card,
// not on the catalogue, so a new description renders again only the pages
// that show it. accessorsByKind, at the end, is the one list of the keys.
import type { CatalogueFile, ProductCardData, ProductData, ProductEntry, RemovedEntry } from "./catalogue";
import type { SearchIndex } from "./search";
import { similarProducts } from "./catalogue";
import type { Picture } from "./picture";
import { warranty } from "./facts";
import { DEFAULT_LIST_STATE, filterProducts, listPath, listStateOf, paginate, vocabularyOf } from "./filters";
import { catalogueFile, facts, imageManifest, markdownDoc, pagesSection, readContentJson, recorded, service, type Pages } from "./content.server";
import { registerAccessors } from "./snapshot.server";

type ManifestEntry = Omit<Picture, "alt"> & { og?: string };

// content/catalogue.json, whole, read at prerender time (lib/content.server.ts).
export const catalogue = (): CatalogueFile => catalogueFile();
const images = () => imageManifest<Record<string, ManifestEntry>>();

// A picture's entry in the image manifest (undefined when it has none).
const imageEntry = (src: string): ManifestEntry | undefined => recorded(`image:${src}`, () => images()[src]);

// A picture of content/images/ (the pipeline stops the build on a missing one).
export function picture(src: string, alt: string): Picture {
  const entry = imageEntry(src);
  if (!entry) throw new Error(`content/images/${src}: not made by scripts/images.mjs (run npm run build)`);
  const { og: _og, ...made } = entry;
  return { ...made, alt };
}

// A drawing of the pages (content/pages.json's "image"s): one of the site's
// own, under /images/ (web/public/images), shown as it is in its frame's
// size; or a picture of content/images/ uploaded in its place, made by the
// pipeline as the hero is.
export function drawing(src: string, alt: string, frame: { width: number; height: number }): Picture {
  return src.startsWith("/") ? { src, alt, ...frame } : picture(src, alt);
}

export function ogImageOf(src: string): string {
  const og = imageEntry(src)?.og;
  if (!og) throw new Error(`content/images/${src}: no link-preview picture was made`);
  return og;
}

// A product as the catalogue has it (undefined when it has none).
export const productEntry = (id: number): ProductEntry | undefined =>
  recorded(`product:${id}`, () => catalogue().products.find((p) => p.id === id));

// The home page's picks: What's Hot and the fresh product.
export const featured = (): CatalogueFile["featured"] => recorded("featured", () => catalogue().featured);

export const productCard = (p: ProductEntry): ProductCardData => recorded(`card:${p.id}`, () => cardOf(p));

function cardOf(p: ProductEntry): ProductCardData {
  const first = p.images[0]!;
  return {
    id: p.id,
    name: p.name,
    type: p.type,
    category: p.category,
    material: p.material,
    finish: p.finish,
    image: picture(first.src, first.alt),
  };
}

export function productData(p: ProductEntry): ProductData {
  return recorded(`data:${p.id}`, () => ({
    ...productCard(p),
    description: p.description,
    images: p.images.map((i) => picture(i.src, i.alt)),
    ogImage: ogImageOf(p.images[0]!.src),
  }));
}

// Every product's card (ids: those products' only, in that order). Each
// is made once per snapshot: each of a large catalogue's hundreds of list
// pages asks for them all.
export function productCards(ids?: readonly number[]): ProductCardData[] {
  if (ids) return ids.map((id) => recorded(`card:${id}`, () => cardOf(productEntry(id)!)));
  return recorded("cards", () => catalogue().products.map(productCard));
}

// What the search matches and shows (routes/search-index.ts): every
// product's card with its description, and the catalogue's synonyms.
export const searchIndex = (): SearchIndex =>
  recorded("search", () => {
    const { products, synonyms = [] } = catalogue();
    return { products: products.map((p) => ({ ...productCard(p), description: p.description })), synonyms };
  });

export const similarCards = (p: ProductEntry): ProductCardData[] =>
  recorded(`similar:${p.id}`, () => similarProducts(catalogue().products, p).map(productCard));

// A product taken out of the catalogue, as its page says it (routes/product.tsx,
// GoneNotice): its name, the lists of its category (each tab it was shown
// under: none when the category is gone too) and the pieces of that
// category, as Similar Products chooses them. Undefined when no product was
// removed with that id, or a product has it again.
export type RemovedProduct = RemovedEntry & { lists: { name: string; path: string }[]; similar: ProductCardData[] };
export const removedProduct = (id: number): RemovedProduct | undefined =>
  recorded(`removed:${id}`, () => {
    const entry = productEntry(id) ? undefined : catalogue().removed?.find((r) => r.id === id);
    if (!entry) return undefined;
    const { name, category } = entry;
    const lists = vocabulary()
      .tabs.filter((t) => t.categories.includes(category))
      .map((t) => ({ name: t.name, path: listPath({ ...DEFAULT_LIST_STATE, category: t.name }) }));
    return { id, name, category, lists, similar: similarProducts(catalogue().products, { id, category }).map(productCard) };
  });

export const vocabulary = () => recorded("vocabulary", () => vocabularyOf(catalogue()));

// One address of the product list (its path after /products/: tab,
// material, finish, page): the filters' words and that address's page of
// cards. Its own key, so a new name renders again only the addresses
// that show that card (or count it).
export const productList = (address: string) =>
  recorded(`list:${address}`, () => {
    const words = vocabulary();
    const state = listStateOf(address, new URLSearchParams(), words) ?? DEFAULT_LIST_STATE;
    const matching = filterProducts(productCards(), state, words);
    return { vocabulary: words, list: { count: matching.length, ...paginate(matching, state.page) } };
  });

// What every product page states: made to any size, and its warranty (the
// same warranty the returns policy and the chat name).
export const productDetails = () =>
  recorded("details", () => ({ dimensions: catalogue().details.dimensions, warranty: warranty(service().warranty.years).label }));

// Each kind of key back to the accessor that records it, so that a build
// can tell which keys an index of an earlier build holds have changed
// (snapshot.server.ts, recompute). A key of a kind not listed counts as
// changed, so a kind left out costs renders, never a stale page.
const product = (id: string) => {
  const entry = productEntry(Number(id));
  if (!entry) throw new Error(`no product ${id}`);
  return entry;
};
registerAccessors({
  file: (name) => readContentJson(name),
  generated: () => images(),
  pages: (section) => pagesSection(section as keyof Pages),
  facts: () => facts(),
  md: (name) => markdownDoc(name),
  image: (src) => imageEntry(src),
  product: (id) => productEntry(Number(id)),
  featured: () => featured(),
  card: (id) => productCards([Number(id)]),
  data: (id) => productData(product(id)),
  cards: () => productCards(),
  search: () => searchIndex(),
  similar: (id) => similarCards(product(id)),
  removed: (id) => removedProduct(Number(id)),
  vocabulary: () => vocabulary(),
  list: (address) => productList(address),
  details: () => productDetails(),
});

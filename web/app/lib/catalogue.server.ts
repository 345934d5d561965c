// The catalogue and its pictures, read at build time by the route loaders:
// each page's HTML (and its .data file) carries only what that page shows,
// so no page's JavaScript grows with the catalogue.
import type { CatalogueFile, ProductCardData, ProductData, ProductEntry } from "./catalogue";
import { similarProducts } from "./catalogue";
import type { Picture } from "./picture";
import { warranty } from "./facts";
import { vocabularyOf } from "./filters";
import { catalogueFile, imageManifest, service } from "./content.server";

type ManifestEntry = Omit<Picture, "alt"> & { og?: string };

// content/catalogue.json, read at prerender time (lib/content.server.ts).
export const catalogue = (): CatalogueFile => catalogueFile();
const images = () => imageManifest<Record<string, ManifestEntry>>();

// A picture of content/images/ (the pipeline stops the build on a missing one).
export function picture(src: string, alt: string): Picture {
  const entry = images()[src];
  if (!entry) throw new Error(`content/images/${src}: not made by scripts/images.mjs (run npm run build)`);
  const { og: _og, ...made } = entry;
  return { ...made, alt };
}

export function ogImageOf(src: string): string {
  const og = images()[src]?.og;
  if (!og) throw new Error(`content/images/${src}: no link-preview picture was made`);
  return og;
}

export function productEntry(id: number): ProductEntry | undefined {
  return catalogue().products.find((p) => p.id === id);
}

export function productCard(p: ProductEntry): ProductCardData {
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
  return {
    ...productCard(p),
    description: p.description,
    images: p.images.map((i) => picture(i.src, i.alt)),
    ogImage: ogImageOf(p.images[0]!.src),
  };
}

// Every product's card is made once per read of the catalogue: each of a
// large catalogue's hundreds of list pages asks for them all.
const allCards = new WeakMap<CatalogueFile, ProductCardData[]>();
export function productCards(ids?: readonly number[]): ProductCardData[] {
  if (ids) return ids.map((id) => productCard(productEntry(id)!));
  const all = catalogue();
  if (!allCards.has(all)) allCards.set(all, all.products.map(productCard));
  return allCards.get(all)!;
}

export function similarCards(p: ProductEntry): ProductCardData[] {
  return similarProducts(catalogue().products, p).map(productCard);
}

export const vocabulary = () => vocabularyOf(catalogue());

// What every product page states: made to any size, and its warranty (the
// same warranty the returns policy and the chat name).
export function productDetails() {
  return { dimensions: catalogue().details.dimensions, warranty: warranty(service().warranty.years).label };
}

import data from "../../../content/catalogue.json";
import service from "../../../content/service.json";

// The catalogue is data (content/catalogue.json), shared with the Go server.
export type Product = {
  id: number;
  name: string;
  type: string;
  category: string;
  material: string[];
  finish: string[];
  image: string;
  description: string;
};

export const products: readonly Product[] = data.products;

// The home page's picks (spec, section 9): What's Hot, and the product the
// "Fresh from" banner opens.
export const featured = {
  whatsHot: data.featured.whatsHot.map((id) => productById(id)!),
  fresh: productById(data.featured.fresh)!,
};

// What every product page states: made to any size, and its warranty (the
// same warranty the returns policy and the chat name).
export const productDetails = { dimensions: data.details.dimensions, warranty: service.warranty.label };

export function productById(id: number): Product | undefined {
  return products.find((p) => p.id === id);
}

// Every product image is drawn at this size; photographs swapped in later
// are cropped to the same 4:5 frame, so nothing shifts while they load.
export const PRODUCT_IMAGE = { width: 800, height: 1000 } as const;

// Products of the same category, the product itself excluded, at most 12
// (spec, section 9).
export function similarProducts(all: readonly Product[], product: Product, max = 12): Product[] {
  return all.filter((p) => p.category === product.category && p.id !== product.id).slice(0, max);
}

import data from "../../../content/catalogue.json";

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

export function productById(id: number): Product | undefined {
  return products.find((p) => p.id === id);
}

// Every product image is drawn at this size; photographs swapped in later
// are cropped to the same 4:5 frame, so nothing shifts while they load.
export const PRODUCT_IMAGE = { width: 800, height: 1000 } as const;

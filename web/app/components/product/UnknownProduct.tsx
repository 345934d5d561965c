import { isRouteErrorResponse } from "react-router";
import type { productList } from "../../lib/catalogue.server";
import { ProductList, type ListData } from "../../routes/products";
import { ErrorMessage } from "../ErrorMessage";
import { NotFoundNotice } from "../NotFoundNotice";

// What the product route's loader throws for an id of no product, removed
// or not (/product/999): 404, with the first page of the products list.
export type UnknownProduct = { unknownProduct: ReturnType<typeof productList> };

export function unknownProductOf(error: unknown): ListData | null {
  if (!isRouteErrorResponse(error) || error.status !== 404) return null;
  const list = (error.data as Partial<UnknownProduct> | null)?.unknownProduct;
  return list ? { ...list, products: null } : null;
}

// The product route's boundary: an unknown product's address shows the
// products list under one line saying so, and stays (no redirect). The
// server sends the one prerendered page (lib/paths.ts, UNKNOWN_PRODUCT_PATH)
// for every such address, and the browser, which matches this route there,
// hydrates it as it was rendered. Any other error is said as the root says it.
export function UnknownProductBoundary({ error }: { error: unknown }) {
  const list = unknownProductOf(error);
  if (!list) return <ErrorMessage error={error} />;
  return <ProductList loaderData={list} rest="" notice={<NotFoundNotice what="piece" instead="here are all our pieces" />} />;
}

import type { ProductCardData } from "../../lib/catalogue";
import type { ShortlistItem } from "../../lib/shortlist/items";

/** The shortlist as GA4's item list: the parameters of view_item_list and generate_lead. */
export const listParams = (list: readonly ShortlistItem[], byId: Map<number, ProductCardData>) => ({
  currency: "INR",
  item_list_name: "Shortlist",
  items: list.map((i) => {
    const p = byId.get(i.productId);
    return { item_id: String(i.productId), item_name: p?.name, item_category: p?.category, item_variant: `${i.material}, ${i.finish}`, quantity: i.quantity };
  }),
});

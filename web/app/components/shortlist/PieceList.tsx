// ShareLink before Piece: the page's stylesheets stay in their order (Dialog's, then Field's).
import { ShareLink } from "./ShareLink";
import { Piece } from "./Piece";
import type { ProductCardData } from "../../lib/catalogue";
import { lineKey, type ShortlistItem } from "../../lib/shortlist/items";
import { lineName, shortlistSize } from "./pieces";
import type { PieceEditing } from "./usePieceEditing";

type Props = {
  items: ShortlistItem[];
  products: ProductCardData[];
  byId: Map<number, ProductCardData>;
  /** The request's problems, by the names of the fields (items[2].finish). */
  errors: Record<string, string>;
  /** The quantity boxes' text by line (lineKey), where it was typed. */
  quantities: Record<string, string>;
  edit: Pick<PieceEditing, "move" | "remove" | "changeQuantity" | "change" | "refused">;
};

/**
 * The shortlist's lines, in order, under their count and Copy link. Each
 * is drawn by its place: a line's material or finish changed keeps its
 * controls (and the focus), and a move keeps the focus on the button
 * pressed, which usePieceEditing moves to the line's new place.
 */
export function PieceList({ items, products, byId, errors, quantities, edit }: Props) {
  return (
    <section className="shortlist__pieces" aria-labelledby="shortlist-pieces">
      <div className="shortlist__heading">
        <h2 id="shortlist-pieces">{shortlistSize(items)}</h2>
        <ShareLink items={items} products={products} />
      </div>
      <ol className="shortlist__list">
        {items.map((item, index) => (
          <Piece
            key={index} // by its place: see above
            item={item}
            name={lineName(items, index, byId)}
            index={index}
            last={index === items.length - 1}
            product={byId.get(item.productId)!}
            errors={{ ...errors, ...edit.refused }}
            quantity={quantities[lineKey(item)] ?? String(item.quantity)}
            onQuantity={(text) => edit.changeQuantity(index, text)}
            onChange={(change) => edit.change(index, change)}
            onMove={(by) => edit.move(index, by)}
            onRemove={() => edit.remove(index)}
          />
        ))}
      </ol>
    </section>
  );
}

import { Link } from "react-router";
import { Field } from "../Field";
import { Picture } from "../Picture";
import type { ProductCardData } from "../../lib/catalogue";
import { itemField, quantityProblem } from "../../lib/shortlist/request";
import { MAX_QUANTITY, NOTE_MAX, type ShortlistItem } from "../../lib/shortlist/items";
import { Choice } from "./Choice";

type PieceProps = {
  item: ShortlistItem;
  /** The line's name for its buttons: the product's, with its options where another line has the same product (lineName). */
  name: string;
  index: number;
  last: boolean;
  product: ProductCardData;
  quantity: string;
  onQuantity: (text: string) => void;
  onChange: (change: Partial<ShortlistItem>) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
  /** The problems with its fields, by their names (items[2].finish). */
  errors: Record<string, string>;
};

/** One line of the shortlist: its picture and name, its choices, quantity and note, and the buttons that move or remove it. */
export function Piece({ item, name, index, last, product, quantity, onQuantity, onChange, onMove, onRemove, errors: problems }: PieceProps) {
  const errors = (name: string) => problems[name];
  const field = (name: keyof ShortlistItem) => itemField(index, name);
  const typedProblem = quantityProblem(quantity);
  return (
    <li className="piece" data-piece={index}>
      <Link to={`/product/${product.id}`} className="piece__picture" tabIndex={-1} aria-hidden="true">
        <Picture picture={product.image} slot="thumb" decorative />
      </Link>
      <div className="piece__about">
        <h3 className="piece__name">
          <Link to={`/product/${product.id}`}>{product.name}</Link>
        </h3>
        <p className="piece__type">{product.type}</p>
        {errors(field("productId")) && <p className="field__error">{errors(field("productId"))}</p>}
      </div>
      <div className="piece__choices">
        <Choice label="Material" name={field("material")} value={item.material} options={product.material} error={errors(field("material"))} onChange={(material) => onChange({ material })} />
        <Choice label="Finish" name={field("finish")} value={item.finish} options={product.finish} error={errors(field("finish"))} onChange={(finish) => onChange({ finish })} />
        <Field
          label="Quantity"
          name={field("quantity")}
          type="number"
          inputMode="numeric"
          min={1}
          max={MAX_QUANTITY}
          step={1}
          value={quantity}
          onChange={(e) => onQuantity(e.target.value)}
          error={typedProblem || errors(field("quantity"))}
        />
      </div>
      <div className="piece__note">
        <Field
          label="Note"
          optional
          multiline
          rows={2}
          name={field("note")}
          maxLength={NOTE_MAX}
          hint="A size, a colour, where it will go."
          value={item.note}
          onChange={(e) => onChange({ note: e.target.value })}
          error={errors(field("note"))}
        />
      </div>
      <div className="piece__actions">
        <button type="button" className="button button--small button--ghost" data-control="up" aria-label={`Move up: ${name}`} aria-disabled={index === 0 || undefined} onClick={() => index > 0 && onMove(-1)}>
          Move up
        </button>
        <button type="button" className="button button--small button--ghost" data-control="down" aria-label={`Move down: ${name}`} aria-disabled={last || undefined} onClick={() => !last && onMove(1)}>
          Move down
        </button>
        <button type="button" className="button button--small button--ghost" data-control="remove" aria-label={`Remove: ${name}`} onClick={onRemove}>
          Remove
        </button>
      </div>
    </li>
  );
}

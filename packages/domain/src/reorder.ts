import { CART_MAX_LINES, CART_MAX_QUANTITY } from './constants';

/** A line of an order as "Pedir de nuevo" reads it. */
export interface ReorderItem {
  productId: string;
  name: string;
  quantity: number;
}

export interface ReorderMerge {
  /** The cart's lines afterwards: the cart's own first, in their order, then the order's new products. */
  lines: { productId: string; quantity: number }[];
  /** Products of the order that were not in the cart: added with the order's quantity. */
  added: string[];
  /** Products of the order already in the cart: one line, holding the larger of the two quantities. */
  merged: string[];
  /** Products of the order no longer on sale: left out. */
  skipped: string[];
  /** Products of the order left out because the cart already has CART_MAX_LINES lines. */
  full: string[];
}

/**
 * "Pedir de nuevo" (order again): the cart holds the order's products still on sale, never two lines of one
 * product. A product already in the cart keeps one line with the larger quantity (the order's, or the
 * shopper's own if it was more), so ordering again twice, or after the order's lines stayed in the cart,
 * never doubles anything. Lines of other products stay as they were. Names are listed once each.
 */
export function mergeReorder(
  cart: readonly { productId: string; quantity: number }[],
  items: readonly ReorderItem[],
  onSale: ReadonlySet<string>,
): ReorderMerge {
  const out: ReorderMerge = { lines: cart.map((l) => ({ ...l })), added: [], merged: [], skipped: [], full: [] };
  const note = (list: string[], name: string) => {
    if (!list.includes(name)) list.push(name);
  };
  // An order may carry a product on two lines (with different notes): one quantity a product.
  const ordered = new Map<string, { name: string; quantity: number }>();
  for (const item of items) {
    if (!onSale.has(item.productId)) {
      note(out.skipped, item.name);
      continue;
    }
    const seen = ordered.get(item.productId);
    ordered.set(item.productId, {
      name: item.name,
      quantity: Math.min(CART_MAX_QUANTITY, (seen?.quantity ?? 0) + item.quantity),
    });
  }
  for (const [productId, { name, quantity }] of ordered) {
    const line = out.lines.find((l) => l.productId === productId);
    if (line) {
      line.quantity = Math.max(line.quantity, quantity);
      note(out.merged, name);
    } else if (out.lines.length >= CART_MAX_LINES) {
      note(out.full, name);
    } else {
      out.lines.push({ productId, quantity });
      note(out.added, name);
    }
  }
  return out;
}

import { CART_MAX_QUANTITY } from '@hornada/domain/constants';

interface OrderedLine {
  productId: string;
  name: string;
  quantity: number;
}

export interface ReorderPlan {
  /** One line per product still on sale, with the order's total quantity of it. */
  lines: { productId: string; quantity: number }[];
  /** The names of the products no longer on sale, once each. */
  skipped: string[];
}

/**
 * "Pedir de nuevo": the order's products and quantities that are still on sale. Prices are not carried: the
 * cart is priced by the server from today's catalogue. A product ordered on two lines (with different notes)
 * becomes one cart line with both quantities.
 */
export function planReorder(items: readonly OrderedLine[], onSale: ReadonlySet<string>): ReorderPlan {
  const quantities = new Map<string, number>();
  const skipped: string[] = [];
  for (const item of items) {
    if (!onSale.has(item.productId)) {
      if (!skipped.includes(item.name)) skipped.push(item.name);
      continue;
    }
    quantities.set(item.productId, Math.min(CART_MAX_QUANTITY, (quantities.get(item.productId) ?? 0) + item.quantity));
  }
  return { lines: [...quantities].map(([productId, quantity]) => ({ productId, quantity })), skipped };
}

/** "A", "A y B", "A, B y C". */
export function spanishList(names: readonly string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} y ${names[names.length - 1]}`;
}

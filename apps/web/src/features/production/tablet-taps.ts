import type { OrderStatus } from '@hornada/domain/schemas/orders';
import type { ProductionOrder } from '@hornada/domain/production';
import { missingOf } from './production-view';

/**
 * The kitchen tablet's taps (15 quick taps counted 1). Taps are counted on the tablet at once and
 * written one order at a time; what was written is remembered, so the next write starts from it even before
 * the day is read again (a write sends the whole produced map: from a stale one it would undo the last).
 */

/** What the tablet last wrote to an order. */
export interface Written {
  status: OrderStatus;
  producedQuantities: Record<string, number>;
}

const RANK: Partial<Record<OrderStatus, number>> = { confirmed: 0, in_production: 1, ready: 2 };

/** The orders as the server sent them, with what this tablet wrote since (the further along of both wins). */
export function withWritten(
  orders: readonly ProductionOrder[],
  written: ReadonlyMap<string, Written>,
): ProductionOrder[] {
  return orders.map((o) => {
    const w = written.get(o.id);
    if (!w) return o;
    const produced = { ...o.producedQuantities };
    for (const [id, n] of Object.entries(w.producedQuantities)) produced[id] = Math.max(produced[id] ?? 0, n);
    const status = (RANK[w.status] ?? -1) > (RANK[o.status] ?? -1) && o.status !== 'cancelled' ? w.status : o.status;
    return { ...o, status, producedQuantities: produced };
  });
}

/** Whether the server's order already shows what the tablet wrote (then the memory of it can go). */
export function caughtUp(order: ProductionOrder, w: Written): boolean {
  if ((RANK[order.status] ?? 3) < (RANK[w.status] ?? 0)) return false;
  return Object.entries(w.producedQuantities).every(([id, n]) => (order.producedQuantities[id] ?? 0) >= n);
}

/** Units of a product made so far over the day's orders (never beyond what each order asked for). */
export function producedOf(orders: readonly ProductionOrder[], productId: string): number {
  return orders.reduce((sum, o) => {
    const asked = o.items.reduce((n, i) => (i.productId === productId ? n + i.quantity : n), 0);
    return sum + Math.min(asked, o.producedQuantities[productId] ?? 0);
  }, 0);
}

/** Units of a product that may still be marked (confirmed or in production, not yet made). */
export function openUnitsOf(orders: readonly ProductionOrder[], productId: string): number {
  return orders.reduce(
    (sum, o) => (o.status === 'confirmed' || o.status === 'in_production' ? sum + missingOf(o, productId) : sum),
    0,
  );
}

/** How many of `asked` more units a product can take now that `queued` are waiting to be written. */
export function unitsToAdd(
  orders: readonly ProductionOrder[],
  productId: string,
  queued: number,
  asked: number | 'all',
): number {
  const room = Math.max(0, openUnitsOf(orders, productId) - queued);
  return asked === 'all' ? room : Math.max(0, Math.min(asked, room));
}

/** What a write to an order says it now is, remembered as the tablet's. */
export function rememberWrite(before: Written | undefined, order: ProductionOrder, body: Record<string, unknown>) {
  const status = (body.status as OrderStatus | undefined) ?? before?.status ?? order.status;
  const producedQuantities =
    (body.producedQuantities as Record<string, number> | undefined) ??
    before?.producedQuantities ??
    order.producedQuantities;
  return { status, producedQuantities };
}

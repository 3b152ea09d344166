import { formatAmount as formatDomainAmount } from '@hornada/domain/format';
import type { OrderStatus } from '@hornada/domain/schemas/orders';
import type { ProductionIngredient, ProductionOrder, ProductionProduct } from '@hornada/domain/production';

/** A day's amounts as a baker says them: grams past 1.000 as kilos, millilitres as litres ("2,4 kg"). */
export function formatAmount(amount: number, unit: string): string {
  return formatDomainAmount(amount, unit, { bigUnits: true });
}

/** "Faltan 2,4 kg de harina": what the office must buy for the day. */
export function shortageText(i: Pick<ProductionIngredient, 'name' | 'unit' | 'shortage'>): string {
  const verb = i.unit === 'unidad' && i.shortage === 1 ? 'Falta' : 'Faltan';
  return `${verb} ${formatAmount(i.shortage, i.unit)} de ${i.name.toLocaleLowerCase('es-CO')}`;
}

/** Progress of a product, 0–100, whole. */
export function progressOf(p: Pick<ProductionProduct, 'quantity' | 'produced'>): number {
  return p.quantity > 0 ? Math.min(100, Math.round((p.produced / p.quantity) * 100)) : 0;
}

export { dayFromNow, dayLong } from '../../components/day-picker';

/** Statuses where marking produced makes sense (earlier ones wait for confirmation, later ones are done). */
export const PRODUCIBLE: readonly OrderStatus[] = ['confirmed', 'in_production', 'ready'];

/** How many of an order's product are still to make. */
export function missingOf(order: ProductionOrder, productId: string): number {
  const asked = order.items.reduce((n, i) => (i.productId === productId ? n + i.quantity : n), 0);
  return Math.max(0, asked - (order.producedQuantities[productId] ?? 0));
}

/** Whether every line of an order is produced. */
export const allProduced = (order: ProductionOrder, produced = order.producedQuantities): boolean =>
  order.items.every((i) => (produced[i.productId] ?? 0) >= i.quantity);

/**
 * The writes that mark `units` more of a product (all of them with `units` null) produced on an order, in
 * the order the server accepts them (docs/design.md §5): a confirmed order first goes into production; produced
 * quantities are written while in production, and the last of them moves the order to ready with them.
 * An empty list when there is nothing to do (already made, or an order not yet confirmed).
 */
export function producePatches(
  order: ProductionOrder,
  productIds: readonly string[],
  units: number | null = null,
): Record<string, unknown>[] {
  if (order.status !== 'confirmed' && order.status !== 'in_production') return [];
  const produced = { ...order.producedQuantities };
  let changed = false;
  for (const productId of productIds) {
    const missing = missingOf({ ...order, producedQuantities: produced }, productId);
    const add = units === null ? missing : Math.min(units, missing);
    if (add <= 0) continue;
    produced[productId] = (produced[productId] ?? 0) + add;
    changed = true;
  }
  if (!changed) return [];
  const out: Record<string, unknown>[] = [];
  if (order.status === 'confirmed') out.push({ status: 'in_production' });
  out.push(
    allProduced(order, produced) ? { producedQuantities: produced, status: 'ready' } : { producedQuantities: produced },
  );
  return out;
}

/** The first order (due first) still missing a product that may be marked now: where a tap on the tablet goes. */
export function nextOrderFor(orders: readonly ProductionOrder[], productId: string): ProductionOrder | undefined {
  return orders.find((o) => (o.status === 'confirmed' || o.status === 'in_production') && missingOf(o, productId) > 0);
}

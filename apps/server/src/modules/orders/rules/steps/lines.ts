import { orderLine, orderTotals, type OrderLine } from '@hornada/domain';
import { b2bClients } from '../../../../db/schema';
import { clientOf, namesOf, productsOf } from '../lookups';
import { logged, type Logged, type OrderUpdate, type StepResult } from '../order-update';
import { assertTotalWithinCap } from '../problems';

/**
 * Lines and amounts: a product already on the order keeps the name and price copied when it was
 * ordered; one added now is priced from today's catalogue (B2B rules included).
 */
export async function repriceLines(u: OrderUpdate): Promise<StepResult | void> {
  const { current, data, editing, itemsChanged } = u;
  const clientChanged = editing.includes('b2bClientId');
  if (!itemsChanged && !editing.includes('fulfillment') && !clientChanged) return;
  const log: Logged[] = [];
  const set: Record<string, unknown> = {};
  let lines: OrderLine[] = current.items;
  if (itemsChanged || clientChanged) {
    const items = data.items ?? current.items;
    const kept = new Map(current.items.map((l) => [l.productId, l]));
    const b2bId = data.b2bClientId !== undefined ? data.b2bClientId : current.b2bClientId;
    const known = clientChanged ? new Set<string>() : new Set(kept.keys());
    const [catalogue, client] = await Promise.all([
      productsOf(u.db, u.companyId, items, known),
      clientOf(u.db, u.companyId, b2bId),
    ]);
    lines = items.map((i) => {
      const was = !clientChanged ? kept.get(i.productId) : undefined;
      const product = was
        ? { id: was.productId, name: was.name, price: was.unitPrice, b2bPrice: null }
        : catalogue.get(i.productId)!;
      return orderLine(product, was ? null : client, i.quantity, i.notes ?? null);
    });
    if (itemsChanged) {
      log.push(
        logged(
          'items',
          current.items.map((l) => ({ productId: l.productId, quantity: l.quantity })),
          lines.map((l) => ({ productId: l.productId, quantity: l.quantity })),
        ),
      );
    }
    if (clientChanged) {
      const names = await namesOf(u.db, b2bClients, u.companyId, current.b2bClientId, b2bId ?? null);
      log.push(logged('b2bClientId', current.b2bClientId, b2bId, undefined, names));
      set.channel = b2bId ? 'b2b' : current.channel === 'b2b' ? 'staff' : current.channel;
    }
    set.items = lines;
  }
  const totals = orderTotals(lines, u.fulfillment, u.settings, current.discount);
  assertTotalWithinCap(totals);
  Object.assign(set, totals);
  if (totals.total !== current.total) log.push(logged('total', current.total, totals.total));
  return { set, log };
}

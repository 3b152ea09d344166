/**
 * The sales report net of refunds (issue 39, defect "the sales report ignores refunds on screen"): a refunded
 * order is no sale, so its money and its count leave revenue, the orders, the average ticket and every
 * breakdown, and come back as their own figure (`refunded`, `refundedOrders`), on screen and in the CSV alike.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order, SalesReport } from '@hornada/domain';
import { json } from '../helpers/app';
import { ordersCalls, setupOrdersApp, WEDNESDAY, type OrdersApp } from '../helpers/orders';

let o: OrdersApp;
const { staffOrder, patch } = ordersCalls(() => o);
const DAY = `from=${WEDNESDAY}&to=${WEDNESDAY}`;
const placed: Record<string, Order> = {};

const report = (query: string) =>
  o.t.call({ method: 'GET', url: `/api/companies/${o.companyId}/reports/sales?${query}`, token: o.admin.token });

beforeAll(async () => {
  o = await setupOrdersApp();
  placed.paid = await staffOrder(); // 2 pan 5,000 + delivery 5,000
  placed.refunded = await staffOrder({ items: [{ productId: o.torta, quantity: 1 }] }); // 42,000 + 5,000
  placed.unpaid = await staffOrder(); // 10,000, not paid yet
  for (const id of [placed.paid.id, placed.refunded.id]) {
    const res = await patch(id, o.staff, { paymentStatus: 'paid' });
    expect(res.statusCode, res.body).toBe(200);
  }
  const refund = await patch(placed.refunded.id, o.admin, {
    paymentStatus: 'refunded',
    refundReason: 'Torta dañada en la entrega',
  });
  expect(refund.statusCode, refund.body).toBe(200);
});
afterAll(async () => {
  await o?.t.close();
});

describe('GET …/reports/sales with a refunded order', () => {
  it('counts sales net of the refund, and the refund as its own figure', async () => {
    expect([placed.paid!.total, placed.refunded!.total, placed.unpaid!.total]).toEqual([10_000, 47_000, 10_000]);
    const res = await report(DAY);
    expect(res.statusCode, res.body).toBe(200);
    const r = json<{ data: SalesReport }>(res).data;
    expect(r.totals).toEqual({
      revenue: 20_000,
      paid: 10_000,
      unpaid: 10_000,
      refunded: 47_000,
      refundedOrders: 1,
      orders: 2,
      averageTicket: 10_000,
    });
    expect(r.byDay).toEqual([{ date: WEDNESDAY, revenue: 20_000, orders: 2 }]);
    // The refunded torta was not sold: no product, collection or channel counts it.
    expect(r.byProduct).toEqual([
      { productId: o.pan, name: 'Pan campesino', quantity: 4, revenue: 10_000, paid: 5_000, unpaid: 5_000 },
    ]);
    expect(r.byCollection.map((c) => [c.quantity, c.revenue])).toEqual([[4, 10_000]]);
    expect(r.byChannel.find((c) => c.channel === 'staff')).toEqual({
      channel: 'staff',
      orders: 2,
      revenue: 20_000,
      paid: 10_000,
      unpaid: 10_000,
    });
  });

  it('writes the same figures in the CSV: the sales net, the refund on its own row with its count', async () => {
    const res = await report(`${DAY}&format=csv`);
    expect(res.statusCode, res.body).toBe(200);
    const lines = res.rawPayload.toString('utf8').slice(1).split('\r\n');
    expect(lines[1]).toBe(`Resumen,${WEDNESDAY} a ${WEDNESDAY},2,,20000,10000,10000`);
    expect(lines).toContain('Reembolsado,,1,,47000,,');
    expect(lines).toContain(`Día,${WEDNESDAY},2,,20000,,`);
    expect(lines.some((l) => l.startsWith('Producto,Torta'))).toBe(false);
  });
});

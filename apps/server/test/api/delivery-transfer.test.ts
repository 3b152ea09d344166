/**
 * An unpaid transfer at the door (defect "an unpaid transfer shows 'Nada que cobrar'"): the driver
 * may collect it in cash. Cash that covers the total pays the order and makes its method cash (in history, so
 * the cash summary counts it both to collect and collected); less than the total leaves it an unpaid transfer;
 * a confirmed transfer is collected by nobody.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryDay, Order } from '@hornada/domain';
import { json, type TestUser } from '../helpers/app';
import { ordersCalls, setupOrdersApp, WEDNESDAY, type OrdersApp } from '../helpers/orders';

let o: OrdersApp;
const { staffOrder, patch, get } = ordersCalls(() => o);

async function onTheWay(body: Record<string, unknown> = {}): Promise<Order> {
  const order = await staffOrder({ paymentMethod: 'transfer', deliveryAssistantId: o.driver.uid, ...body });
  for (const [status, user] of [
    ['confirmed', o.admin],
    ['in_production', o.admin],
    ['ready', o.admin],
    ['out_for_delivery', o.driver],
  ] as [string, TestUser][]) {
    const res = await patch(order.id, user, { status });
    expect(res.statusCode, res.body).toBe(200);
  }
  return order;
}

async function stopOf(id: string) {
  const res = await o.t.call({
    method: 'GET',
    url: `/api/companies/${o.companyId}/deliveries?date=${WEDNESDAY}`,
    token: o.driver.token,
  });
  expect(res.statusCode, res.body).toBe(200);
  const day = json<{ data: DeliveryDay }>(res).data;
  return { stop: day.routes.flatMap((r) => r.stops).find((s) => s.id === id)!, totals: day.totals };
}

beforeAll(async () => {
  o = await setupOrdersApp();
});
afterAll(async () => {
  await o?.t.close();
});

describe('an unpaid transfer delivered', () => {
  it('collected in cash by the driver: paid, its method now cash, and the summary balances', async () => {
    const order = await onTheWay();
    const before = await stopOf(order.id);
    expect([before.stop.paymentMethod, before.stop.paymentStatus, before.stop.amountToCollect]).toEqual([
      'transfer',
      'unpaid',
      0,
    ]);
    const done = await patch(order.id, o.driver, { status: 'delivered', cashCollected: order.total });
    expect(done.statusCode, done.body).toBe(200);
    const after = json<{ data: Order }>(await get(order.id, o.admin)).data;
    expect([after.status, after.paymentStatus, after.paymentMethod, after.cashCollected]).toEqual([
      'delivered',
      'paid',
      'cash',
      order.total,
    ]);
    expect(after.history.filter((h) => h.field === 'paymentMethod' || h.field === 'paymentStatus')).toEqual([
      expect.objectContaining({ field: 'paymentMethod', from: 'transfer', to: 'cash' }),
      expect.objectContaining({ field: 'paymentStatus', from: 'unpaid', to: 'paid' }),
    ]);
    const { stop } = await stopOf(order.id);
    expect([stop.amountToCollect, stop.cashCollected]).toEqual([order.total, order.total]);
  });

  it('with less cash than the total: still an unpaid transfer, for the office to settle', async () => {
    const order = await onTheWay();
    const done = await patch(order.id, o.driver, { status: 'delivered', cashCollected: order.total - 1000 });
    expect(done.statusCode, done.body).toBe(200);
    const after = json<{ data: Order }>(done).data;
    expect([after.paymentStatus, after.paymentMethod, after.cashCollected]).toEqual([
      'unpaid',
      'transfer',
      order.total - 1000,
    ]);
  });

  it('delivered without cash: the transfer stays to confirm', async () => {
    const order = await onTheWay();
    const done = await patch(order.id, o.driver, { status: 'delivered' });
    expect(done.statusCode, done.body).toBe(200);
    expect([json<{ data: Order }>(done).data.paymentStatus, json<{ data: Order }>(done).data.paymentMethod]).toEqual([
      'unpaid',
      'transfer',
    ]);
  });
});

/**
 * Rules that compose: a resource's hooks are ordered, named lists that modules add to where
 * the app is composed, so a second module's rule runs beside the first instead of replacing it, and a
 * write made through the service (the seed, a module, a test) runs the same rules as the API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../../src/context';
import { HookList } from '../../src/resources/hooks';
import { asUser } from '../../src/resources/actor';
import { ADDRESS, CONTACT, setupOrdersApp, WEDNESDAY, type OrdersApp } from '../helpers/orders';

describe('HookList', () => {
  it('runs hooks by order, then in the order they were added, and refuses a name taken twice', () => {
    const list = new HookList<string>('orders.beforeWrite');
    list.add('delivery', 'd', { order: 300 });
    list.add('rules', 'r', { order: 100 });
    list.add('payments', 'p', { order: 200 });
    list.add('stock', 's', { order: 200 });
    expect(list.names()).toEqual(['rules', 'payments', 'stock', 'delivery']);
    expect(list.list()).toEqual(['r', 'p', 's', 'd']);
    expect(() => list.add('rules', 'again')).toThrow(/rules/);
    expect(list.size).toBe(4);
  });
});

describe('the composed app', () => {
  let o: OrdersApp;
  beforeAll(async () => {
    o = await setupOrdersApp();
  });
  afterAll(async () => {
    await o?.t.close();
  });

  it("declares each module's rules on its resources, after the definition's own", () => {
    const { resources } = o.t.app;
    expect(resources.hooksOf('orders').beforeWrite.names()).toEqual(['orders:rules']);
    // Payments' gateway rule is a step of the order's own update, after its rules.
    expect(o.t.app.modules.orders.rules.stepNames().slice(-2)).toEqual(['history-of-the-rest', 'payments:gateway']);
    expect(resources.hooksOf('users').beforeWrite.names()).toEqual(['users:definition']);
    expect(resources.hooksOf('users').afterWrite.names()).toEqual([
      'identity:end-sessions',
      'identity:invite',
      'identity:release-address',
    ]);
  });

  it("runs a second module's hook after the orders rules, on a write made through the service", async () => {
    const orders = o.t.app.resources.hooksOf('orders');
    const seen: Record<string, unknown>[] = [];
    // What payments or stock would do: read what the rules decided and add to it.
    orders.beforeWrite.add(
      'test:after-rules',
      async (_ctx, _tx, _actor, _current, data) => {
        seen.push(data);
        return { ...data, notes: `total ${String(data.total)}` };
      },
      { order: 200 },
    );
    const staff: Caller = { ...o.staff, name: 'Staff' };
    const order = await o.t.app.resources.get('orders').create(asUser(staff), o.companyId, {
      contact: CONTACT,
      items: [{ productId: o.pan, quantity: 2 }],
      fulfillment: 'delivery',
      address: ADDRESS,
      dueDate: WEDNESDAY,
      window: 'am',
      paymentMethod: 'cash',
      notes: null,
    });
    // Priced and numbered by the rules, then reshaped by the hook after them.
    expect(seen[0]).toMatchObject({ total: 10_000, status: 'pending' });
    expect(order).toMatchObject({ total: 10_000, notes: 'total 10000', status: 'pending' });
    expect(typeof order.number).toBe('number');
    expect(orders.beforeWrite.names()).toEqual(['orders:rules', 'test:after-rules']);
  });
});

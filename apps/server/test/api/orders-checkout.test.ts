/**
 * Checkout and pricing: lines priced from the catalogue (a client's prices ignored),
 * the delivery fee and free delivery, the minimum order, days and windows (lead time across midnight
 * in Bogotá with the injected clock, capacity under a race), Idempotency-Key, numbers under
 * concurrency, and a guest's link.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OfferedDay, Order } from '@hornada/domain';
import { json } from '../helpers/app';
import {
  ADDRESS,
  MONDAY_10AM,
  ordersCalls,
  setupOrdersApp,
  TUESDAY,
  WEDNESDAY,
  type OrdersApp,
} from '../helpers/orders';
import { newId } from '../../src/lib/ids';

let o: OrdersApp;
const { cart, checkout, checkoutBody, webOrder, staffOrder, postOrder, get } = ordersCalls(() => o);
const orderOf = (res: { body: string }) => json<{ data: Order & { accessToken: string } }>(res).data;

beforeAll(async () => {
  o = await setupOrdersApp();
});
afterAll(async () => {
  await o?.t.close();
});

describe('checkout', () => {
  it('places a pending web order priced from the catalogue, with a number and history', async () => {
    const order = await webOrder(4);
    expect(order).toMatchObject({
      channel: 'web',
      status: 'pending',
      paymentStatus: 'unpaid',
      paymentMethod: 'cash',
      subtotal: 10_000,
      deliveryFee: 5000,
      total: 15_000,
      fulfillment: 'delivery',
      window: 'am',
      dueDate: '2026-11-25T05:00:00.000Z',
    });
    expect(order.items).toEqual([
      { productId: o.pan, name: 'Pan campesino', unitPrice: 2500, quantity: 4, notes: null, lineTotal: 10_000 },
    ]);
    expect(order.number).toBeGreaterThanOrEqual(1001);
    const full = json<{ data: Order }>(await get(order.id, o.staff)).data;
    expect(full.preparationDate).toBe('2026-11-24T05:00:00.000Z');
    expect(full.history).toEqual([
      {
        at: MONDAY_10AM,
        by: { uid: null, name: 'Ana Pérez', role: 'guest' },
        field: 'status',
        from: null,
        to: 'pending',
      },
    ]);
    expect(full).not.toHaveProperty('idempotencyKey');
    expect(full).not.toHaveProperty('requestHash');
  });

  it('refuses prices and totals sent by the client', async () => {
    const c = await cart([{ productId: o.pan, quantity: 4 }]);
    const res = await checkout(c, { ...checkoutBody(), total: 1, subtotal: 1 });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.body).toContain('total');
    // A cart line's price sent back is dropped by the cart; the order still charges the catalogue's.
    const put = await o.t.call({
      method: 'PUT',
      url: `/api/carts/${c.id}`,
      headers: { 'x-session-id': c.session },
      payload: { items: [{ productId: o.pan, quantity: 4, unitPrice: 1, lineTotal: 4 }] },
    });
    expect(put.statusCode, put.body).toBe(200);
    const placed = await checkout(c);
    expect(placed.statusCode, placed.body).toBe(201);
    expect(orderOf(placed).total).toBe(15_000);
  });

  it('waives the delivery fee for pickup and from freeDeliveryFrom', async () => {
    expect((await webOrder(4, { fulfillment: 'pickup', address: null })).deliveryFee).toBe(0);
    const free = await webOrder(20);
    expect([free.subtotal, free.deliveryFee, free.total]).toEqual([50_000, 0, 50_000]);
  });

  it('refuses a web order under the minimum with the amount missing', async () => {
    const c = await cart([{ productId: o.pan, quantity: 3 }]);
    const res = await checkout(c);
    expect(res.statusCode).toBe(422);
    expect(json(res)).toMatchObject({
      code: 'orders/minimum-order',
      message: 'The order is $2,500 short of the minimum order of $10,000',
    });
  });

  it('checks contact, address, window and payment method', async () => {
    const c = await cart([{ productId: o.pan, quantity: 4 }]);
    const noPhone = await checkout(c, checkoutBody({ contact: { name: 'Ana' } }));
    expect(noPhone.statusCode).toBe(400);
    expect(noPhone.body).toContain('contact.phone');
    const noAddress = await checkout(c, checkoutBody({ address: null }));
    expect(noAddress.statusCode).toBe(400);
    expect(noAddress.body).toContain('address');
    const badWindow = await checkout(c, checkoutBody({ window: 'noche' }));
    expect(badWindow.statusCode).toBe(400);
    expect(badWindow.body).toContain('window');
    // The bakery of these tests offers cash and transfer only (online: payments-checkout.test.ts).
    const online = await checkout(c, checkoutBody({ paymentMethod: 'online' }));
    expect(online.statusCode).toBe(422);
    expect(online.json()).toMatchObject({ code: 'orders/payment-method-unavailable' });
    const noKey = await o.t.call({
      method: 'POST',
      url: `/api/carts/${c.id}/checkout`,
      headers: { 'x-session-id': c.session },
      payload: checkoutBody(),
    });
    expect(noKey.statusCode).toBe(400);
    expect(noKey.body).toContain('idempotency-key');
  });

  it('lets only the cart holder check out', async () => {
    const c = await cart([{ productId: o.pan, quantity: 4 }]);
    expect((await checkout({ id: c.id, session: 'X'.repeat(20) })).statusCode).toBe(404);
    expect((await checkout({ id: 'nope', session: c.session })).statusCode).toBe(404);
  });

  it('gives a signed-in customer the order in their account', async () => {
    const c = await cart([{ productId: o.pan, quantity: 4 }], undefined, o.customer.token);
    const res = await checkout(c, checkoutBody(), newId(), o.customer.token);
    expect(res.statusCode, res.body).toBe(201);
    const mine = await get(orderOf(res).id, o.customer);
    expect(mine.statusCode).toBe(200);
    expect(json<{ data: Order }>(mine).data.customerId).toBe(o.customer.uid);
  });
});

describe('Idempotency-Key', () => {
  it('makes one order of two concurrent identical requests', async () => {
    const c = await cart([{ productId: o.pan, quantity: 4 }]);
    const key = newId();
    const [a, b] = await Promise.all([checkout(c, checkoutBody(), key), checkout(c, checkoutBody(), key)]);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect(orderOf(a).id).toBe(orderOf(b).id);
    expect(orderOf(a).number).toBe(orderOf(b).number);
    const list = json<{ total: number }>(
      await o.t.call({
        method: 'GET',
        url: `/api/companies/${o.companyId}/orders?number=${orderOf(a).number}`,
        token: o.staff.token,
      }),
    );
    expect(list.total).toBe(1);
  });

  it('answers 409 to the same key with another body, and to a cart already checked out', async () => {
    const c = await cart([{ productId: o.pan, quantity: 4 }]);
    const key = newId();
    expect((await checkout(c, checkoutBody(), key)).statusCode).toBe(201);
    const other = await checkout(c, checkoutBody({ window: 'pm' }), key);
    expect(other.statusCode).toBe(409);
    expect(json(other)).toMatchObject({ code: 'orders/idempotency-mismatch' });
    const again = await checkout(c, checkoutBody(), newId());
    expect(again.statusCode).toBe(409);
    expect(json(again)).toMatchObject({ code: 'orders/cart-checked-out' });
    // The cart is closed.
    const read = await o.t.call({ method: 'GET', url: `/api/carts/${c.id}`, headers: { 'x-session-id': c.session } });
    expect(read.statusCode).toBe(404);
  });
});

describe('numbers', () => {
  it('gives 20 concurrent orders 20 distinct consecutive numbers', async () => {
    const carts = await Promise.all(Array.from({ length: 20 }, () => cart([{ productId: o.pan, quantity: 4 }])));
    const results = await Promise.all(carts.map((c) => checkout(c)));
    expect(results.map((r) => r.statusCode)).toEqual(Array(20).fill(201));
    const numbers = results.map((r) => orderOf(r).number).sort((a, b) => a - b);
    expect(new Set(numbers).size).toBe(20);
    expect(numbers[19]! - numbers[0]!).toBe(19);
  });

  it('numbers each company on its own', async () => {
    const other = await postOrder(
      o.otherAdmin.token,
      {
        contact: { name: 'Otro', phone: '1' },
        items: [{ productId: o.foreign, quantity: 1 }],
        fulfillment: 'pickup',
        dueDate: WEDNESDAY,
        paymentMethod: 'cash',
      },
      o.otherCompanyId,
    );
    expect(other.statusCode, other.body).toBe(201);
    expect(orderOf(other).number).toBe(1001);
  });
});

describe('delivery days and windows', () => {
  const days = async (query = '') => {
    const res = await o.t.call({ method: 'GET', url: `/api/companies/${o.companyId}/delivery-days${query}` });
    expect(res.statusCode, res.body).toBe(200);
    return json<{ data: OfferedDay[] }>(res).data;
  };

  it('offers delivery weekdays with the windows past the lead time, for anyone', async () => {
    const list = await days('?days=7');
    // Monday 10:00 with 12 h of lead time: Monday is gone, Tuesday from 07:00 (21 h away), no Sunday.
    expect(list.map((d) => d.date)).toEqual([TUESDAY, WEDNESDAY, '2026-11-26', '2026-11-27', '2026-11-28']);
    expect(list[0]!.windows.map((w) => w.id)).toEqual(['am', 'pm', 'uno']);
    expect(list[0]!.windows[2]).toMatchObject({ capacity: 1 });
    expect((await o.t.call({ method: 'GET', url: '/api/companies/nope/delivery-days' })).statusCode).toBe(404);
    expect(
      (await o.t.call({ method: 'GET', url: `/api/companies/${o.companyId}/delivery-days?days=0` })).statusCode,
    ).toBe(400);
  });

  it('measures the lead time across midnight in America/Bogota (injected clock)', async () => {
    try {
      // 23:30 Monday in Bogotá (04:30 Tuesday UTC): Tuesday 07:00 is 7.5 h away, Tuesday 14:00 is 14.5 h.
      o.t.clock.set('2026-11-24T04:30:00.000Z');
      const list = await days('?days=2');
      expect(list[0]).toMatchObject({ date: TUESDAY, dueDate: '2026-11-24T05:00:00.000Z' });
      expect(list[0]!.windows.map((w) => w.id)).toEqual(['pm', 'uno']);
      const c = await cart([{ productId: o.pan, quantity: 4 }]);
      const early = await checkout(c, checkoutBody({ dueDate: TUESDAY, window: 'am' }));
      expect(early.statusCode).toBe(422);
      expect(json(early)).toMatchObject({ code: 'orders/day-unavailable' });
      const later = await checkout(c, checkoutBody({ dueDate: TUESDAY, window: 'pm' }));
      expect(later.statusCode, later.body).toBe(201);
      // Monday is over in Bogotá although it was Monday a moment ago: staff cannot order for a past day.
      o.t.clock.set('2026-11-24T05:30:00.000Z');
      const past = await o.t.call({
        method: 'POST',
        url: `/api/companies/${o.companyId}/orders`,
        // A token of this moment (the one made at 10:00 has expired by the test's clock).
        token: await o.t.keys.sign({ sub: o.staff.uid }, { now: o.t.clock.now() }),
        payload: {
          contact: { name: 'X', phone: '1' },
          items: [{ productId: o.pan, quantity: 1 }],
          fulfillment: 'pickup',
          dueDate: '2026-11-23',
          window: 'pm',
          paymentMethod: 'cash',
        },
      });
      expect(past.statusCode).toBe(422);
      expect(json(past)).toMatchObject({ code: 'orders/day-unavailable', message: 'This day has already passed' });
    } finally {
      o.t.clock.set(MONDAY_10AM);
    }
  });

  it('gives the last place of a window to one of two concurrent checkouts', async () => {
    const day = '2026-11-27';
    const [c1, c2] = await Promise.all([
      cart([{ productId: o.pan, quantity: 4 }]),
      cart([{ productId: o.pan, quantity: 4 }]),
    ]);
    const body = checkoutBody({ dueDate: day, window: 'uno' });
    const results = await Promise.all([checkout(c1, body), checkout(c2, body)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 422]);
    const refused = results.find((r) => r.statusCode === 422)!;
    expect(json(refused)).toMatchObject({ code: 'orders/window-full' });
    const list = await days(`?from=${day}&days=1`);
    expect(list[0]!.windows.find((w) => w.id === 'uno')).toMatchObject({ remaining: 0 });
  });

  it('lets staff pass the lead time and a full window, recorded in history, but not a closed day', async () => {
    const full = '2026-11-28';
    await webOrder(4, { dueDate: full, window: 'uno' });
    const order = await staffOrder({ dueDate: full, window: 'uno' });
    expect(order.history.map((h) => h.note).filter(Boolean)).toEqual(['capacity']);
    const soon = await staffOrder({ dueDate: '2026-11-23', window: 'pm' });
    expect(soon.history.find((h) => h.note)).toMatchObject({
      field: 'dueDate',
      note: 'lead-time',
      by: { uid: o.staff.uid },
    });
    const sunday = await postOrder(o.staff.token, {
      contact: { name: 'X', phone: '1' },
      items: [{ productId: o.pan, quantity: 1 }],
      fulfillment: 'delivery',
      address: ADDRESS,
      dueDate: '2026-11-29',
      window: 'am',
      paymentMethod: 'cash',
    });
    expect(sunday.statusCode).toBe(422);
  });
});

describe('guest link', () => {
  it('reaches the order only with the token checkout returned', async () => {
    const order = await webOrder(4);
    const res = await o.t.call({ method: 'GET', url: `/api/orders/link/${order.accessToken}` });
    expect(res.statusCode).toBe(200);
    expect(json<{ data: Order }>(res).data).toMatchObject({ number: order.number, status: 'pending' });
    expect(json<{ data: Order }>(res).data).not.toHaveProperty('history');
    expect((await o.t.call({ method: 'GET', url: `/api/orders/link/${order.id}` })).statusCode).toBe(404);
    expect((await o.t.call({ method: 'GET', url: `/api/orders/link/${order.id}.forged` })).statusCode).toBe(404);
    // Not by number or id on the resource either.
    expect((await get(order.id)).statusCode).toBe(401);
    expect((await get(order.id, o.customer)).statusCode).toBe(404);
  });
});

/**
 * The map pin of an address: the checkout and staff order entry take `lat`/`lng` or leave both
 * empty; the server refuses coordinates out of range and half a pin, at checkout, on staff orders and
 * on a customer's saved addresses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '@hornada/domain';
import { json } from '../helpers/app';
import { ADDRESS, ordersCalls, setupOrdersApp, type OrdersApp } from '../helpers/orders';

let o: OrdersApp;
const { cart, checkout, checkoutBody, postOrder, staffOrder } = ordersCalls(() => o);

const PIN = { lat: 4.627812, lng: -74.071234 };

const pathsOf = (body: string) => (JSON.parse(body) as { details?: { path: string }[] }).details?.map((d) => d.path);

beforeAll(async () => {
  o = await setupOrdersApp();
});
afterAll(async () => {
  await o?.t.close();
});

describe('the map pin', () => {
  it('is kept at checkout, or left empty', async () => {
    const pinned = await checkout(
      await cart([{ productId: o.pan, quantity: 4 }]),
      checkoutBody({ address: { ...ADDRESS, ...PIN } }),
    );
    expect(pinned.statusCode, pinned.body).toBe(201);
    expect(json<{ data: Order }>(pinned).data.address).toMatchObject(PIN);
    const plain = await checkout(await cart([{ productId: o.pan, quantity: 4 }]), checkoutBody());
    expect(plain.statusCode, plain.body).toBe(201);
    expect(json<{ data: Order }>(plain).data.address).toMatchObject({ lat: null, lng: null });
  });

  it('is refused out of range, or as half a pin, at checkout', async () => {
    const bad: [Record<string, unknown>, string][] = [
      [{ lat: 90.5, lng: -74 }, 'address.lat'],
      [{ lat: -91, lng: -74 }, 'address.lat'],
      [{ lat: 4.6, lng: 181 }, 'address.lng'],
      [{ lat: 4.6, lng: -180.01 }, 'address.lng'],
      [{ lat: 4.6 }, 'address.lng'],
      [{ lng: -74.07 }, 'address.lng'],
      [{ lat: '4.6', lng: '-74' }, 'address.lat'],
    ];
    for (const [pin, path] of bad) {
      const res = await checkout(
        await cart([{ productId: o.pan, quantity: 4 }]),
        checkoutBody({ address: { ...ADDRESS, ...pin } }),
      );
      expect(res.statusCode, `${JSON.stringify(pin)}: ${res.body}`).toBe(400);
      expect(pathsOf(res.body)).toContain(path);
    }
  });

  it('is taken and checked on staff orders too, and on a customer’s saved addresses', async () => {
    const order = await staffOrder({ address: { ...ADDRESS, ...PIN } });
    expect(order.address).toMatchObject(PIN);
    const bad = await postOrder(o.staff.token, {
      contact: { name: 'Ana', phone: '300 123 4567' },
      items: [{ productId: o.pan, quantity: 2 }],
      fulfillment: 'delivery',
      address: { ...ADDRESS, lat: 100, lng: -74 },
      dueDate: '2026-11-25',
      window: 'am',
      paymentMethod: 'cash',
    });
    expect(bad.statusCode, bad.body).toBe(400);
    expect(pathsOf(bad.body)).toContain('address.lat');

    const saved = await o.t.call({
      method: 'PATCH',
      url: '/api/me',
      token: o.customer.token,
      payload: { addresses: [{ ...ADDRESS, ...PIN }] },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const half = await o.t.call({
      method: 'PATCH',
      url: '/api/me',
      token: o.customer.token,
      payload: { addresses: [{ ...ADDRESS, lat: 4.6 }] },
    });
    expect(half.statusCode, half.body).toBe(400);
  });
});

/**
 * A shopper's cart after an order (issue "Second bakery"): once an order is placed the customer's cart is
 * empty whatever the payment method (an online order unpaid at the gateway too); "Pedir de nuevo" puts one
 * of their orders into their cart, one line a product, never doubled, and says what it did; nobody reorders
 * another's order nor fills another's cart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReorderAnswer } from '@hornada/domain';
import { newId } from '../../src/lib/ids';
import { json, type TestUser } from '../helpers/app';
import { newSession, type OrdersApp } from '../helpers/orders';
import { paymentsCalls, setupPaymentsApp } from '../helpers/payments';

let o: OrdersApp;
const { cart, checkout, checkoutBody } = paymentsCalls(() => o);

beforeAll(async () => {
  o = await setupPaymentsApp();
});
afterAll(async () => {
  await o?.t.close();
});

const mine = async (user: TestUser) => {
  const res = await o.t.call({ method: 'GET', url: '/api/carts/mine', token: user.token });
  expect(res.statusCode, res.body).toBe(200);
  return json<{ data: { id: string; items: { productId: string; quantity: number }[] } | null }>(res).data;
};

/** A customer's order of `items`, placed from a cart of theirs; returns its id. */
async function orderOf(user: TestUser, items: { productId: string; quantity: number }[], method = 'cash') {
  const c = await cart(items, undefined, user.token);
  const res = await checkout(c, checkoutBody({ paymentMethod: method }), newId(), user.token);
  expect(res.statusCode, res.body).toBe(201);
  return json<{ data: { id: string } }>(res).data.id;
}

const reorder = (user: TestUser | null, body: Record<string, unknown>, session = newSession()) =>
  o.t.call({
    method: 'POST',
    url: '/api/carts/reorder',
    headers: { 'x-session-id': session },
    token: user?.token,
    payload: body,
  });

describe('the cart after an order', () => {
  it('is empty once an online order is placed, unpaid at the gateway, though another device kept a cart', async () => {
    // Another device's cart of hers (the same lines), then this one, ordered online and never paid.
    await cart([{ productId: o.pan, quantity: 4 }], undefined, o.customer.token);
    // The tests' clock stands still: a second later, so this cart is her latest (a tie is ordered by id).
    o.t.clock.advance(1000);
    const c = await cart([{ productId: o.pan, quantity: 4 }], undefined, o.customer.token);
    expect(await mine(o.customer)).toMatchObject({ id: c.id });
    const res = await checkout(c, checkoutBody({ paymentMethod: 'online' }), newId(), o.customer.token);
    expect(res.statusCode, res.body).toBe(201);
    expect(json<{ data: { paymentStatus: string } }>(res).data.paymentStatus).toBe('pending');
    // Back from the gateway (or never back): no open cart brings the ordered lines back.
    expect(await mine(o.customer)).toBeNull();
    const read = await o.t.call({ method: 'GET', url: `/api/carts/${c.id}`, token: o.customer.token });
    expect(read.statusCode).toBe(404);
  });

  it('is empty after a cash order too, and another customer’s carts are untouched', async () => {
    const theirs = await cart([{ productId: o.galleta, quantity: 2 }], undefined, o.otherCustomer.token);
    await orderOf(o.customer, [{ productId: o.pan, quantity: 8 }]);
    expect(await mine(o.customer)).toBeNull();
    expect(await mine(o.otherCustomer)).toMatchObject({ id: theirs.id });
  });
});

describe('Pedir de nuevo', () => {
  it('merges an order into her cart: one line a product, the larger quantity, never doubled', async () => {
    const orderId = await orderOf(o.customer, [
      { productId: o.pan, quantity: 8 },
      { productId: o.torta, quantity: 1 },
    ]);
    // Her cart already holds pan (fewer) and galletas.
    const c = await cart(
      [
        { productId: o.pan, quantity: 3 },
        { productId: o.galleta, quantity: 20 },
      ],
      undefined,
      o.customer.token,
    );
    const first = await reorder(o.customer, { orderId, cartId: c.id });
    expect(first.statusCode, first.body).toBe(200);
    const answer = json<{ data: ReorderAnswer }>(first).data;
    expect(answer).toMatchObject({
      added: ['Torta de chocolate'],
      merged: ['Pan campesino'],
      skipped: [],
      full: [],
    });
    expect(answer.cart.id).toBe(c.id);
    const lines = answer.cart.items.map(({ productId, quantity }) => ({ productId, quantity }));
    expect(lines).toEqual([
      { productId: o.pan, quantity: 8 },
      { productId: o.galleta, quantity: 20 },
      { productId: o.torta, quantity: 1 },
    ]);
    expect(answer.cart.subtotal).toBe(8 * 2500 + 20 * 1005 + 42_000);
    // Again: the same cart, nothing doubled.
    const again = json<{ data: ReorderAnswer }>(await reorder(o.customer, { orderId, cartId: c.id })).data;
    expect(again.cart.items.map(({ productId, quantity }) => ({ productId, quantity }))).toEqual(lines);
    expect(again).toMatchObject({ added: [], merged: ['Pan campesino', 'Torta de chocolate'] });
  });

  it('makes her a new cart when she has none, leaving out and naming what is no longer sold', async () => {
    const orderId = await orderOf(o.customer, [
      { productId: o.pan, quantity: 8 },
      { productId: o.galleta, quantity: 2 },
    ]);
    await o.t.call({
      method: 'PATCH',
      url: `/api/companies/${o.companyId}/products/${o.galleta}`,
      token: o.admin.token,
      payload: { active: false },
    });
    try {
      const res = await reorder(o.customer, { orderId, cartId: null });
      expect(res.statusCode, res.body).toBe(200);
      const answer = json<{ data: ReorderAnswer }>(res).data;
      expect(answer).toMatchObject({ added: ['Pan campesino'], skipped: ['Galleta de avena'] });
      expect(answer.cart.customerId).toBe(o.customer.uid);
      expect(await mine(o.customer)).toMatchObject({ id: answer.cart.id, items: [{ productId: o.pan, quantity: 8 }] });
    } finally {
      await o.t.call({
        method: 'PATCH',
        url: `/api/companies/${o.companyId}/products/${o.galleta}`,
        token: o.admin.token,
        payload: { active: true },
      });
    }
  });

  it('refuses a guest, another customer’s order or cart (404), and an order with nothing on sale (422)', async () => {
    const orderId = await orderOf(o.customer, [{ productId: o.pan, quantity: 8 }]);
    expect((await reorder(null, { orderId, cartId: null })).statusCode).toBe(401);
    const stranger = await reorder(o.otherCustomer, { orderId, cartId: null });
    expect(stranger.statusCode, stranger.body).toBe(404);
    const theirCart = await cart([{ productId: o.pan, quantity: 1 }], undefined, o.otherCustomer.token);
    const intoTheirs = await reorder(o.customer, { orderId, cartId: theirCart.id });
    expect(intoTheirs.statusCode, intoTheirs.body).toBe(404);
    // A guest's session cart is not hers to fill either, unless she holds it.
    const guest = await cart([{ productId: o.pan, quantity: 1 }]);
    expect((await reorder(o.customer, { orderId, cartId: guest.id })).statusCode).toBe(404);
    expect((await reorder(o.customer, { orderId, cartId: guest.id }, guest.session)).statusCode).toBe(200);

    const inactive = await orderOf(o.customer, [{ productId: o.torta, quantity: 1 }]);
    await o.t.call({
      method: 'PATCH',
      url: `/api/companies/${o.companyId}/products/${o.torta}`,
      token: o.admin.token,
      payload: { active: false },
    });
    try {
      const res = await reorder(o.customer, { orderId: inactive, cartId: null });
      expect(res.statusCode, res.body).toBe(422);
      expect(json<{ code: string }>(res).code).toBe('cart/reorder-unavailable');
    } finally {
      await o.t.call({
        method: 'PATCH',
        url: `/api/companies/${o.companyId}/products/${o.torta}`,
        token: o.admin.token,
        payload: { active: true },
      });
    }
  });
});

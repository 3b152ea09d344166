/**
 * What the customer's order history (/customer/history) relies on (docs/design.md §5, §6): a company_customer reads
 * its own orders, newest first, follows their status on the change stream and may cancel one while pending
 * (with a reason). Another customer of the same bakery learns nothing of them: not on the stream, not by
 * id, not in a list, and cannot move them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '@hornada/domain';
import { json } from '../helpers/app';
import { openStream, type SseStream } from '../helpers/sse';
import { ordersCalls, setupOrdersApp, type OrdersApp } from '../helpers/orders';

let o: OrdersApp;
const { api, cart, checkout, checkoutBody, staffOrder, patch, get } = ordersCalls(() => o);
const streams: SseStream[] = [];

beforeAll(async () => {
  o = await setupOrdersApp({ listen: true });
});
afterAll(async () => {
  for (const s of streams) s.close();
  await o?.t.close();
});

async function stream(token: string, companyId = o.companyId) {
  const s = await openStream(`${o.t.baseUrl}/api/companies/${companyId}/changes?resources=orders`, {
    authorization: `Bearer ${token}`,
  });
  streams.push(s);
  return s;
}

/** Every change a stream received for one order. */
const changesOf = (s: SseStream, id: string) =>
  s.events.flatMap((e) => e.json?.changes ?? []).filter((c) => c.doc.id === id);

/** A web order placed through the checkout by the signed-in customer. */
async function customerOrder(token: string, quantity = 4) {
  const c = await cart([{ productId: o.pan, quantity }], undefined, token);
  const res = await checkout(c, checkoutBody(), undefined, token);
  expect(res.statusCode, res.body).toBe(201);
  return json<{ data: Order }>(res).data;
}

describe("a customer's order history", () => {
  it('lists only its own orders, newest first', async () => {
    const first = await customerOrder(o.customer.token);
    o.t.clock.advance(60_000);
    const second = await customerOrder(o.customer.token, 5);
    const theirs = await customerOrder(o.otherCustomer.token);
    const res = await o.t.call({ method: 'GET', url: `${api()}?sort=-createdAt&per_page=10`, token: o.customer.token });
    expect(res.statusCode, res.body).toBe(200);
    const ids = json<{ data: Order[] }>(res).data.map((r) => r.id);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
    expect(ids).not.toContain(theirs.id);
    expect(ids.indexOf(first.id)).toBeGreaterThanOrEqual(0);
  });

  it("follows its own order's status live; another customer of the bakery receives nothing of it", async () => {
    const mine = await stream(o.customer.token);
    const other = await stream(o.otherCustomer.token);
    const order = await customerOrder(o.customer.token);

    expect((await patch(order.id, o.staff, { status: 'confirmed' })).statusCode).toBe(200);
    await mine.waitFor(
      () => changesOf(mine, order.id).some((c) => c.type === 'modified' && c.doc.status === 'confirmed'),
      3000,
    );

    // The other customer's own order, changed last: once its change has arrived, every earlier one has too.
    const sentinel = await customerOrder(o.otherCustomer.token);
    await other.waitFor(() => changesOf(other, sentinel.id).length > 0, 3000);
    // At most the feed's "take it out if you show it" (visibility.ts): the id alone, never a field of the order.
    for (const c of changesOf(other, order.id)) {
      expect(c.type).toBe('removed');
      expect(Object.keys(c.doc).sort()).toEqual(['companyId', 'id']);
    }
  });

  it('cancels its own pending order with a reason; never another customer’s, nor one that has moved on', async () => {
    const order = await customerOrder(o.customer.token);

    // Another customer of the same bakery: not by id, not by moving it.
    expect((await get(order.id, o.otherCustomer)).statusCode).toBe(404);
    const attack = await patch(order.id, o.otherCustomer, { status: 'cancelled', cancelReason: 'No es mío' });
    expect(attack.statusCode).toBe(404);
    expect(json<{ data: Order }>(await get(order.id, o.staff)).data.status).toBe('pending');

    // Its owner: a reason is required.
    expect((await patch(order.id, o.customer, { status: 'cancelled' })).statusCode).toBe(400);
    const cancelled = await patch(order.id, o.customer, { status: 'cancelled', cancelReason: 'Ya no lo necesito' });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(json<{ data: Order }>(cancelled).data).toMatchObject({
      status: 'cancelled',
      cancelReason: 'Ya no lo necesito',
    });

    // Confirmed meanwhile: a 422 the history shows.
    const confirmed = await customerOrder(o.customer.token);
    await patch(confirmed.id, o.staff, { status: 'confirmed' });
    const late = await patch(confirmed.id, o.customer, { status: 'cancelled', cancelReason: 'Tarde' });
    expect(late.statusCode).toBe(422);
    expect(json<{ code: string }>(late).code).toBe('orders/invalid-transition');

    // A customer writes nothing else of its order.
    const notes = await patch(order.id, o.customer, { notes: 'Cambiar dirección' });
    expect(notes.statusCode).toBeGreaterThanOrEqual(400);
  });

  it("a customer cannot follow another bakery's orders", async () => {
    const res = await stream(o.customer.token, o.otherCompanyId);
    expect([403, 404]).toContain(res.status);
  });

  it('a staff order made for the customer is in its history too', async () => {
    const order = await staffOrder({ customerId: o.customer.uid });
    const res = await o.t.call({
      method: 'GET',
      url: `${api()}?sort=-createdAt&per_page=100`,
      token: o.customer.token,
    });
    expect(json<{ data: Order[] }>(res).data.map((r) => r.id)).toContain(order.id);
  });
});

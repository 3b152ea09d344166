/**
 * "No recibió": a stop that failed goes back to the office with the driver's reason. Only the
 * driver assigned to it makes the move (out_for_delivery → ready), only from out_for_delivery, with a
 * reason; the order stays assigned and is flagged in the day's deliveries; history keeps the reason; a
 * replay of the phone's queued action writes once; the next trip out clears the flag.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryDay, Order } from '@hornada/domain';
import { newId } from '../../src/lib/ids';
import { json, type TestUser } from '../helpers/app';
import { ordersCalls, setupOrdersApp, WEDNESDAY, type OrdersApp } from '../helpers/orders';

let o: OrdersApp;
const { staffOrder, patch, get, api } = ordersCalls(() => o);

const NOBODY = { reason: 'nobody_home' };

/** A delivery of the driver's, walked by the office to ready and by the driver out for delivery. */
async function outForDelivery(extra: Record<string, unknown> = {}): Promise<string> {
  const order = await staffOrder({ deliveryAssistantId: o.driver.uid, ...extra });
  for (const status of ['confirmed', 'in_production', 'ready']) {
    const res = await patch(order.id, o.admin, { status });
    expect(res.statusCode, res.body).toBe(200);
  }
  const out = await patch(order.id, o.driver, { status: 'out_for_delivery' });
  expect(out.statusCode, out.body).toBe(200);
  return order.id;
}

/** The driver's PATCH as the phone's queue sends it: with its Idempotency-Key. */
const queued = (id: string, user: TestUser, payload: Record<string, unknown>, key: string) =>
  o.t.call({ method: 'PATCH', url: api(`/${id}`), token: user.token, headers: { 'idempotency-key': key }, payload });

const orderOf = async (id: string) => json<{ data: Order }>(await get(id, o.admin)).data;

beforeAll(async () => {
  o = await setupOrdersApp();
});
afterAll(async () => {
  await o?.t.close();
});

describe('the driver’s "No recibió"', () => {
  it('needs a listed reason, and for "other" what happened in at most 200 characters', async () => {
    const id = await outForDelivery();
    const cases: [Record<string, unknown>, string][] = [
      [{ status: 'ready' }, 'notReceived'],
      [{ status: 'ready', notReceived: { reason: 'lost' } }, 'notReceived.reason'],
      [{ status: 'ready', notReceived: { reason: 'other' } }, 'notReceived.details'],
      [{ status: 'ready', notReceived: { reason: 'other', details: 'x'.repeat(201) } }, 'notReceived.details'],
    ];
    for (const [payload, path] of cases) {
      const res = await patch(id, o.driver, payload);
      expect(res.statusCode, res.body).toBe(400);
      const body = json<{ details: { path: string }[] }>(res);
      expect(body.details.map((d) => d.path)).toContain(path);
    }
    expect((await orderOf(id)).status).toBe('out_for_delivery');
  });

  it('sends the order back to the office, flagged and still assigned, the reason in history; a replay writes once', async () => {
    const id = await outForDelivery();
    const key = newId();
    const body = { status: 'ready', notReceived: { reason: 'other', details: 'Portería cerrada, no contestan' } };
    const first = await queued(id, o.driver, body, key);
    expect(first.statusCode, first.body).toBe(200);
    const order = json<{ data: Order }>(first).data;
    expect(order).toMatchObject({
      status: 'ready',
      deliveryAssistantId: o.driver.uid,
      notReceived: { reason: 'other', details: 'Portería cerrada, no contestan' },
    });
    const last = order.history.slice(-2);
    expect(last.map((h) => [h.field, h.from, h.to, h.by.uid])).toEqual([
      ['notReceived', null, body.notReceived, o.driver.uid],
      ['status', 'out_for_delivery', 'ready', o.driver.uid],
    ]);

    // The phone lost the answer and sends the same action again: the first answer, nothing written twice.
    const replay = await queued(id, o.driver, body, key);
    expect(replay.statusCode, replay.body).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect((await orderOf(id)).history).toHaveLength(order.history.length);
    // The same key with another body is refused, never applied.
    const other = await queued(id, o.driver, { status: 'ready', notReceived: NOBODY }, key);
    expect(other.statusCode, other.body).toBe(409);

    // The office's day shows the stop flagged in the driver's route.
    const res = await o.t.call({
      method: 'GET',
      url: `/api/companies/${o.companyId}/deliveries?date=${WEDNESDAY}`,
      token: o.staff.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    const day = json<{ data: DeliveryDay }>(res).data;
    const stop = day.routes.find((r) => r.driver?.id === o.driver.uid)!.stops.find((s) => s.id === id)!;
    expect(stop).toMatchObject({ status: 'ready', notReceived: body.notReceived });

    // The office may not write the driver's word, nor erase it by hand.
    const edit = await patch(id, o.admin, { notReceived: NOBODY });
    expect(edit.statusCode, edit.body).toBe(422);
    expect(json<{ code: string }>(edit).code).toBe('orders/field-outside-move');

    // It sets off again (the office reassigned it, or the driver tries again): the flag goes, history keeps it.
    const again = await patch(id, o.driver, { status: 'out_for_delivery' });
    expect(again.statusCode, again.body).toBe(200);
    const after = json<{ data: Order }>(again).data;
    expect(after.notReceived).toBeNull();
    expect(after.history.filter((h) => h.field === 'notReceived').map((h) => h.to)).toEqual([body.notReceived, null]);
  });

  it('is the driver’s move from out_for_delivery only: 422 from any other status', async () => {
    const ready = await staffOrder({ deliveryAssistantId: o.driver.uid });
    for (const status of ['confirmed', 'in_production', 'ready']) {
      expect((await patch(ready.id, o.admin, { status })).statusCode).toBe(200);
    }
    const fromReady = await patch(ready.id, o.driver, { status: 'ready', notReceived: NOBODY });
    expect(fromReady.statusCode, fromReady.body).toBe(422);
    expect(json<{ code: string }>(fromReady).code).toBe('orders/field-outside-move');

    const delivered = await outForDelivery();
    expect((await patch(delivered, o.driver, { status: 'delivered', cashCollected: 0 })).statusCode).toBe(200);
    const fromDelivered = await patch(delivered, o.driver, { status: 'ready', notReceived: NOBODY });
    expect(fromDelivered.statusCode, fromDelivered.body).toBe(422);
    expect(json<{ code: string }>(fromDelivered).code).toBe('orders/invalid-transition');

    // The reason rides no other move, and never without one.
    const out = await outForDelivery();
    const alone = await patch(out, o.driver, { notReceived: NOBODY });
    expect(alone.statusCode, alone.body).toBe(422);
    const withDelivery = await patch(out, o.driver, { status: 'delivered', cashCollected: 0, notReceived: NOBODY });
    expect(withDelivery.statusCode, withDelivery.body).toBe(422);
    expect((await orderOf(out)).status).toBe('out_for_delivery');
  });

  it('is nobody else’s: the office 422, a customer and production 403, other drivers and companies 404', async () => {
    const id = await outForDelivery({ customerId: o.customer.uid });
    const office = await patch(id, o.admin, { status: 'ready' });
    expect(office.statusCode, office.body).toBe(422);
    expect(json<{ code: string }>(office).code).toBe('orders/invalid-transition');
    const staff = await patch(id, o.staff, { status: 'ready', notReceived: NOBODY });
    expect(staff.statusCode, staff.body).toBe(422);

    // The order's own customer: the field is not theirs to write, nor the move theirs to make.
    const customer = await patch(id, o.customer, { status: 'ready', notReceived: NOBODY });
    expect(customer.statusCode, customer.body).toBe(403);
    const customerMove = await patch(id, o.customer, { status: 'ready' });
    expect(customerMove.statusCode, customerMove.body).toBe(422);
    expect((await patch(id, o.production, { status: 'ready', notReceived: NOBODY })).statusCode).toBe(403);

    // Another driver of the bakery, and a driver of another bakery, with or without a key: not there for them.
    expect((await patch(id, o.otherDriver, { status: 'ready', notReceived: NOBODY })).statusCode).toBe(404);
    const foreignDriver = await o.t.user('delivery_assistant', o.otherCompanyId);
    expect((await patch(id, foreignDriver, { status: 'ready', notReceived: NOBODY })).statusCode).toBe(404);
    const keyed = await queued(id, foreignDriver, { status: 'ready', notReceived: NOBODY }, newId());
    expect(keyed.statusCode, keyed.body).toBe(404);

    const order = await orderOf(id);
    expect(order.status).toBe('out_for_delivery');
    expect(order.notReceived).toBeNull();
  });
});

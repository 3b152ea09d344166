/**
 * Receivables ("Marcar como pagado"): open balances by who owes them, aged in the
 * bakery's time zone from the due day plus a B2B client's terms; who may read them; and several orders
 * marked paid in one transaction, all or nothing, safe when the same selection is submitted twice.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Order, UnpaidParty } from '@hornada/domain';
import { json, type TestUser } from '../helpers/app';
import { MONDAY_10AM, ordersCalls, setupOrdersApp, WEDNESDAY, type OrdersApp } from '../helpers/orders';

let o: OrdersApp;
const { webOrder, staffOrder, patch, get, b2bClient } = ordersCalls(() => o);

beforeAll(async () => {
  o = await setupOrdersApp();
});
afterAll(async () => {
  await o?.t.close();
});
beforeEach(() => {
  o.t.clock.set(MONDAY_10AM);
});

let phones = 0;
/** A guest's web order with a phone of its own (a guest is grouped by phone). */
const guestOrder = (name = 'Ana Pérez') =>
  webOrder(4, { contact: { name, phone: `310 555 ${String(1000 + ++phones)}` } });

/** The report as `user` reads it now (a token signed at the test clock's time: the clock moves months). */
const report = async (user: TestUser | undefined, companyId = o.companyId) =>
  o.t.call({
    method: 'GET',
    url: `/api/companies/${companyId}/reports/unpaid`,
    token: user && (await o.t.keys.sign({ sub: user.uid }, { now: o.t.clock.now() })),
  });

async function parties(user: TestUser = o.admin): Promise<UnpaidParty[]> {
  const res = await report(user);
  expect(res.statusCode, res.body).toBe(200);
  return json<{ data: UnpaidParty[] }>(res).data;
}

/** The party an order is owed under, or undefined when it is not owed. */
async function partyOf(orderId: string, user?: TestUser) {
  return (await parties(user)).find((p) => p.unpaidOrders.some((u) => u.id === orderId));
}

const markPaid = (orderIds: string[], user: TestUser = o.staff, companyId = o.companyId, key?: string) =>
  o.t.call({
    method: 'POST',
    url: `/api/companies/${companyId}/orders/mark-paid`,
    token: user.token,
    payload: { orderIds },
    ...(key ? { headers: { 'idempotency-key': key } } : {}),
  });

const orderOf = async (id: string) => json<{ data: Order }>(await get(id, o.admin)).data;

describe('GET …/reports/unpaid', () => {
  it("ages an order by days past its due day in the bakery's zone, the boundaries in the lower bucket", async () => {
    const order = await guestOrder();
    const seen = async (at: string) => {
      o.t.clock.set(at);
      const u = (await partyOf(order.id))!.unpaidOrders.find((x) => x.id === order.id)!;
      return [u.ageDays, u.bucket];
    };
    // Due Wednesday 25 Nov. Bogotá is UTC-5: 04:00 UTC on 26 Dec is still the 25th there.
    expect(await seen('2026-12-26T04:00:00.000Z')).toEqual([30, '0-30']);
    expect(await seen('2026-12-26T05:00:00.000Z')).toEqual([31, '31-60']);
    expect(await seen('2027-01-24T15:00:00.000Z')).toEqual([60, '31-60']);
    expect(await seen('2027-01-25T15:00:00.000Z')).toEqual([61, '61-90']);
    expect(await seen('2027-02-23T15:00:00.000Z')).toEqual([90, '61-90']);
    expect(await seen('2027-02-24T15:00:00.000Z')).toEqual([91, '90+']);
    // Not due yet: negative age, with the current ones.
    expect(await seen(MONDAY_10AM)).toEqual([-2, '0-30']);
  });

  it('groups a guest by phone, a customer by account, sums balance and buckets, oldest due day first', async () => {
    const a = await guestOrder('Ana');
    const b = await webOrder(5, { contact: { name: 'Ana P.', phone: `+57 310 555 ${1000 + phones}` } });
    const mine = await staffOrder({ customerId: o.customer.uid, dueDate: '2026-11-26' });
    const again = await staffOrder({ customerId: o.customer.uid, dueDate: WEDNESDAY });
    o.t.clock.set('2026-12-27T15:00:00.000Z'); // 32 days after the 25th, 31 after the 26th

    const guest = (await partyOf(a.id))!;
    expect(guest.party).toMatchObject({ type: 'guest', phone: expect.any(String) });
    expect(guest.unpaidOrders.map((u) => u.id).sort()).toEqual([a.id, b.id].sort());
    expect(guest.orders).toBe(2);
    expect(guest.balance).toBe(a.total + b.total);
    expect(guest.creditLimit).toBeNull();

    const customer = (await partyOf(mine.id))!;
    expect(customer.party).toMatchObject({ type: 'customer', id: o.customer.uid });
    expect(customer.oldestDueDate).toBe(WEDNESDAY);
    expect(customer.unpaidOrders.map((u) => u.number)).toEqual([again.number, mine.number]);
    expect(customer.buckets).toEqual({ '0-30': 0, '31-60': mine.total + again.total, '61-90': 0, '90+': 0 });
  });

  it("shifts a B2B client's ages by its payment terms and shows its credit limit and how much is used", async () => {
    const client = await b2bClient({ businessName: 'Café La Esquina', paymentTermsDays: 30, creditLimit: 500_000 });
    const first = await staffOrder({ b2bClientId: client, paymentMethod: 'credit' });
    const second = await staffOrder({ b2bClientId: client, paymentMethod: 'credit', dueDate: '2026-11-27' });
    o.t.clock.set('2027-01-25T15:00:00.000Z'); // 61 days after the 25th, 59 after the 27th

    const party = (await partyOf(first.id))!;
    expect(party.party).toEqual({ type: 'b2bClient', id: client, name: 'Café La Esquina', phone: expect.any(String) });
    expect(party.paymentTermsDays).toBe(30);
    expect(party.unpaidOrders.map((u) => [u.id, u.ageDays, u.bucket])).toEqual([
      [first.id, 31, '31-60'],
      [second.id, 29, '0-30'],
    ]);
    expect(party.buckets).toEqual({ '0-30': second.total, '31-60': first.total, '61-90': 0, '90+': 0 });
    expect([party.creditLimit, party.creditUsed, party.balance]).toEqual([
      500_000,
      first.total + second.total,
      first.total + second.total,
    ]);
  });

  it('leaves out cancelled, paid and refunded orders', async () => {
    const cancelled = await guestOrder();
    const paid = await guestOrder();
    const refunded = await guestOrder();
    const open = await guestOrder();
    expect((await patch(cancelled.id, o.staff, { status: 'cancelled', cancelReason: 'No contestan' })).statusCode).toBe(
      200,
    );
    expect((await patch(paid.id, o.staff, { paymentStatus: 'paid' })).statusCode).toBe(200);
    expect((await patch(refunded.id, o.staff, { paymentStatus: 'paid' })).statusCode).toBe(200);
    const res = await patch(refunded.id, o.admin, { paymentStatus: 'refunded', refundReason: 'Producto dañado' });
    expect(res.statusCode, res.body).toBe(200);
    expect(json<{ data: Order }>(res).data.refundReason).toBe('Producto dañado');

    const owed = (await parties()).flatMap((p) => p.unpaidOrders.map((u) => u.id));
    expect(owed).toContain(open.id);
    expect(owed).not.toContain(cancelled.id);
    expect(owed).not.toContain(paid.id);
    expect(owed).not.toContain(refunded.id);
  });

  it('is for the back office: staff reads it, another bakery gets a 404, customers and drivers a 403, a guest a 401', async () => {
    expect((await report(o.staff)).statusCode).toBe(200);
    expect((await report(o.otherAdmin)).statusCode).toBe(404);
    expect((await report(o.customer)).statusCode).toBe(403);
    expect((await report(o.driver)).statusCode).toBe(403);
    expect((await report(o.production)).statusCode).toBe(403);
    expect((await report(undefined)).statusCode).toBe(401);
  });
});

describe('POST …/orders/mark-paid', () => {
  it('marks every order paid as the user, one history entry each, and the balance is gone', async () => {
    const a = await guestOrder();
    const b = await staffOrder({ customerId: o.otherCustomer.uid });
    const res = await markPaid([a.id, b.id]);
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res)).toEqual({ data: { updated: 2 } });
    for (const id of [a.id, b.id]) {
      const order = await orderOf(id);
      expect(order.paymentStatus).toBe('paid');
      const entries = order.history.filter((h) => h.field === 'paymentStatus');
      expect(entries).toEqual([
        expect.objectContaining({ from: 'unpaid', to: 'paid', by: expect.objectContaining({ uid: o.staff.uid }) }),
      ]);
      expect(await partyOf(id)).toBeUndefined();
    }
  });

  it('writes nothing when one order is not unpaid any more, naming it (409)', async () => {
    const open = await guestOrder();
    const paid = await guestOrder();
    expect((await patch(paid.id, o.staff, { paymentStatus: 'paid' })).statusCode).toBe(200);
    const res = await markPaid([open.id, paid.id]);
    expect(res.statusCode, res.body).toBe(409);
    expect(json(res)).toMatchObject({
      code: 'orders/not-unpaid',
      message: expect.stringContaining(`#${paid.number}`),
    });
    expect((await orderOf(open.id)).paymentStatus).toBe('unpaid');
  });

  it("writes nothing for another bakery's order (404) nor a cancelled one (422, the PATCH's rule)", async () => {
    const open = await guestOrder();
    const cancelled = await guestOrder();
    await patch(cancelled.id, o.staff, { status: 'cancelled', cancelReason: 'Duplicado' });
    const res = await markPaid([open.id, cancelled.id]);
    expect(res.statusCode, res.body).toBe(422);
    expect(json(res)).toMatchObject({
      code: 'orders/cancelled-not-payable',
      message: expect.stringContaining(`#${cancelled.number}`),
      details: [{ path: 'orderIds.1' }],
    });
    // Another bakery's admin does not reach this one's orders at all.
    expect((await markPaid([open.id], o.otherAdmin)).statusCode).toBe(404);
    expect((await markPaid([open.id], o.otherAdmin, o.otherCompanyId)).statusCode).toBe(404);
    expect((await orderOf(open.id)).paymentStatus).toBe('unpaid');
  });

  it('one rule for a cancelled order: neither PATCH nor mark-paid marks it paid, both a 422', async () => {
    for (const user of [o.staff, o.admin]) {
      const cancelled = await guestOrder();
      const gone = await patch(cancelled.id, user, { status: 'cancelled', cancelReason: 'El cliente no contesta' });
      expect(gone.statusCode, gone.body).toBe(200);
      const byPatch = await patch(cancelled.id, user, { paymentStatus: 'paid' });
      expect(byPatch.statusCode, byPatch.body).toBe(422);
      expect(json(byPatch)).toMatchObject({
        code: 'orders/cancelled-not-payable',
        details: [{ path: 'paymentStatus' }],
      });
      const byMarkPaid = await markPaid([cancelled.id], user);
      expect(byMarkPaid.statusCode, byMarkPaid.body).toBe(422);
      expect(json(byMarkPaid)).toMatchObject({ code: 'orders/cancelled-not-payable' });
      const after = await orderOf(cancelled.id);
      expect(after.paymentStatus).toBe('unpaid');
      expect(after.history.filter((h) => h.field === 'paymentStatus')).toEqual([]);
    }
    // Cancelling and paying in one write is the same thing.
    const both = await guestOrder();
    const res = await patch(both.id, o.staff, {
      status: 'cancelled',
      cancelReason: 'Duplicado',
      paymentStatus: 'paid',
    });
    expect(res.statusCode, res.body).toBe(422);
    expect(json(res)).toMatchObject({ code: 'orders/cancelled-not-payable' });
    expect(await orderOf(both.id)).toMatchObject({ status: 'pending', paymentStatus: 'unpaid' });
  });

  it('pays once when the same selection is submitted twice at once', async () => {
    const a = await guestOrder();
    const b = await guestOrder();
    const answers = await Promise.all([markPaid([a.id, b.id]), markPaid([b.id, a.id], o.admin)]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    for (const id of [a.id, b.id]) {
      const order = await orderOf(id);
      expect(order.history.filter((h) => h.field === 'paymentStatus' && h.to === 'paid')).toHaveLength(1);
    }
  });

  it('answers a submission repeated under one Idempotency-Key with the first answer, changing nothing more', async () => {
    const a = await guestOrder();
    const b = await guestOrder();
    const key = `marcar-${a.id}`;
    // Three copies, two of them at once (a double click and a retry after a lost answer).
    const first = await markPaid([a.id, b.id], o.staff, o.companyId, key);
    const again = await Promise.all([
      markPaid([a.id, b.id], o.staff, o.companyId, key),
      markPaid([a.id, b.id], o.staff, o.companyId, key),
    ]);
    for (const res of [first, ...again]) {
      expect(res.statusCode, res.body).toBe(200);
      expect(json(res)).toEqual({ data: { updated: 2 } });
    }
    expect(again.map((r) => r.headers['idempotent-replayed'])).toEqual(['true', 'true']);
    for (const id of [a.id, b.id]) {
      const order = await orderOf(id);
      expect(order.history.filter((h) => h.field === 'paymentStatus' && h.to === 'paid')).toHaveLength(1);
    }
    // The same key with other orders is refused; another user's key is its own.
    const c = await guestOrder();
    const mismatch = await markPaid([c.id], o.staff, o.companyId, key);
    expect(mismatch.statusCode).toBe(409);
    expect(json(mismatch)).toMatchObject({ code: 'idempotency_mismatch' });
    expect((await orderOf(c.id)).paymentStatus).toBe('unpaid');
    expect((await markPaid([c.id], o.admin, o.companyId, key)).statusCode).toBe(200);
    // A malformed key is a 400.
    const bad = await markPaid([c.id], o.staff, o.companyId, ' ');
    expect(bad.statusCode).toBe(400);
  });

  it('refuses customers, drivers and guests, an empty or oversized list, and changes nothing', async () => {
    const a = await guestOrder();
    expect((await markPaid([a.id], o.customer)).statusCode).toBe(403);
    expect((await markPaid([a.id], o.driver)).statusCode).toBe(403);
    const anonymous = await o.t.call({
      method: 'POST',
      url: `/api/companies/${o.companyId}/orders/mark-paid`,
      payload: { orderIds: [a.id] },
    });
    expect(anonymous.statusCode).toBe(401);
    expect((await markPaid([])).statusCode).toBe(400);
    expect((await markPaid(Array.from({ length: 201 }, (_, i) => `${a.id}${i}`))).statusCode).toBe(400);
    expect((await orderOf(a.id)).paymentStatus).toBe('unpaid');
  });
});

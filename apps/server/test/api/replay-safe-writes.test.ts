/**
 * Replay-safe writes: a resource write with an `Idempotency-Key` answers a replay by the same
 * caller with the first result and writes nothing (also when the copies arrive together); the key with
 * another body is a 409; another caller's key is its own. `If-Match` with a record's ETag (its
 * `updatedAt`) is checked under the row lock: a stale one is a 412 that changes nothing. Staff order
 * creation honours the key (hole 8: a double submit made two orders).
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '@hornada/domain';
import { changeLog, idempotencyKeys, orders } from '../../src/db/schema';
import { pruneIdempotencyKeys } from '../../src/resources/idempotency';
import { json, type TestUser } from '../helpers/app';
import {
  ADDRESS,
  CONTACT,
  MONDAY_10AM,
  ordersCalls,
  setupOrdersApp,
  WEDNESDAY,
  type OrdersApp,
} from '../helpers/orders';

let o: OrdersApp;
const { api, staffOrder, get } = ordersCalls(() => o);
const orderOf = (res: { body: string }) => json<{ data: Order }>(res).data;
let keys = 0;
const newKey = () => `clave-${Date.now()}-${++keys}`;

beforeAll(async () => {
  o = await setupOrdersApp();
});
afterAll(async () => {
  await o?.t.close();
});

const write = (
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  user: TestUser,
  payload: Record<string, unknown> | undefined,
  headers: Record<string, string> = {},
) => o.t.call({ method, url, token: user.token, payload, headers });

const staffBody = (extra: Record<string, unknown> = {}) => ({
  contact: CONTACT,
  items: [{ productId: o.pan, quantity: 2 }],
  fulfillment: 'delivery',
  address: ADDRESS,
  dueDate: WEDNESDAY,
  window: 'am',
  paymentMethod: 'cash',
  ...extra,
});

async function ordersInDb() {
  return o.t.db.select({ id: orders.id }).from(orders).where(eq(orders.companyId, o.companyId));
}

const confirmations = (order: Order) => order.history.filter((h) => h.field === 'status' && h.to === 'confirmed');

/** How many committed writes touched a record: its rows in the change log (one a transaction). */
async function writesTo(id: string) {
  const rows = await o.t.db
    .select({ position: changeLog.position })
    .from(changeLog)
    .where(sql`${changeLog.changes} @> ${JSON.stringify([{ doc: { id } }])}::jsonb`);
  return rows.length;
}

describe('Idempotency-Key on staff order creation (hole 8)', () => {
  it('makes one order of a double submit, answering both with it', async () => {
    const before = (await ordersInDb()).length;
    const key = newKey();
    const first = await write('POST', api(), o.staff, staffBody(), { 'idempotency-key': key });
    const second = await write('POST', api(), o.staff, staffBody(), { 'idempotency-key': key });
    expect(first.statusCode, first.body).toBe(201);
    expect(second.statusCode, second.body).toBe(201);
    expect(second.body).toBe(first.body);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect((await ordersInDb()).length).toBe(before + 1);
  });

  it('makes one order of two submits at once', async () => {
    const before = (await ordersInDb()).length;
    const key = newKey();
    const answers = await Promise.all(
      [1, 2, 3].map(() => write('POST', api(), o.staff, staffBody(), { 'idempotency-key': key })),
    );
    for (const res of answers) expect(res.statusCode, res.body).toBe(201);
    expect(new Set(answers.map((r) => orderOf(r).id)).size).toBe(1);
    expect((await ordersInDb()).length).toBe(before + 1);
  });

  it('refuses the key with another body (409) and a malformed key (400)', async () => {
    const key = newKey();
    expect((await write('POST', api(), o.staff, staffBody(), { 'idempotency-key': key })).statusCode).toBe(201);
    const other = await write('POST', api(), o.staff, staffBody({ notes: 'Otra' }), { 'idempotency-key': key });
    expect(other.statusCode, other.body).toBe(409);
    expect(json(other).code).toBe('idempotency_mismatch');
    const short = await write('POST', api(), o.staff, staffBody(), { 'idempotency-key': 'corta' });
    expect(short.statusCode, short.body).toBe(400);
  });
});

describe('Idempotency-Key on PATCH', () => {
  it('changes the order once when the same PATCH is sent three times', async () => {
    const order = await staffOrder();
    const key = newKey();
    const answers = [];
    for (let i = 0; i < 3; i++) {
      answers.push(
        await write('PATCH', api(`/${order.id}`), o.admin, { status: 'confirmed' }, { 'idempotency-key': key }),
      );
    }
    for (const res of answers) expect(res.statusCode, res.body).toBe(200);
    expect(answers[1]!.body).toBe(answers[0]!.body);
    expect(answers[2]!.body).toBe(answers[0]!.body);
    const now = orderOf(await get(order.id, o.admin));
    expect(now.status).toBe('confirmed');
    expect(confirmations(now)).toHaveLength(1);
    // Written once: the version is the first answer's, and the change log has the create and one change.
    expect(now.updatedAt).toBe(orderOf(answers[0]!).updatedAt);
    expect(await writesTo(order.id)).toBe(2);
  });

  it('changes the order once when the three copies arrive together', async () => {
    const order = await staffOrder();
    const key = newKey();
    const answers = await Promise.all(
      [1, 2, 3].map(() =>
        write('PATCH', api(`/${order.id}`), o.admin, { status: 'confirmed' }, { 'idempotency-key': key }),
      ),
    );
    for (const res of answers) expect(res.statusCode, res.body).toBe(200);
    expect(new Set(answers.map((r) => r.body)).size).toBe(1);
    const now = orderOf(await get(order.id, o.admin));
    expect(confirmations(now)).toHaveLength(1);
    expect(now.updatedAt).toBe(orderOf(answers[0]!).updatedAt);
    expect(await writesTo(order.id)).toBe(2);
  });

  it("never serves one user's answer to another user's replay of the same key", async () => {
    const order = await staffOrder();
    const key = newKey();
    const admin = await write(
      'PATCH',
      api(`/${order.id}`),
      o.admin,
      { status: 'confirmed' },
      { 'idempotency-key': key },
    );
    expect(admin.statusCode, admin.body).toBe(200);
    // A driver the order is not assigned to, and a customer it is not for, do not see it at all.
    for (const user of [o.driver, o.customer]) {
      const res = await write('PATCH', api(`/${order.id}`), user, { status: 'confirmed' }, { 'idempotency-key': key });
      expect(res.statusCode, res.body).toBe(404);
    }
    // The staff member's copy runs as its own write (a no-op move, but a write of its own).
    const staff = await write(
      'PATCH',
      api(`/${order.id}`),
      o.staff,
      { status: 'confirmed' },
      { 'idempotency-key': key },
    );
    expect(staff.statusCode, staff.body).toBe(200);
    expect(staff.headers['idempotent-replayed']).toBeUndefined();
    expect(orderOf(staff).updatedAt).not.toBe(orderOf(admin).updatedAt);
    expect(await writesTo(order.id)).toBe(3);
    expect(confirmations(orderOf(await get(order.id, o.admin)))).toHaveLength(1);
  });

  it('replays a bulk update and a DELETE without writing again', async () => {
    const [a, b] = [await staffOrder(), await staffOrder()];
    const key = newKey();
    const body = {
      updates: [
        { id: a.id, data: { notes: 'Lote' } },
        { id: b.id, data: { notes: 'Lote' } },
      ],
    };
    const first = await write('PATCH', api('/bulk-update'), o.admin, body, { 'idempotency-key': key });
    const again = await write('PATCH', api('/bulk-update'), o.admin, body, { 'idempotency-key': key });
    expect(first.statusCode, first.body).toBe(200);
    expect(again.body).toBe(first.body);
    expect([await writesTo(a.id), await writesTo(b.id)]).toEqual([2, 2]);
    const delKey = newKey();
    const del = await write('DELETE', api(`/${a.id}`), o.admin, undefined, { 'idempotency-key': delKey });
    const delAgain = await write('DELETE', api(`/${a.id}`), o.admin, undefined, { 'idempotency-key': delKey });
    expect(del.statusCode, del.body).toBe(200);
    expect(delAgain.statusCode, delAgain.body).toBe(200);
    expect(delAgain.body).toBe(del.body);
    expect(await writesTo(a.id)).toBe(3);
  });

  it('forgets a key after 24 hours, and the prune deletes it', async () => {
    const order = await staffOrder();
    const key = newKey();
    const first = await write('PATCH', api(`/${order.id}`), o.admin, { notes: 'Primera' }, { 'idempotency-key': key });
    expect(first.statusCode, first.body).toBe(200);
    // The key was kept a day and a second ago (the tokens of these tests would expire if the clock moved).
    const dayAgo = new Date(Date.parse(MONDAY_10AM) - 24 * 3600_000 - 1000);
    const age = () => o.t.db.update(idempotencyKeys).set({ createdAt: dayAgo }).where(eq(idempotencyKeys.key, key));
    await age();
    const later = await write('PATCH', api(`/${order.id}`), o.admin, { notes: 'Después' }, { 'idempotency-key': key });
    expect(later.statusCode, later.body).toBe(200);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect(orderOf(later).notes).toBe('Después');
    await age();
    expect(await pruneIdempotencyKeys(o.t.db, o.t.clock)).toBeGreaterThan(0);
    expect(await o.t.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key))).toHaveLength(0);
  });
});

describe('If-Match preconditions', () => {
  it('gives one record an ETag of its version, and every write the new one', async () => {
    const order = await staffOrder();
    const read = await get(order.id, o.admin);
    expect(read.headers.etag).toBe(`"${orderOf(read).updatedAt as unknown as string}"`);
    const res = await write(
      'PATCH',
      api(`/${order.id}`),
      o.admin,
      { notes: 'Con versión' },
      {
        'if-match': String(read.headers.etag),
      },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers.etag).toBe(`"${orderOf(res).updatedAt as unknown as string}"`);
    // The clock of these tests stands still: the version moves on anyway.
    expect(res.headers.etag).not.toBe(read.headers.etag);
  });

  it('refuses a PATCH with a stale If-Match (412) and changes nothing', async () => {
    const order = await staffOrder({ deliveryAssistantId: o.driver.uid });
    const seen = String((await get(order.id, o.admin)).headers.etag);
    // Staff moves the order on after the phone read it.
    expect((await write('PATCH', api(`/${order.id}`), o.admin, { status: 'confirmed' })).statusCode).toBe(200);
    const before = await get(order.id, o.admin);
    const stale = await write(
      'PATCH',
      api(`/${order.id}`),
      o.admin,
      { status: 'cancelled', cancelReason: 'Viejo' },
      {
        'if-match': seen,
      },
    );
    expect(stale.statusCode, stale.body).toBe(412);
    expect(json(stale).code).toBe('precondition_failed');
    const after = await get(order.id, o.admin);
    expect(after.body).toBe(before.body);
    expect(orderOf(after).status).toBe('confirmed');
  });

  it('refuses a stale PUT and DELETE too, and lets the current version and * through', async () => {
    const created = await write('POST', `/api/companies/${o.companyId}/brands`, o.admin, { name: 'Marca' });
    expect(created.statusCode, created.body).toBe(201);
    const id = json<{ data: { id: string } }>(created).data.id;
    const url = `/api/companies/${o.companyId}/brands/${id}`;
    const v1 = String(created.headers.etag);
    const put = await write('PUT', url, o.admin, { name: 'Marca dos' }, { 'if-match': v1 });
    expect(put.statusCode, put.body).toBe(200);
    expect((await write('PUT', url, o.admin, { name: 'Marca tres' }, { 'if-match': v1 })).statusCode).toBe(412);
    expect((await write('DELETE', url, o.admin, undefined, { 'if-match': v1 })).statusCode).toBe(412);
    expect((await write('PATCH', url, o.admin, { name: 'Marca W' }, { 'if-match': `W/${v1}` })).statusCode).toBe(412);
    const star = await write('PATCH', url, o.admin, { name: 'Marca cuatro' }, { 'if-match': '*' });
    expect(star.statusCode, star.body).toBe(200);
    const del = await write('DELETE', url, o.admin, undefined, { 'if-match': `"x", ${String(star.headers.etag)}` });
    expect(del.statusCode, del.body).toBe(200);
  });

  it('answers 404, not 412, for a record the caller may not see', async () => {
    const order = await staffOrder();
    const res = await write('PATCH', api(`/${order.id}`), o.driver, { status: 'confirmed' }, { 'if-match': '"viejo"' });
    expect(res.statusCode, res.body).toBe(404);
  });
});

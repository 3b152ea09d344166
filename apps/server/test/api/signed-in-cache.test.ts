/**
 * The signed-in read cache and the sessions behind it: a signed-in list is kept per
 * company, resource and view and stays exact; a user's write is seen by its next read on this instance
 * and on another one, even when that one never hears the notification; a session ended on one instance is
 * refused at once on both; another company's or another role's view never comes from the cache; a list
 * built from other resources follows them; a remembered token still expires.
 */
import type { FastifyInstance, InjectOptions } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANGES_CHANNEL } from '../../src/db/change-log';
import { RESOURCES } from '../../src/resources/definitions';
import { PublicCache } from '../../src/resources/public-cache';
import { json, type TestUser } from '../helpers/app';
import { MONDAY_10AM, ordersCalls, setupOrdersApp, type OrdersApp } from '../helpers/orders';

let o: OrdersApp;
const { staffOrder } = ordersCalls(() => o);

beforeAll(async () => {
  o = await setupOrdersApp({ listen: true });
});
afterAll(async () => {
  await o?.t.close();
});

const api = (resource: string, query = '') => `/api/companies/${o.companyId}/${resource}${query}`;
const call = (app: FastifyInstance, user: TestUser, opts: InjectOptions) =>
  app.inject({ ...opts, headers: { ...opts.headers, authorization: `Bearer ${user.token}` } });
const list = async (app: FastifyInstance, user: TestUser, url: string) => {
  const res = await call(app, user, { method: 'GET', url });
  expect(res.statusCode, res.body).toBe(200);
  return { body: res.body, data: json<{ data: Record<string, unknown>[] }>(res).data, headers: res.headers };
};
const patch = async (app: FastifyInstance, user: TestUser, url: string, payload: Record<string, unknown>) => {
  const res = await call(app, user, { method: 'PATCH', url, payload });
  expect(res.statusCode, res.body).toBe(200);
};
const priceOf = (rows: Record<string, unknown>[], id: string) => rows.find((r) => r.id === id)?.price;

/**
 * The instance stops hearing the change feed's notifications, as if they were late: only its own read of
 * the log's head (LiveFeed.caughtUp) can bring its caches current.
 */
async function deafen(app: FastifyInstance) {
  const client = (app.ctx.live as unknown as { listener: { client: pg.Client } }).listener.client;
  await client.query(`UNLISTEN ${CHANGES_CHANNEL}`);
}

describe('signed-in read cache', () => {
  it('answers a signed-in list from the cache with the same bytes, and the next read after a write shows it', async () => {
    const url = api('products', '?sort=name&per_page=50');
    const first = await list(o.t.app, o.admin, url);
    expect(o.t.app.ctx.signedInCache.get(o.companyId, 'products', `company\u0000list:${url}`)).toBeDefined();
    const second = await list(o.t.app, o.admin, url);
    expect(second.body).toBe(first.body);
    // The same headers but the date and the read limit's count.
    const { date: _d1, 'x-ratelimit-remaining': _r1, ...h1 } = first.headers;
    const { date: _d2, 'x-ratelimit-remaining': _r2, ...h2 } = second.headers;
    expect(h2).toEqual(h1);
    // The admin sees what a guest does not: the inactive product.
    expect(first.data.map((p) => p.id)).toContain(o.inactive);

    await patch(o.t.app, o.admin, api(`products/${o.pan}`), { price: 2600 });
    expect(priceOf((await list(o.t.app, o.admin, url)).data, o.pan)).toBe(2600);
  });

  it('shows a write made on another instance to the next read here, though the notification never comes', async () => {
    const other = await o.t.secondInstance();
    try {
      await deafen(other.app);
      const url = api('products', '?sort=price');
      const before = await list(other.app, o.admin, url);
      await list(other.app, o.admin, url);
      expect(other.app.ctx.signedInCache.get(o.companyId, 'products', `company\u0000list:${url}`)).toBeDefined();
      const price = Number(priceOf(before.data, o.galleta)) + 7;
      await patch(o.t.app, o.admin, api(`products/${o.galleta}`), { price });
      expect(priceOf((await list(other.app, o.admin, url)).data, o.galleta)).toBe(price);
      // And back, written on the other instance, read here.
      await patch(other.app, o.admin, api(`products/${o.galleta}`), { price: price - 7 });
      expect(priceOf((await list(o.t.app, o.admin, url)).data, o.galleta)).toBe(price - 7);
      // Many reads at once share a few reads of the log's head, not one each.
      const asked = other.app.ctx.live.listenerStats.headQueries;
      const reads = await Promise.all(Array.from({ length: 60 }, () => list(other.app, o.admin, url)));
      expect(new Set(reads.map((r) => r.body)).size).toBe(1);
      expect(other.app.ctx.live.listenerStats.headQueries - asked).toBeLessThanOrEqual(10);
    } finally {
      await other.close();
    }
  });

  it('refuses an ended session, a disabled account and a changed role at once on both instances', async () => {
    const other = await o.t.secondInstance();
    try {
      await deafen(other.app);
      const leaver = await o.t.user('company_staff', o.companyId);
      const disabled = await o.t.user('company_staff', o.companyId);
      for (const app of [o.t.app, other.app]) {
        for (const u of [leaver, disabled])
          expect((await call(app, u, { method: 'GET', url: '/api/me' })).statusCode).toBe(200);
      }
      const ended = await call(o.t.app, leaver, { method: 'DELETE', url: '/api/me/sessions' });
      expect(ended.statusCode, ended.body).toBe(200);
      await patch(o.t.app, o.admin, api(`users/${disabled.uid}`), { disabled: true });
      for (const app of [other.app, o.t.app]) {
        const refused = await call(app, leaver, { method: 'GET', url: api('users') });
        expect(refused.statusCode).toBe(401);
        expect(json(refused)).toMatchObject({ code: 'auth/invalid-token', message: 'Session expired, sign in again' });
        const off = await call(app, disabled, { method: 'GET', url: api('users') });
        expect(off.statusCode).toBe(401);
      }

      // A role change: staff read customers only; promoted on one instance, the other shows it everything.
      const riser = await o.t.user('company_staff', o.companyId);
      const url = api('users', '?per_page=100');
      const asStaff = await list(other.app, riser, url);
      expect(asStaff.data.every((u) => u.role === 'company_customer')).toBe(true);
      await patch(o.t.app, o.admin, api(`users/${riser.uid}`), { role: 'company_admin' });
      const asAdmin = await list(other.app, riser, url);
      expect(asAdmin.data.map((u) => u.id)).toContain(o.admin.uid);
    } finally {
      await other.close();
    }
  });

  it("never serves another company's or another role's view from the cache", async () => {
    const mine = await staffOrder({ customerId: o.customer.uid });
    const driven = await staffOrder({ deliveryAssistantId: o.driver.uid });
    const plain = await staffOrder();
    const url = api('orders', '?per_page=100&sort=number');
    const ids = async (user: TestUser) => (await list(o.t.app, user, url)).data.map((r) => r.id);
    // The admin's view first, so that it is in the cache when the others ask for the same URL.
    expect(await ids(o.admin)).toEqual(expect.arrayContaining([mine.id, driven.id, plain.id]));
    expect(await ids(o.admin)).toEqual(expect.arrayContaining([mine.id, driven.id, plain.id]));
    expect(await ids(o.customer)).toEqual([mine.id]);
    expect(await ids(o.otherCustomer)).toEqual([]);
    expect(await ids(o.driver)).toEqual([driven.id]);
    expect(await ids(o.otherDriver)).toEqual([]);
    for (const url2 of [url, api('users'), api('products', '?sort=name&per_page=50')]) {
      const foreign = await call(o.t.app, o.otherAdmin, { method: 'GET', url: url2 });
      expect(foreign.statusCode, url2).toBe(url2.includes('/products') ? 200 : 404);
      // Products are public: another bakery's admin reads the public fields only.
      if (foreign.statusCode === 200) {
        expect(json<{ data: { id: string }[] }>(foreign).data.map((p) => p.id)).not.toContain(o.inactive);
      }
    }
    // Staff read customers only, after the admin's view of the same URL was cached.
    const users = api('users', '?per_page=100');
    expect((await list(o.t.app, o.admin, users)).data.some((u) => u.role === 'company_staff')).toBe(true);
    expect((await list(o.t.app, o.staff, users)).data.every((u) => u.role === 'company_customer')).toBe(true);
    // An order assigned to the driver later is in the driver's next read.
    await patch(o.t.app, o.admin, api(`orders/${plain.id}`), { deliveryAssistantId: o.driver.uid });
    expect(await ids(o.driver)).toEqual(expect.arrayContaining([driven.id, plain.id]));
  });

  it('drops a cached list built from other resources when one of them changes (a recipe costed from its ingredients)', async () => {
    const created = await call(o.t.app, o.admin, {
      method: 'POST',
      url: api('ingredients'),
      payload: { name: 'Harina', unit: 'kg', costPerUnit: 3000 },
    });
    expect(created.statusCode, created.body).toBe(201);
    const flour = json<{ data: { id: string } }>(created).data.id;
    const recipe = await call(o.t.app, o.admin, {
      method: 'POST',
      url: api('recipes'),
      payload: { name: 'Pan', yield: 10, productId: o.pan, items: [{ ingredientId: flour, quantity: 1 }] },
    });
    expect(recipe.statusCode, recipe.body).toBe(201);
    const url = api('recipes');
    expect((await list(o.t.app, o.admin, url)).data[0]!.costPerUnit).toBe(300);
    await patch(o.t.app, o.admin, api(`ingredients/${flour}`), { costPerUnit: 5000 });
    expect((await list(o.t.app, o.admin, url)).data[0]!.costPerUnit).toBe(500);

    // Every definition that presents its rows from other resources says which (the class, not the instance).
    for (const def of RESOURCES) if (def.present) expect(def.presentReads, def.name).toBeDefined();
  });

  it('reads the database when the change feed cannot show its caches current', async () => {
    const other = await o.t.secondInstance();
    try {
      const url = api('products', '?sort=-price');
      await list(other.app, o.admin, url);
      await other.app.ctx.live.stop();
      const price = 4321;
      await patch(o.t.app, o.admin, api(`products/${o.torta}`), { price });
      const kept = other.app.ctx.signedInCache.size;
      expect(priceOf((await list(other.app, o.admin, url)).data, o.torta)).toBe(price);
      expect(other.app.ctx.signedInCache.size).toBe(kept);
    } finally {
      await other.close();
    }
  });

  it('still expires a token it has verified before', async () => {
    const short = await o.t.user('company_staff', o.companyId);
    const token = await o.t.keys.sign({ sub: short.uid }, { now: o.t.clock.now(), expiresInSeconds: 60 });
    const user = { ...short, token };
    try {
      for (let i = 0; i < 2; i++)
        expect((await call(o.t.app, user, { method: 'GET', url: '/api/me' })).statusCode).toBe(200);
      o.t.clock.advance(60_000);
      const expired = await call(o.t.app, user, { method: 'GET', url: '/api/me' });
      expect(expired.statusCode).toBe(401);
      expect(json(expired)).toMatchObject({ code: 'auth/invalid-token' });
    } finally {
      o.t.clock.set(MONDAY_10AM);
    }
  });

  it('shares one computation among reads that miss together, never across a change', async () => {
    const cache = new PublicCache();
    let computed = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const produce = async () => {
      const n = ++computed;
      await gate;
      return `{"n":${n}}`;
    };
    const together = [cache.answer('c', 'orders', 'k', produce), cache.answer('c', 'orders', 'k', produce)];
    // A change lands while the first computation runs: a read after it computes anew.
    cache.invalidate('c', 'orders');
    const after = cache.answer('c', 'orders', 'k', produce);
    release();
    const [a, b] = await Promise.all(together);
    expect(computed).toBe(2);
    expect(a).toBe(b);
    expect(a?.body.toString()).toBe('{"n":1}');
    expect((await after).body.toString()).toBe('{"n":2}');
    // Only the answer begun after the change was kept.
    expect(cache.get('c', 'orders', 'k')?.body.toString()).toBe('{"n":2}');
  });
});

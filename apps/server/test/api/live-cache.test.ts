/**
 * The public cache: guests served from it (never a bearer, never a refused read), ETags and 304s, a
 * second instance kept exact, invalidation on a settings change, and its bound in bytes.
 */
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { products } from '../../src/db/schema';
import { PublicCache } from '../../src/resources/public-cache';
import { getCompany } from '../../src/resources/tenant';
import type { TestApp, TestUser } from '../helpers/app';
import { closeListeningApp, liveCalls, setupLiveApp } from '../helpers/live';
import { changeEvents, openStream } from '../helpers/sse';

let t: TestApp;
let companyId: string;
let admin: TestUser;
const { streams, api, post } = liveCalls(() => ({ t, companyId, admin }));

beforeAll(async () => {
  ({ t, companyId, admin } = await setupLiveApp());
});
// A test that fails half-way must not leave its streams to the next one.
afterEach(() => {
  for (const s of streams.splice(0)) s.close();
});
afterAll(() => closeListeningApp(t));

describe('public cache', () => {
  it('answers a guest from the cache, never someone with a bearer, and never caches a refused read', async () => {
    const co = await t.company('Atajo');
    const boss = await t.user('company_admin', co);
    const url = `/api/companies/${co}/products?sort=name`;
    // Wait until this instance has pumped these writes, so nothing of them is still on its way when
    // the reads below meet the cache.
    const watch = await openStream(`${t.baseUrl}/api/companies/${co}/changes?resources=products`, {
      authorization: `Bearer ${boss.token}`,
    });
    streams.push(watch);
    for (const [name, active] of [
      ['Visible', true],
      ['Oculto', false],
    ] as const) {
      const res = await t.call({
        method: 'POST',
        url: `/api/companies/${co}/products`,
        token: boss.token,
        payload: { name, price: 100, active },
      });
      expect(res.statusCode).toBe(201);
    }
    await watch.waitFor((e) => changeEvents(e).length >= 2);
    const names = (body: string) => (JSON.parse(body) as { data: { name: string }[] }).data.map((p) => p.name);
    const first = await t.call({ method: 'GET', url });
    expect(t.app.ctx.publicCache.get(co, 'products', `list:${url}`)).toBeTruthy();
    const second = await t.call({ method: 'GET', url });
    expect(names(first.body)).toEqual(['Visible']);
    expect(second.body).toBe(first.body);
    expect(second.headers.etag).toBe(first.headers.etag);
    // The same URL with a bearer goes the whole way: staff sees the inactive product too.
    const staffRead = await t.call({ method: 'GET', url, token: boss.token });
    expect(names(staffRead.body)).toEqual(['Oculto', 'Visible']);
    // A bad bearer is a 401 even where a guest's answer is cached.
    const forged = await t.call({ method: 'GET', url, headers: { authorization: 'Bearer nada' } });
    expect(forged.statusCode).toBe(401);
    // A refused read is never stored, so it is refused every time.
    for (let i = 0; i < 2; i++) {
      const bad = await t.call({ method: 'GET', url: `/api/companies/${co}/products?per_page=5000` });
      expect(bad.statusCode).toBe(400);
    }
  });

  it('serves ETags, answers 304, and sees a write right after its 2xx', async () => {
    const p = await post('products', { name: 'Cacheado', price: 500 });
    const url = `${api('products')}/${p.id}`;
    const first = await t.call({ method: 'GET', url });
    expect(first.statusCode).toBe(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^".+"$/);
    const again = await t.call({ method: 'GET', url, headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');

    const list = await t.call({ method: 'GET', url: `${api('products')}?search=cacheado` });
    expect(JSON.parse(list.body).data[0].price).toBe(500);
    await t.call({ method: 'PATCH', url, token: admin.token, payload: { price: 600 } });
    const after = await t.call({ method: 'GET', url, headers: { 'if-none-match': etag } });
    expect(after.statusCode).toBe(200);
    expect(JSON.parse(after.body).data.price).toBe(600);
    const listAfter = await t.call({ method: 'GET', url: `${api('products')}?search=cacheado` });
    expect(JSON.parse(listAfter.body).data[0].price).toBe(600);
  });

  it('keeps a second instance exact: its subscriber gets the change and its cache the new value', async () => {
    const other = await t.secondInstance();
    try {
      const p = await post('products', { name: 'Dos instancias', price: 700 });
      const url = `${other.baseUrl}${api('products')}/${p.id}`;
      expect(((await (await fetch(url)).json()) as { data: { price: number } }).data.price).toBe(700);
      const s = await openStream(`${other.baseUrl}${api('changes')}?resources=products`);
      streams.push(s);
      await t.call({ method: 'PATCH', url: api('products') + `/${p.id}`, token: admin.token, payload: { price: 750 } });
      await s.waitFor((e) => changeEvents(e).some((x) => x.json!.changes.some((c) => c.doc.price === 750)));
      expect(((await (await fetch(url)).json()) as { data: { price: number } }).data.price).toBe(750);
      s.close();
    } finally {
      await other.close();
    }
  });

  it('drops every public answer of a company when its settings change (time zone of date filters)', async () => {
    const p = await post('products', { name: 'Nocturno', price: 100 });
    // 22 Nov 22:00 in Bogotá, 23 Nov in UTC.
    await t.db
      .update(products)
      .set({ createdAt: new Date('2026-11-23T03:00:00.000Z') })
      .where(sql`id = ${p.id}`);
    const url = `${api('products')}?search=nocturno&date_field=createdAt&start_date=2026-11-22&end_date=2026-11-22`;
    const before = await t.call({ method: 'GET', url });
    expect(JSON.parse(before.body).total).toBe(1);
    const settingsUrl = api('settings');
    const utc = await t.call({ method: 'PATCH', url: settingsUrl, token: admin.token, payload: { timeZone: 'UTC' } });
    expect(utc.statusCode, utc.body).toBe(200);
    try {
      const after = await t.call({ method: 'GET', url });
      expect(JSON.parse(after.body).total).toBe(0);
    } finally {
      await t.call({ method: 'PATCH', url: settingsUrl, token: admin.token, payload: { timeZone: 'America/Bogota' } });
    }
    expect(JSON.parse((await t.call({ method: 'GET', url })).body).total).toBe(1);
  });

  it('does not keep a company time zone read that began before a settings commit', async () => {
    const other = await t.company('Zona horaria');
    const reading = getCompany(t.app.ctx, other);
    // A settings commit lands while the read is in flight.
    t.app.ctx.companies.forget(other);
    expect((await reading).id).toBe(other);
    expect(t.app.ctx.companies.get(other)).toBeUndefined();
    await getCompany(t.app.ctx, other);
    expect(t.app.ctx.companies.get(other)).toBeDefined();
  });

  it('bounds the public cache by bytes, least recently used out first', () => {
    const cache = new PublicCache(200_000);
    const body = 'x'.repeat(1000);
    const set = (key: string) => cache.set('c', 'products', key, body, cache.generation('c', 'products'));
    set('keep');
    // Anonymous clients varying `search`: memory stays within the bound.
    for (let i = 0; i < 2000; i++) {
      set(`search=${i}`);
      cache.get('c', 'products', 'keep');
    }
    expect(cache.bytes).toBeLessThanOrEqual(200_000);
    expect(cache.size).toBeGreaterThan(100);
    expect(cache.get('c', 'products', 'keep')?.body.toString()).toBe(body);
    expect(cache.get('c', 'products', 'search=0')).toBeUndefined();
    expect(cache.get('c', 'products', 'search=1999')).toBeDefined();
    // An answer larger than a quarter of the budget is served but not kept.
    cache.set('c', 'products', 'huge', 'y'.repeat(60_000), cache.generation('c', 'products'));
    expect(cache.get('c', 'products', 'huge')).toBeUndefined();
    // A read that began before a company-wide invalidation does not store.
    const generation = cache.generation('c', 'brands');
    cache.invalidateCompany('c');
    expect(cache.size).toBe(0);
    cache.set('c', 'brands', 'list', body, generation);
    expect(cache.get('c', 'brands', 'list')).toBeUndefined();
    expect(cache.bytes).toBe(0);
  });
});

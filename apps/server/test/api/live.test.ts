import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { products } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { setupTestApp, type TestApp, type TestUser } from '../helpers/app';
import { changeEvents, openStream, type SseStream } from '../helpers/sse';

let t: TestApp;
let companyId: string;
let admin: TestUser;
let staff: TestUser;
const streams: SseStream[] = [];

const api = (resource: string) => `/api/companies/${companyId}/${resource}`;
const changesUrl = (resources: string, extra = '') => `${t.baseUrl}${api('changes')}?resources=${resources}${extra}`;

async function open(resources: string, opts: { token?: string; lastEventId?: string } = {}) {
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.lastEventId) headers['last-event-id'] = opts.lastEventId;
  const s = await openStream(changesUrl(resources), headers);
  streams.push(s);
  return s;
}

async function post(resource: string, body: Record<string, unknown>, user = admin) {
  const res = await t.call({ method: 'POST', url: api(resource), token: user.token, payload: body });
  expect(res.statusCode, res.body).toBe(201);
  return (JSON.parse(res.body) as { data: { id: string } & Record<string, unknown> }).data;
}

const names = (s: SseStream) =>
  changeEvents(s.events).flatMap((e) => e.json!.changes.map((c) => `${c.type}:${String(c.doc.name ?? c.doc.id)}`));

beforeAll(async () => {
  t = await setupTestApp({ listen: true });
  companyId = await t.company('En vivo');
  admin = await t.user('company_admin', companyId);
  staff = await t.user('company_staff', companyId);
});
afterAll(async () => {
  for (const s of streams) s.close();
  await t?.close();
});

describe('change feed', () => {
  it('delivers a committed change to a subscriber', async () => {
    const s = await open('products', { token: staff.token });
    expect(s.status).toBe(200);
    await post('products', { name: 'Pan en vivo', price: 1000 });
    await s.waitFor((e) => names({ events: e } as SseStream).includes('added:Pan en vivo'));
    const ev = changeEvents(s.events)[0]!;
    expect(Number(ev.id)).toBeGreaterThan(0);
    expect(ev.json).toMatchObject({
      resource: 'products',
      changes: [{ type: 'added', doc: { companyId, price: 1000 } }],
    });
    s.close();
  });

  it('resumes with Last-Event-ID: exactly the missed changes, in order, no duplicates', async () => {
    const s = await open('brands', { token: staff.token });
    await post('brands', { name: 'M0' });
    await s.waitFor((e) => changeEvents(e).length === 1);
    const lastId = changeEvents(s.events)[0]!.id!;
    s.close();
    for (const n of ['M1', 'M2', 'M3']) await post('brands', { name: n });
    const r = await open('brands', { token: staff.token, lastEventId: lastId });
    await r.waitFor((e) => changeEvents(e).length >= 3);
    await post('brands', { name: 'M4' });
    await r.waitFor((e) => changeEvents(e).length >= 4);
    await new Promise((res) => setTimeout(res, 200));
    expect(names(r)).toEqual(['added:M1', 'added:M2', 'added:M3', 'added:M4']);
    const ids = changeEvents(r.events).map((e) => Number(e.id));
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    r.close();
  });

  it('replays two overlapping transactions that commit in the opposite order of their start', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let started!: () => void;
    const t1Started = new Promise<void>((r) => (started = r));
    const now = t.clock.now();
    const insert = (name: string) => ({
      id: newId(),
      companyId,
      name,
      price: 1,
      createdAt: now,
      updatedAt: now,
      images: [],
      allergens: [],
    });
    // T1 starts first and writes, but commits last.
    const t1 = t.app.ctx.write(companyId, async (tx, changes) => {
      const [row] = await tx.insert(products).values(insert('T1')).returning();
      changes.add('products', 'added', row!);
      started();
      await gate;
    });
    await t1Started;
    const s = await open('products', { token: staff.token });
    await t.app.ctx.write(companyId, async (tx, changes) => {
      const [row] = await tx.insert(products).values(insert('T2')).returning();
      changes.add('products', 'added', row!);
    });
    await s.waitFor((e) => names({ events: e } as SseStream).includes('added:T2'));
    const t2Id = changeEvents(s.events).at(-1)!.id!;
    s.close();
    release();
    await t1;
    const r = await open('products', { token: staff.token, lastEventId: t2Id });
    await r.waitFor((e) => names({ events: e } as SseStream).includes('added:T1'));
    expect(names(r)).toEqual(['added:T1']);
    r.close();
  });

  it('sends event: reset for an id older than the kept window', async () => {
    const s = await open('brands', { token: staff.token });
    await post('brands', { name: 'Vieja' });
    await s.waitFor((e) => changeEvents(e).length === 1);
    const oldId = changeEvents(s.events)[0]!.id!;
    s.close();
    t.clock.advance(8 * 86_400_000);
    try {
      // Id tokens last an hour: sign fresh ones at the new time.
      const later = { ...admin, token: await t.keys.sign({ sub: admin.uid }, { now: t.clock.now() }) };
      const staffToken = await t.keys.sign({ sub: staff.uid }, { now: t.clock.now() });
      await post('brands', { name: 'Nueva' }, later);
      await t.app.ctx.live.prune();
      const r = await open('brands', { token: staffToken, lastEventId: oldId });
      await r.waitFor((e) => e.some((x) => x.event === 'reset'));
      r.close();
      const bogus = await open('brands', { token: staffToken, lastEventId: '999999999' });
      await bogus.waitFor((e) => e.some((x) => x.event === 'reset'));
      bogus.close();
    } finally {
      t.clock.advance(-8 * 86_400_000);
    }
  });

  it('emits nothing for a rolled-back transaction', async () => {
    const s = await open('brands', { token: staff.token });
    await expect(
      t.app.ctx.write(companyId, async (_tx, changes) => {
        changes.add('brands', 'added', { id: 'ghost', name: 'Fantasma' });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    // A duplicate-key failure in the engine rolls back too.
    await post('brands', { name: 'Después' });
    await s.waitFor((e) => changeEvents(e).length >= 1);
    await new Promise((r) => setTimeout(r, 200));
    expect(names(s)).toEqual(['added:Después']);
    s.close();
  });

  it('shows the public only active products, never ingredients; staff sees everything', async () => {
    const anonIngredients = await openStream(changesUrl('ingredients'));
    expect(anonIngredients.status).toBe(401);
    const pub = await open('products,productCollections,brands');
    const priv = await open('products,ingredients', { token: staff.token });
    const visible = await post('products', { name: 'Visible', price: 100 });
    await post('products', { name: 'Oculto', price: 100, active: false });
    await post('ingredients', { name: 'Harina secreta', unit: 'kg' });
    const hide = await t.call({
      method: 'PATCH',
      url: `${api('products')}/${visible.id}`,
      token: admin.token,
      payload: { active: false },
    });
    expect(hide.statusCode).toBe(200);
    await priv.waitFor((e) => changeEvents(e).length >= 4);
    expect(names(priv)).toEqual(['added:Visible', 'added:Oculto', 'added:Harina secreta', 'modified:Visible']);
    await pub.waitFor((e) => changeEvents(e).length >= 2);
    await new Promise((r) => setTimeout(r, 200));
    const pubChanges = changeEvents(pub.events).flatMap((e) => e.json!.changes);
    expect(pubChanges.map((c) => c.type)).toEqual(['added', 'removed']);
    expect(pubChanges[1]!.doc).toEqual({ id: visible.id, companyId });
    expect(JSON.stringify(pub.events)).not.toContain('Oculto');
    expect(JSON.stringify(pub.events)).not.toContain('Harina');
    pub.close();
    priv.close();
  });

  it('validates the stream request like a read', async () => {
    expect((await openStream(changesUrl('nothing'))).status).toBe(400);
    expect((await openStream(`${t.baseUrl}${api('changes')}`)).status).toBe(400);
    const customer = await t.user('company_customer', companyId);
    expect((await openStream(changesUrl('recipes'), { authorization: `Bearer ${customer.token}` })).status).toBe(403);
    const other = await t.company('Otra');
    const otherAdmin = await t.user('company_admin', other);
    expect((await openStream(changesUrl('ingredients'), { authorization: `Bearer ${otherAdmin.token}` })).status).toBe(
      404,
    );
  });

  it('does not let a stalled subscriber slow the others, and cuts it loose', async () => {
    // A subscriber that never reads: a raw socket whose data is never consumed.
    const url = new URL(changesUrl('products'));
    const stalled = net.connect(Number(url.port), url.hostname);
    stalled.on('error', () => {});
    await new Promise<void>((r) => stalled.once('connect', () => r()));
    // Read the response head only (the subscription exists then), and nothing after it.
    const head = new Promise<string>((r) => stalled.once('data', (chunk: Buffer) => r(chunk.toString())));
    stalled.write(
      `GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${staff.token}\r\n\r\n`,
    );
    expect(await head).toMatch(/^HTTP\/1\.1 200/);
    stalled.pause();
    const live = await open('products', { token: staff.token });

    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push((await post('products', { name: `Grande ${i}`, price: 1 })).id);
    const big = 'x'.repeat(4900);
    const rounds = 60;
    const started = Date.now();
    for (let round = 0; round < rounds; round++) {
      const res = await t.call({
        method: 'PATCH',
        url: `${api('products')}/bulk-update`,
        token: admin.token,
        payload: { updates: ids.map((id) => ({ id, data: { description: `${round}${big}` } })) },
      });
      expect(res.statusCode).toBe(200);
    }
    await live.waitFor(
      (e) => changeEvents(e).filter((x) => x.json!.changes[0]!.type === 'modified').length >= rounds,
      10_000,
    );
    const elapsed = Date.now() - started;
    expect(elapsed).toBeLessThan(10_000);
    // About 6 MB went out; the stalled one passed the 1 MB bound and the server closed it: once it
    // reads again, it gets what was already on its way and then the end of the stream.
    let received = '';
    const cut = new Promise<void>((r) =>
      stalled.on('data', (chunk: Buffer) => {
        received = (received + chunk.toString()).slice(-100);
        if (received.includes('retry: 2000')) r();
      }),
    );
    stalled.resume();
    await Promise.race([cut, new Promise((_, reject) => setTimeout(() => reject(new Error('not cut loose')), 5000))]);
    stalled.destroy();
    live.close();
  });
});

describe('public cache', () => {
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
});

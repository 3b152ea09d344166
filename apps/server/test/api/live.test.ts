import net from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDb } from '../../src/db';
import { changeLog, products } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { LISTENER_APPLICATION_NAME, LiveFeed, type Subscriber } from '../../src/live/feed';
import { PublicCache } from '../../src/live/public-cache';
import { createVisibility } from '../../src/resources/visibility';
import { getCompany } from '../../src/resources/tenant';
import { RESOURCES } from '../../src/resources/definitions';
import { setupTestApp, type TestApp, type TestUser } from '../helpers/app';
import { changeEvents, openStream, tcpProxy, type SseStream } from '../helpers/sse';

let t: TestApp;
let companyId: string;
let admin: TestUser;
let staff: TestUser;
const streams: SseStream[] = [];

const api = (resource: string) => `/api/companies/${companyId}/${resource}`;
const changesUrl = (resources: string, extra = '') => `${t.baseUrl}${api('changes')}?resources=${resources}${extra}`;

async function open(resources: string, opts: { token?: string; lastEventId?: string; query?: string } = {}) {
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.lastEventId !== undefined) headers['last-event-id'] = opts.lastEventId;
  const s = await openStream(changesUrl(resources, opts.query), headers);
  streams.push(s);
  return s;
}

async function post(resource: string, body: Record<string, unknown>, user = admin) {
  const res = await t.call({ method: 'POST', url: api(resource), token: user.token, payload: body });
  expect(res.statusCode, res.body).toBe(201);
  return (JSON.parse(res.body) as { data: { id: string } & Record<string, unknown> }).data;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A product row written straight through ctx.write, for tests that shape the transaction. */
function insert(name: string) {
  const now = t.clock.now();
  return { id: newId(), companyId, name, price: 1, createdAt: now, updatedAt: now, images: [], allergens: [] };
}

async function eventually(pred: () => boolean | Promise<boolean>, ms = 2000, what = 'condition'): Promise<void> {
  const until = Date.now() + ms;
  while (!(await pred())) {
    if (Date.now() > until) throw new Error(`${what} not met within ${ms} ms`);
    await sleep(20);
  }
}

/** A subscriber held in memory, for tests that drive a LiveFeed directly. */
function memorySubscriber(resources: string[], uid: string | null = null) {
  const out: string[] = [];
  const sub: Subscriber & { out: string[]; text(): string } = {
    companyId,
    resources: new Set(resources),
    uid,
    cursor: 0,
    live: false,
    closed: false,
    out,
    text: () => out.join(''),
    write: (chunk) => void out.push(chunk),
    buffered: () => 0,
    end: () => {},
  };
  return sub;
}

const dbUrl = () => t.db.$client.options.connectionString ?? '';
const feedFor = (db = t.db, url = dbUrl(), options = {}) =>
  new LiveFeed(db, url, t.clock, createVisibility(t.app.ctx, RESOURCES), t.app.log, {
    applicationName: 'hornada-live-test',
    ...options,
  });

const names = (s: SseStream) =>
  changeEvents(s.events).flatMap((e) => e.json!.changes.map((c) => `${c.type}:${String(c.doc.name ?? c.doc.id)}`));

beforeAll(async () => {
  t = await setupTestApp({ listen: true });
  companyId = await t.company('En vivo');
  admin = await t.user('company_admin', companyId);
  staff = await t.user('company_staff', companyId);
});
// A test that fails half-way must not leave its streams to the next one.
afterEach(() => {
  for (const s of streams.splice(0)) s.close();
});
afterAll(async () => {
  await t?.close();
});

describe('change feed', () => {
  it('listens on exactly one connection per instance, however many subscribers', async () => {
    const subs = await Promise.all(Array.from({ length: 12 }, () => open('products,brands')));
    subs.push(await open('products', { token: staff.token }));
    expect(subs.every((s) => s.status === 200)).toBe(true);
    const { rows } = await t.db.$client.query<{ byName: number; listening: number }>(
      `SELECT count(*) FILTER (WHERE application_name = $1)::int AS "byName",
              count(*) FILTER (WHERE query ILIKE 'LISTEN %')::int AS listening
         FROM pg_stat_activity WHERE datname = current_database()`,
      [LISTENER_APPLICATION_NAME],
    );
    expect(rows[0]).toEqual({ byName: 1, listening: 1 });
    for (const s of subs) s.close();
  });

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

  it('replays two overlapping transactions that commit in the opposite order of their start (T1 logs last)', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let started!: () => void;
    const t1Started = new Promise<void>((r) => (started = r));
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

  it('keeps commit order when a transaction pauses after its log insert and a later one commits first', async () => {
    const write = (name: string, beforeCommit?: () => Promise<void>) =>
      t.app.ctx.write(
        companyId,
        async (tx, changes) => {
          const [row] = await tx.insert(products).values(insert(name)).returning();
          changes.add('products', 'added', row!);
        },
        { beforeCommit },
      );
    // Someone waiting for the log lock in this database (T2, held back by T1).
    const lockWaiters = async () => {
      const { rows } = await t.db.$client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_database d ON d.oid = l.database
          WHERE l.locktype = 'advisory' AND NOT l.granted AND d.datname = current_database()`,
      );
      return rows[0]!.n > 0;
    };
    const s = await open('products', { token: staff.token });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let paused!: () => void;
    const t1Paused = new Promise<void>((r) => (paused = r));
    // T1 has its log position and holds the transaction open before COMMIT.
    const t1 = write('Orden T1', async () => {
      paused();
      await gate;
    });
    await t1Paused;
    let t2Committed = false;
    const t2 = write('Orden T2').then(() => {
      t2Committed = true;
    });
    // Give T2 every chance to commit ahead of T1 (it would without the lock); with it, T2 waits.
    await eventually(async () => t2Committed || (await lockWaiters()), 5000, 'T2 committed or waiting');
    await sleep(100);
    release();
    await Promise.all([t1, t2]);
    await s.waitFor((e) => {
      const n = names({ events: e } as SseStream);
      return n.includes('added:Orden T1') && n.includes('added:Orden T2');
    });
    expect(names(s)).toEqual(['added:Orden T1', 'added:Orden T2']);
    const firstId = changeEvents(s.events)[0]!.id!;
    s.close();
    const r = await open('products', { token: staff.token, lastEventId: firstId });
    await r.waitFor((e) => names({ events: e } as SseStream).includes('added:Orden T2'));
    await sleep(200);
    expect(names(r)).toEqual(['added:Orden T2']);
    r.close();
  });

  it('sends event: reset for an id older than the kept window, even before the prune runs', async () => {
    const s = await open('brands', { token: staff.token });
    await post('brands', { name: 'Vieja' });
    await s.waitFor((e) => changeEvents(e).length === 1);
    const oldId = changeEvents(s.events)[0]!.id!;
    s.close();
    t.clock.advance(8 * 86_400_000);
    try {
      // Id tokens last an hour: sign a fresh one at the new time. No prune: the row is still there.
      const staffToken = await t.keys.sign({ sub: staff.uid }, { now: t.clock.now() });
      const r = await open('brands', { token: staffToken, lastEventId: oldId });
      await r.waitFor((e) => e.some((x) => x.event === 'reset'));
      expect(changeEvents(r.events)).toEqual([]);
      r.close();
      await t.app.ctx.live.prune();
      const pruned = await open('brands', { token: staffToken, lastEventId: oldId });
      await pruned.waitFor((e) => e.some((x) => x.event === 'reset'));
      pruned.close();
      const bogus = await open('brands', { token: staffToken, lastEventId: '999999999' });
      await bogus.waitFor((e) => e.some((x) => x.event === 'reset'));
      bogus.close();
    } finally {
      t.clock.advance(-8 * 86_400_000);
    }
  });

  it('answers a Last-Event-ID of 0, empty or not a number with reset, never a silent full replay', async () => {
    // Wait until this instance has pumped the write, so nothing after the reset is still on its way.
    const watcher = await open('brands', { token: staff.token });
    await post('brands', { name: 'Historia' });
    await watcher.waitFor((e) => names({ events: e } as SseStream).includes('added:Historia'));
    watcher.close();
    for (const id of ['0', '', 'abc', '-5']) {
      const headers: Record<string, string> = { authorization: `Bearer ${staff.token}`, 'last-event-id': id };
      const r = await openStream(changesUrl('brands'), headers);
      streams.push(r);
      expect(r.status, `Last-Event-ID ${JSON.stringify(id)}`).toBe(200);
      await r.waitFor((e) => e.some((x) => x.event === 'reset'));
      await sleep(100);
      expect(changeEvents(r.events), `Last-Event-ID ${JSON.stringify(id)}`).toEqual([]);
      r.close();
    }
    const viaQuery = await open('brands', { token: staff.token, query: '&last_event_id=0' });
    await viaQuery.waitFor((e) => e.some((x) => x.event === 'reset'));
    viaQuery.close();
  });

  it('resumes from an id this instance has not pumped yet (the client came from a faster instance)', async () => {
    // A committed row no notification announced: this instance's pump has not read it.
    const [ahead] = await t.db
      .insert(changeLog)
      .values({
        companyId,
        resource: 'brands',
        changes: [{ type: 'added', doc: { id: newId(), companyId, name: 'Adelantada' } }],
        createdAt: t.clock.now(),
      })
      .returning({ position: changeLog.position });
    const r = await open('brands', { token: staff.token, lastEventId: String(ahead!.position) });
    await post('brands', { name: 'Siguiente' });
    await r.waitFor((e) => changeEvents(e).length >= 1);
    await sleep(200);
    expect(r.events.some((e) => e.event === 'reset')).toBe(false);
    expect(names(r)).toEqual(['added:Siguiente']);
    r.close();
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

  it('never sends recipes to a public subscriber; staff receives them', async () => {
    expect((await openStream(changesUrl('recipes'))).status).toBe(401);
    const pub = await open('products,productCollections,brands');
    const priv = await open('recipes', { token: staff.token });
    const recipe = await post('recipes', { name: 'Receta secreta', yield: 12 });
    await post('brands', { name: 'Marca tras receta' });
    await priv.waitFor((e) => names({ events: e } as SseStream).includes('added:Receta secreta'));
    await pub.waitFor((e) => names({ events: e } as SseStream).includes('added:Marca tras receta'));
    expect(JSON.stringify(pub.events)).not.toContain('Receta');
    // The one deciding function refuses it too, whatever stream asked.
    const visibility = createVisibility(t.app.ctx, RESOURCES);
    const row = { position: 1, companyId, resource: 'recipes', changes: [{ type: 'added' as const, doc: recipe }] };
    expect(await visibility(null, row)).toBeNull();
    const customer = await t.user('company_customer', companyId);
    expect(await visibility(customer.uid, row)).toBeNull();
    expect(await visibility(staff.uid, row)).toEqual(row.changes);
    pub.close();
    priv.close();
  });

  it('sends `removed` to a restricted reader when a record leaves its scope', async () => {
    // Staff read customers only among users (design §4).
    const s = await open('users', { token: staff.token });
    const created = await post('users', {
      email: `cliente-${newId().slice(0, 6)}@ejemplo.co`.toLowerCase(),
      password: 'pan-de-bono-tibio',
      name: 'Cliente Ascendido',
      role: 'company_customer',
    });
    await post('users', {
      email: `staff-${newId().slice(0, 6)}@ejemplo.co`.toLowerCase(),
      password: 'pan-de-bono-tibio',
      name: 'Nunca Visible',
      role: 'company_staff',
    });
    const promote = await t.call({
      method: 'PATCH',
      url: `${api('users')}/${created.id}`,
      token: admin.token,
      payload: { role: 'company_staff' },
    });
    expect(promote.statusCode, promote.body).toBe(200);
    await s.waitFor((e) => changeEvents(e).length >= 2);
    await sleep(200);
    const changes = changeEvents(s.events).flatMap((e) => e.json!.changes);
    expect(changes.map((c) => c.type)).toEqual(['added', 'removed']);
    expect(changes[1]!.doc).toEqual({ id: created.id, companyId });
    expect(JSON.stringify(s.events)).not.toContain('Nunca Visible');
    s.close();
  });

  it('closes the open stream of a user who is disabled, at once', async () => {
    const victim = await t.user('company_staff', companyId);
    const s = await open('products', { token: victim.token });
    expect(s.status).toBe(200);
    await eventually(() => s.comments.includes('connected'));
    const res = await t.call({
      method: 'PATCH',
      url: `${api('users')}/${victim.uid}`,
      token: admin.token,
      payload: { disabled: true },
    });
    expect(res.statusCode, res.body).toBe(200);
    // No product event is needed: the change to the user itself ends the stream.
    await Promise.race([s.closed, sleep(2000).then(() => Promise.reject(new Error('stream still open')))]);
  });

  it('sends a heartbeat comment every 25 s', async () => {
    expect(t.app.ctx.live.heartbeatMs).toBe(25_000);
    // Only intervals are faked: the database driver keeps its real timers.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const feed = feedFor();
    try {
      await feed.start();
      const sub = memorySubscriber(['brands']);
      await feed.subscribe(sub, null);
      vi.advanceTimersByTime(24_999);
      expect(sub.text()).not.toContain(': heartbeat');
      vi.advanceTimersByTime(1);
      expect(sub.text().split(': heartbeat').length - 1).toBe(1);
      vi.advanceTimersByTime(50_000);
      expect(sub.text().split(': heartbeat').length - 1).toBe(3);
    } finally {
      await feed.stop();
      vi.useRealTimers();
    }
  });

  it('reconnects a lost listener with backoff until it succeeds, then catches up from the log', async () => {
    const proxy = await tcpProxy(dbUrl());
    // Only the listener goes through the proxy; reads use the pool.
    const feed = feedFor(t.db, proxy.url, { retryMinMs: 50, retryMaxMs: 300 });
    try {
      await feed.start();
      const sub = memorySubscriber(['brands']);
      await feed.subscribe(sub, null);
      proxy.cut();
      // Long enough for several refused attempts.
      await sleep(1500);
      // Committed while this feed cannot hear the notification.
      await post('brands', { name: 'Durante el corte' });
      await sleep(200);
      expect(sub.text()).not.toContain('Durante el corte');
      proxy.restore();
      await eventually(() => sub.text().includes('Durante el corte'), 5000, 'catch-up after reconnect');
      // And it hears notifications again.
      await post('brands', { name: 'Tras el corte' });
      await eventually(() => sub.text().includes('Tras el corte'), 2000, 'live after reconnect');
    } finally {
      await feed.stop();
      await proxy.close();
    }
  });

  it('retries a pump that failed on a database error instead of waiting for the next notification', async () => {
    const proxy = await tcpProxy(dbUrl());
    // The pool goes through the proxy; the listener connects directly and keeps hearing.
    const db = createDb(proxy.url, 2);
    const feed = feedFor(db, dbUrl(), { retryMinMs: 50, retryMaxMs: 300 });
    try {
      await feed.start();
      const sub = memorySubscriber(['brands']);
      await feed.subscribe(sub, null);
      proxy.cut();
      await post('brands', { name: 'Sin lectura' });
      // The notification arrived and the pump failed at least once.
      await sleep(600);
      expect(sub.text()).not.toContain('Sin lectura');
      proxy.restore();
      await eventually(() => sub.text().includes('Sin lectura'), 5000, 'pump retried');
      expect(sub.text().split('Sin lectura').length - 1).toBe(1);
    } finally {
      await feed.stop();
      await proxy.close();
      await db.$client.end();
    }
  });

  it('leaves no subscriber behind for a client that leaves before its subscription starts', async () => {
    await eventually(() => t.app.ctx.live.subscriberCount === 0, 5000, 'streams of earlier tests gone');
    // Companies not yet cached: the company look-up awaits the database, the window where it leaves.
    const fresh = await Promise.all(Array.from({ length: 10 }, (_, i) => t.company(`Fugaz ${i}`)));
    await Promise.all(
      fresh.map(
        (id) =>
          new Promise<void>((resolve) => {
            const url = new URL(`${t.baseUrl}/api/companies/${id}/changes?resources=products`);
            const sock = net.connect(Number(url.port), url.hostname, () => {
              sock.end(`GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`, () => {
                sock.destroy();
                resolve();
              });
            });
            sock.on('error', () => resolve());
          }),
      ),
    );
    await sleep(500);
    expect(t.app.ctx.live.subscriberCount).toBe(0);
  });

  it('ends the stream with a retry hint when the subscription fails, and keeps no subscriber', async () => {
    await eventually(() => t.app.ctx.live.subscriberCount === 0, 5000, 'streams of earlier tests gone');
    const spy = vi.spyOn(t.app.ctx.live, 'subscribe').mockImplementationOnce(async (sub) => {
      // As if the log read failed after the subscriber was registered.
      (t.app.ctx.live as unknown as { subscribers: Set<Subscriber> }).subscribers.add(sub);
      throw new Error('database unavailable');
    });
    try {
      const s = await open('products');
      expect(s.status).toBe(200);
      expect(s.headers['x-content-type-options']).toBe('nosniff');
      await Promise.race([s.closed, sleep(2000).then(() => Promise.reject(new Error('stream still open')))]);
      expect(s.retry).toBe('5000');
      expect(t.app.ctx.live.subscriberCount).toBe(0);
    } finally {
      spy.mockRestore();
    }
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

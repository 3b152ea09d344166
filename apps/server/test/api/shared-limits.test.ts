/**
 * Past one machine: three instances on one database share the rate limits and the
 * stream caps (counted in PostgreSQL, not per instance), and each periodic job's work runs once however
 * many instances run it (advisory locks, lib/job-lock.ts).
 */
import { inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders } from '../../src/db/schema';
import { withJobLock } from '../../src/lib/job-lock';
import { json, setupTestApp, type TestApp } from '../helpers/app';
import { MONDAY_10AM, ordersCalls, setupOrdersApp, type OrdersApp } from '../helpers/orders';
import { openStream, type SseStream } from '../helpers/sse';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
type Instance = { app: FastifyInstance; baseUrl: string; close(): Promise<void> };

describe('limits shared by three instances', () => {
  let t: TestApp;
  let others: Instance[] = [];
  let companyId: string;
  const streams: SseStream[] = [];
  const bases = () => [t.baseUrl, ...others.map((o) => o.baseUrl)];

  beforeAll(async () => {
    t = await setupTestApp({ listen: true, env: { RATE_LIMIT_WRITES: '4', LIVE_STREAMS_PER_USER: '2' } });
    others = [await t.secondInstance(), await t.secondInstance()];
    companyId = await t.company();
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    for (const o of others) await o.close();
    await t?.close();
  });

  it("counts a user's writes once across the three instances", async () => {
    const admin = await t.user('company_admin', companyId);
    const write = (base: string, name: string) =>
      fetch(`${base}/api/companies/${companyId}/brands`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name }),
      });
    const [a, b, c] = bases();
    // Four writes spread over three instances: each instance alone would admit four.
    for (const [i, base] of [a, b, c, a].entries()) expect((await write(base!, `Marca ${i}`)).status).toBe(201);
    for (const base of [a, b, c]) {
      const refused = await write(base!, 'Una más');
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it("caps an account's open streams across the instances, and frees a place when one closes", async () => {
    const staff = await t.user('company_staff', companyId);
    const headers = { authorization: `Bearer ${staff.token}` };
    const url = (base: string) => `${base}/api/companies/${companyId}/changes?resources=products`;
    const [a, b, c] = bases();
    const first = await openStream(url(a!), headers);
    streams.push(first, await openStream(url(b!), headers));
    const third = await fetch(url(c!), { headers: { accept: 'text/event-stream', ...headers } });
    expect(third.status).toBe(429);
    expect(((await third.json()) as { message: string }).message).toContain(
      'Too many open change streams for this account (limit 2)',
    );
    first.close();
    // The place is freed once the first instance has seen its socket close.
    let reopened = false;
    for (let i = 0; i < 50 && !reopened; i++) {
      await sleep(100);
      const controller = new AbortController();
      const res = await fetch(url(c!), {
        headers: { accept: 'text/event-stream', ...headers },
        signal: controller.signal,
      });
      controller.abort();
      reopened = res.status === 200;
    }
    expect(reopened).toBe(true);
  });
});

describe('periodic jobs with three instances', () => {
  let o: OrdersApp;
  let others: Instance[] = [];
  const { b2bClient } = ordersCalls(() => o);

  beforeAll(async () => {
    o = await setupOrdersApp();
    others = [await o.t.secondInstance(), await o.t.secondInstance()];
  });
  afterAll(async () => {
    for (const x of others) await x.close();
    await o?.t.close();
  });

  it('runs a locked job on one instance at a time: the others skip while it runs', async () => {
    const dbs = [o.t.db, ...others.map((x) => x.app.ctx.db)];
    let running = 0;
    let most = 0;
    const runs = await Promise.all(
      dbs.map((db) =>
        withJobLock(db, 'test-job', async () => {
          running += 1;
          most = Math.max(most, running);
          await sleep(300);
          running -= 1;
        }),
      ),
    );
    expect(runs.filter((r) => r.ran)).toHaveLength(1);
    expect(most).toBe(1);
    // Released: the next run of any instance takes it.
    expect((await withJobLock(dbs[2]!, 'test-job', async () => 1)).ran).toBe(true);
  });

  it("makes each standing order's day once with three instances running the job together", async () => {
    // Three clients' standing orders: each makes its day once the day enters the horizon.
    const ids: string[] = [];
    for (const name of ['Café Uno', 'Café Dos', 'Café Tres']) {
      const b2bClientId = await b2bClient({ businessName: name, contactName: 'Ana', phone: '310 555 0100' });
      const res = await o.t.call({
        method: 'POST',
        url: `/api/companies/${o.companyId}/standingOrders`,
        token: o.staff.token,
        payload: {
          b2bClientId,
          weekdays: [1, 2, 3, 4, 5, 6],
          items: [{ productId: o.pan, quantity: 10 }],
          fulfillment: 'pickup',
          window: 'am',
          startsOn: '2026-12-01',
        },
      });
      expect(res.statusCode, res.body).toBe(201);
      ids.push(json<{ data: { id: string } }>(res).data.id);
    }
    // Each write runs the job for its company in the background (nothing is due yet): let those end.
    await sleep(300);
    await o.t.app.modules.standingOrders.run(o.companyId);
    expect(await o.t.db.select().from(orders).where(inArray(orders.standingOrderId, ids))).toEqual([]);
    // A week later; the three instances run the job twice each, all at once.
    o.t.clock.set(new Date(new Date(MONDAY_10AM).getTime() + 7 * 86_400_000));
    const jobs = [o.t.app, ...others.map((x) => x.app)].map((a) => a.modules.standingOrders);
    const runs = await Promise.all([...jobs, ...jobs].map((j) => j.run()));
    const made = await o.t.db
      .select({ id: orders.standingOrderId, day: orders.standingDay })
      .from(orders)
      .where(inArray(orders.standingOrderId, ids));
    const days = made.map((m) => `${m.id}|${m.day}`);
    expect(days.sort()).toEqual(ids.map((id) => `${id}|2026-12-01`).sort());
    expect(new Set(days).size).toBe(days.length);
    expect(runs.reduce((n, r) => n + r.made, 0)).toBe(days.length);
    // Under the company's lock no run reached the unique key: none raced, none failed.
    expect(runs.reduce((n, r) => n + r.raced + r.failed, 0)).toBe(0);
  });
});

/**
 * The change feed recovers and stays bounded: heartbeats, a lost listener or a failed pump retried,
 * no subscriber left behind by a client that leaves or a subscription that fails, and a stalled
 * subscriber cut loose without slowing the others.
 */
import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDb } from '../../src/db';
import type { Subscriber } from '../../src/live/feed';
import type { TestApp, TestUser } from '../helpers/app';
import { closeListeningApp, eventually, liveCalls, setupLiveApp, sleep } from '../helpers/live';
import { changeEvents, tcpProxy } from '../helpers/sse';

let t: TestApp;
let companyId: string;
let admin: TestUser;
let staff: TestUser;
const { streams, api, changesUrl, open, post, memorySubscriber, dbUrl, feedFor } = liveCalls(() => ({
  t,
  companyId,
  admin,
}));

beforeAll(async () => {
  ({ t, companyId, admin, staff } = await setupLiveApp());
});
// A test that fails half-way must not leave its streams to the next one.
afterEach(() => {
  for (const s of streams.splice(0)) s.close();
});
afterAll(() => closeListeningApp(t));

describe('change feed', () => {
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
      // Several refused attempts, as the listener counts them.
      await eventually(() => feed.listenerStats.reconnectFailures >= 2, 10_000, 'refused reconnects');
      // Committed while this feed cannot hear the notification: one more refused attempt after it shows
      // the feed was still cut off, and it has not seen the change.
      await post('brands', { name: 'Durante el corte' });
      const refused = feed.listenerStats.reconnectFailures;
      await eventually(() => feed.listenerStats.reconnectFailures > refused, 10_000, 'a refused reconnect after');
      expect(sub.text()).not.toContain('Durante el corte');
      expect(feed.listenerStats.reconnects).toBe(0);
      proxy.restore();
      await eventually(() => sub.text().includes('Durante el corte'), 5000, 'catch-up after reconnect');
      expect(feed.listenerStats.reconnects).toBe(1);
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
      const heard = feed.listenerStats.notifications;
      await post('brands', { name: 'Sin lectura' });
      // The notification arrived and the pump failed at least once, as the listener counts them.
      await eventually(() => feed.listenerStats.notifications > heard, 10_000, 'the notification heard');
      await eventually(() => feed.listenerStats.pumpFailures >= 1, 10_000, 'a failed pump');
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
    expect(fresh.filter((id) => t.app.ctx.companies.get(id))).toEqual([]);
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
    // Every request got past the company look-up (the app cached each company); from there to subscribe() the
    // handler does not wait, so any subscriber it was going to leave behind is in the count by now.
    await eventually(() => fresh.every((id) => t.app.ctx.companies.get(id)), 10_000, 'every look-up done');
    await new Promise((r) => setImmediate(r));
    await eventually(() => t.app.ctx.live.subscriberCount === 0, 5000, 'no subscriber left');
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
    for (let round = 0; round < rounds; round++) {
      const res = await t.call({
        method: 'PATCH',
        url: `${api('products')}/bulk-update`,
        token: admin.token,
        payload: { updates: ids.map((id) => ({ id, data: { description: `${round}${big}` } })) },
      });
      expect(res.statusCode).toBe(200);
    }
    // Outcome, not a stopwatch: the reading subscriber got every round while the stalled one held megabytes
    // unsent (were delivery to wait on it, this would never come). The bound only keeps a failure from hanging.
    await live.waitFor(
      (e) => changeEvents(e).filter((x) => x.json!.changes[0]!.type === 'modified').length >= rounds,
      60_000,
    );
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
  }, 120_000);
});

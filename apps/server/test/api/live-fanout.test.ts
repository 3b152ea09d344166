/**
 * The fan-out's shortcuts stay exact: a stream reads as its user's state, resolved when it subscribes
 * and again only when the change log records a change to that user (never per event), including a change
 * logged while the subscription is being set up; and the events written straight to the connection, framed
 * once for every stream, are well-formed HTTP/1.1 chunks (several in one write) or, for an HTTP/1.0
 * client, the plain stream.
 */
import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { newId } from '../../src/lib/ids';
import { LiveFeed } from '../../src/live/feed';
import { createVisibility } from '../../src/live/visibility';
import { RESOURCES } from '../../src/resources/definitions';
import type { TestApp, TestUser } from '../helpers/app';
import { closeListeningApp, eventually, liveCalls, names, setupLiveApp, sleep } from '../helpers/live';
import type { SseEvent, SseStream } from '../helpers/sse';

let t: TestApp;
let companyId: string;
let admin: TestUser;
const { streams, api, open, post, memorySubscriber, dbUrl } = liveCalls(() => ({ t, companyId, admin }));

beforeAll(async () => {
  ({ t, companyId, admin } = await setupLiveApp());
});
afterEach(() => {
  for (const s of streams.splice(0)) s.close();
  vi.restoreAllMocks();
});
afterAll(() => closeListeningApp(t));

/** Whether the events hold a change `type:name`. */
const has = (events: SseEvent[], change: string) => names({ events } as SseStream).includes(change);

const patchUser = async (uid: string, payload: Record<string, unknown>) => {
  const res = await t.call({ method: 'PATCH', url: `${api('users')}/${uid}`, token: admin.token, payload });
  expect(res.statusCode, res.body).toBe(200);
};

/** A raw connection to the stream, so that the bytes on the wire (chunk framing included) can be checked. */
async function rawStream(path: string, version: '1.0' | '1.1', token?: string) {
  const url = new URL(t.baseUrl);
  const sock = net.connect(Number(url.port), url.hostname);
  sock.on('error', () => {});
  let raw = Buffer.alloc(0);
  sock.on('data', (b: Buffer) => (raw = Buffer.concat([raw, b])));
  await new Promise<void>((r) => sock.once('connect', () => r()));
  sock.write(
    `GET ${path} HTTP/${version}\r\nHost: ${url.host}\r\n${token ? `Authorization: Bearer ${token}\r\n` : ''}\r\n`,
  );
  const split = () => {
    const at = raw.indexOf('\r\n\r\n');
    return at < 0 ? null : { head: raw.toString('latin1', 0, at), body: raw.subarray(at + 4) };
  };
  return { sock, split };
}

/** The body of a chunked response read so far; fails on any chunk that is not `hex CRLF bytes CRLF`. */
function dechunk(body: Buffer): string {
  const parts: Buffer[] = [];
  let pos = 0;
  for (;;) {
    const eol = body.indexOf('\r\n', pos);
    if (eol < 0) break;
    const size = body.toString('latin1', pos, eol);
    if (!/^[0-9a-f]+$/.test(size)) throw new Error(`not a chunk size: ${JSON.stringify(size)}`);
    const n = parseInt(size, 16);
    if (body.length < eol + 2 + n + 2) break;
    parts.push(body.subarray(eol + 2, eol + 2 + n));
    if (body.toString('latin1', eol + 2 + n, eol + 4 + n) !== '\r\n') throw new Error('chunk without its CRLF');
    pos = eol + 4 + n;
    if (n === 0) break;
  }
  return Buffer.concat(parts).toString('utf8');
}

describe('live fan-out', () => {
  it("reads a stream's caller once, and again only when the log records a change to its user", async () => {
    const watcher = await t.user('company_staff', companyId);
    const s = await open('products,ingredients', { token: watcher.token });
    expect(s.status).toBe(200);
    await post('products', { name: 'Primero', price: 1 });
    await s.waitFor((e) => has(e, 'added:Primero'));

    const get = vi.spyOn(t.app.ctx.users, 'get');
    const readsOfWatcher = () => get.mock.calls.filter(([uid]) => uid === watcher.uid).length;
    for (const name of ['Segundo', 'Tercero', 'Cuarto']) await post('products', { name, price: 1 });
    await s.waitFor((e) => has(e, 'added:Cuarto'));
    expect(readsOfWatcher()).toBe(0);

    // A change to the user (even one that does not touch its rights) is read again.
    await patchUser(watcher.uid, { name: 'Vigilante' });
    await post('products', { name: 'Quinto', price: 1 });
    await s.waitFor((e) => has(e, 'added:Quinto'));
    const afterChange = readsOfWatcher();
    expect(afterChange).toBeGreaterThan(0);

    // A new role applies from its row on: as a customer it reads products, no longer ingredients.
    await post('ingredients', { name: 'Harina antes', unit: 'kg' });
    await patchUser(watcher.uid, { role: 'company_customer' });
    await post('ingredients', { name: 'Harina después', unit: 'kg' });
    await post('products', { name: 'Sexto', price: 1 });
    await s.waitFor((e) => has(e, 'added:Sexto'));
    const seen = names(s);
    expect(seen).toContain('added:Harina antes');
    expect(seen).not.toContain('added:Harina después');
    expect(readsOfWatcher()).toBeGreaterThan(afterChange);
  });

  it('resolves the caller again when a change to its user is logged while the subscription is set up', async () => {
    const user = await t.user('company_staff', companyId);
    const real = createVisibility(t.app.ctx.users, RESOURCES);
    // The first read of the caller answers with the state before the change, after the change is logged.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let reads = 0;
    const visibility = {
      ...real,
      async caller(uid: string, iat?: number | null) {
        const state = await real.caller(uid, iat);
        if (reads++ === 0) await gate;
        return state;
      },
    };
    const feed = new LiveFeed(t.db, dbUrl(), t.clock, visibility, t.app.log, { applicationName: 'hornada-live-test' });
    try {
      await feed.start();
      const sub = memorySubscriber(['ingredients', 'brands'], user.uid);
      const subscribing = feed.subscribe(sub, null);
      await eventually(() => reads === 1, 2000, 'the first caller read');
      const heard = feed.listenerStats.notifications;
      await patchUser(user.uid, { role: 'company_customer' });
      // The feed has read and handed on the change to the user while the subscriber was not yet live.
      await eventually(() => feed.listenerStats.notifications > heard, 5000, 'the change to the user heard');
      await feed.settled();
      expect(sub.live).toBe(false);
      release();
      await subscribing;
      expect(sub.live).toBe(true);
      expect(sub.caller?.role).toBe('company_customer');
      expect(reads).toBe(2);
      await post('ingredients', { name: 'Harina oculta', unit: 'kg' });
      await post('brands', { name: 'Marca visible' });
      await eventually(() => sub.text().includes('Marca visible'), 5000, 'the brand');
      expect(sub.text()).not.toContain('Harina oculta');
    } finally {
      release();
      await feed.stop();
    }
  });

  it('writes events as well-formed HTTP/1.1 chunks, several in one write, and plain to an HTTP/1.0 client', async () => {
    const staff = await t.user('company_staff', companyId);
    const path = (resources: string) => `${api('changes')}?resources=${resources}`;
    const chunked = await rawStream(path('products,brands'), '1.1', staff.token);
    const plain = await rawStream(path('brands'), '1.0');
    try {
      await eventually(() => (chunked.split()?.body.length ?? 0) > 0 && (plain.split()?.body.length ?? 0) > 0);
      expect(chunked.split()!.head).toMatch(/^HTTP\/1\.1 200/);
      expect(chunked.split()!.head.toLowerCase()).toContain('transfer-encoding: chunked');
      expect(plain.split()!.head.toLowerCase()).not.toContain('transfer-encoding');
      const before = t.app.ctx.live.fanoutStats.events;

      // One transaction, two resources: two log rows the pump reads and hands on together.
      const product = { id: newId(), companyId, name: 'Pan de año', price: 1, active: true };
      const brand = { id: newId(), companyId, name: 'Marca ñandú' };
      await t.app.ctx.write(companyId, async (_tx, changes) => {
        changes.add('products', 'added', product);
        changes.add('brands', 'added', brand);
      });
      await post('brands', { name: 'Después del par' });

      await eventually(() => dechunk(chunked.split()!.body).includes('Después del par'), 5000, 'chunked events');
      const text = dechunk(chunked.split()!.body);
      expect(text.startsWith('retry: 3000\n\n: connected\n\n')).toBe(true);
      const ours = new Set(['Pan de año', 'Marca ñandú', 'Después del par']);
      // An earlier test's write the pump had not yet read when the stream opened may come first: a stream
      // without Last-Event-ID starts from the pump's position, not from the commit before the request.
      const events = [...text.matchAll(/id: (\d+)\ndata: (.*)\n\n/g)]
        .map((m) => ({
          id: Number(m[1]),
          data: JSON.parse(m[2]!) as { resource: string; changes: { doc: { name: string } }[] },
        }))
        .filter((e) => ours.has(e.data.changes[0]!.doc.name));
      expect(events.map((e) => `${e.data.resource}:${e.data.changes[0]!.doc.name}`)).toEqual([
        'products:Pan de año',
        'brands:Marca ñandú',
        'brands:Después del par',
      ]);
      expect(events[1]!.id).toBe(events[0]!.id + 1);

      await eventually(() => plain.split()!.body.toString('utf8').includes('Después del par'), 5000, 'plain events');
      const body = plain.split()!.body.toString('utf8');
      expect(body.startsWith('retry: 3000\n\n: connected\n\nid: ')).toBe(true);
      expect(body).toContain('"name":"Marca ñandú"');
      expect(body).not.toContain('Pan de año');
      expect(t.app.ctx.live.fanoutStats.events).toBeGreaterThanOrEqual(before + 2);
    } finally {
      chunked.sock.destroy();
      plain.sock.destroy();
    }
    await sleep(50);
  });
});

/**
 * Resuming a change stream with Last-Event-ID: exactly the missed changes in commit order (also when
 * transactions overlap or pause), `event: reset` for ids too old or malformed, and ids this instance
 * has not pumped yet.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { changeLog, products } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import type { TestApp, TestUser } from '../helpers/app';
import { closeListeningApp, eventually, liveCalls, names, setupLiveApp, sleep } from '../helpers/live';
import { changeEvents, openStream, type SseStream } from '../helpers/sse';

let t: TestApp;
let companyId: string;
let admin: TestUser;
let staff: TestUser;
const { streams, changesUrl, open, post, insert } = liveCalls(() => ({ t, companyId, admin }));

beforeAll(async () => {
  ({ t, companyId, admin, staff } = await setupLiveApp());
});
// A test that fails half-way must not leave its streams to the next one.
afterEach(() => {
  for (const s of streams.splice(0)) s.close();
});
afterAll(() => closeListeningApp(t));

describe('change feed', () => {
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
});

/**
 * What the live feed files (live-delivery, live-resume, live-recovery, live-cache) share: the app they
 * boot, streams opened on it and closed after each test, writes, and LiveFeed instances driven directly.
 */
import { expect } from 'vitest';
import { newId } from '../../src/lib/ids';
import { LiveFeed, type Subscriber } from '../../src/live/feed';
import { RESOURCES } from '../../src/resources/definitions';
import { createVisibility } from '../../src/live/visibility';
import { setupTestApp, type TestApp, type TestUser } from './app';
import { changeEvents, openStream, type SseStream } from './sse';

export interface LiveApp {
  t: TestApp;
  companyId: string;
  admin: TestUser;
  staff: TestUser;
}

/** A listening app (streams need a real socket) with one company, its admin and a staff member. */
export async function setupLiveApp(): Promise<LiveApp> {
  const t = await setupTestApp({ listen: true });
  const companyId = await t.company('En vivo');
  const admin = await t.user('company_admin', companyId);
  const staff = await t.user('company_staff', companyId);
  return { t, companyId, admin, staff };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `pred` until it holds; throws naming `what` after `ms`. */
export async function eventually(pred: () => boolean | Promise<boolean>, ms = 2000, what = 'condition'): Promise<void> {
  const until = Date.now() + ms;
  while (!(await pred())) {
    if (Date.now() > until) throw new Error(`${what} not met within ${ms} ms`);
    await sleep(20);
  }
}

/** The changes a stream received, as `type:name`. */
export const names = (s: SseStream) =>
  changeEvents(s.events).flatMap((e) => e.json!.changes.map((c) => `${c.type}:${String(c.doc.name ?? c.doc.id)}`));

/**
 * Calls on the file's live app; `live()` is read at each call, after beforeAll. Every stream `open`
 * makes lands in `streams`, which the file closes after each test.
 */
export function liveCalls(live: () => Pick<LiveApp, 't' | 'companyId' | 'admin'>) {
  const streams: SseStream[] = [];

  const api = (resource: string) => `/api/companies/${live().companyId}/${resource}`;
  const changesUrl = (resources: string, extra = '') =>
    `${live().t.baseUrl}${api('changes')}?resources=${resources}${extra}`;

  async function open(resources: string, opts: { token?: string; lastEventId?: string; query?: string } = {}) {
    const headers: Record<string, string> = {};
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.lastEventId !== undefined) headers['last-event-id'] = opts.lastEventId;
    const s = await openStream(changesUrl(resources, opts.query), headers);
    streams.push(s);
    return s;
  }

  async function post(resource: string, body: Record<string, unknown>, user = live().admin) {
    const res = await live().t.call({ method: 'POST', url: api(resource), token: user.token, payload: body });
    expect(res.statusCode, res.body).toBe(201);
    return (JSON.parse(res.body) as { data: { id: string } & Record<string, unknown> }).data;
  }

  /** A product row written straight through ctx.write, for tests that shape the transaction. */
  function insert(name: string) {
    const now = live().t.clock.now();
    return {
      id: newId(),
      companyId: live().companyId,
      name,
      price: 1,
      createdAt: now,
      updatedAt: now,
      images: [],
      allergens: [],
    };
  }

  /** A subscriber held in memory, for tests that drive a LiveFeed directly. */
  function memorySubscriber(resources: string[], uid: string | null = null) {
    const out: string[] = [];
    const sub: Subscriber & { out: string[]; text(): string } = {
      companyId: live().companyId,
      resources: new Set(resources),
      uid,
      caller: null,
      stale: false,
      cursor: 0,
      live: false,
      closed: false,
      out,
      text: () => out.join(''),
      write: (frame) => void out.push(frame.text),
      buffered: () => 0,
      end: () => {},
    };
    return sub;
  }

  const dbUrl = () => live().t.db.$client.options.connectionString ?? '';
  const feedFor = (db = live().t.db, url = dbUrl(), options = {}) => {
    const { t } = live();
    return new LiveFeed(db, url, t.clock, createVisibility(t.app.ctx.users, RESOURCES), t.app.log, {
      applicationName: 'hornada-live-test',
      ...options,
    });
  };

  return { streams, api, changesUrl, open, post, insert, memorySubscriber, dbUrl, feedFor };
}

/**
 * Closes a listening app without waiting out keep-alive: the live feed ends its streams first, as at a
 * shutdown, then every connection goes at once. Otherwise the close waits for the sockets this test
 * process's own fetch keeps alive (undici: 4 s), and every file that opened a stream pays it.
 */
export async function closeListeningApp(t: TestApp | undefined): Promise<void> {
  if (!t) return;
  await t.app.ctx.live.stop();
  t.app.server.closeAllConnections();
  await t.close();
}

import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LiveChange } from './live-rules';
import { createLiveStream, liveStreamUrl } from './live-connections';
import {
  bindResourceStore,
  deferLiveStream,
  getLiveStream,
  type LiveHandlers,
  type LiveStream,
  type LiveStreamDeps,
  type LiveTimers,
} from './live-stream';
import type { ListResult, Resource, ResourceService } from '../api/resource-service';
import { createResourceStore } from '../api/resource-store';
import { createSseParser } from './sse-parser';

/**
 * A real text/event-stream server on 127.0.0.1 that plays the API's stream (docs/design.md §3): a log of
 * committed events with positions, resume from Last-Event-ID (header, else `last_event_id`),
 * `event: reset` for an id it no longer keeps, `retry:` on open.
 */
interface Stream {
  url: URL;
  headers: IncomingHttpHeaders;
  resources: string[];
  res: ServerResponse;
  closed: boolean;
}
interface LogEntry {
  id: number;
  resource: string;
  changes: LiveChange[];
}

let server: Server;
let baseUrl: string;
let streams: Stream[] = [];
let log: LogEntry[] = [];
/** Positions at or below this are "pruned": resuming from them gets a reset. */
let prunedUpTo = 0;
/** Answers the next request instead of the stream when set (status, or 'silent' for headers and no bytes). */
let refusals: (number | 'silent')[] = [];

function frame(entry: LogEntry): string {
  return `id: ${entry.id}\ndata: ${JSON.stringify({ resource: entry.resource, changes: entry.changes })}\n\n`;
}

function publish(resource: string, changes: LiveChange[]): number {
  const entry = { id: (log.at(-1)?.id ?? 100) + 1, resource, changes };
  log.push(entry);
  for (const s of streams) if (!s.closed && s.resources.includes(resource)) s.res.write(frame(entry));
  return entry.id;
}

const open = () => streams.filter((s) => !s.closed);

/** Cuts every open stream as a failing network or a restarting server would. */
function dropAll(): void {
  for (const s of open()) s.res.socket?.destroy();
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const refusal = refusals.shift();
    if (refusal === 'silent') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
      const stream: Stream = { url, headers: req.headers, resources: [], res, closed: false };
      streams.push(stream);
      res.once('close', () => (stream.closed = true));
      return;
    }
    if (refusal !== undefined) {
      res.writeHead(refusal, { 'content-type': 'application/json' }).end('{"message":"no"}');
      streams.push({ url, headers: req.headers, resources: [], res, closed: true });
      return;
    }
    const resources = (url.searchParams.get('resources') ?? '').split(',');
    const stream: Stream = { url, headers: req.headers, resources, res, closed: false };
    streams.push(stream);
    res.once('close', () => (stream.closed = true));
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
    res.write('retry: 20\n\n: connected\n\n');
    const resume = req.headers['last-event-id'] ?? url.searchParams.get('last_event_id');
    if (typeof resume === 'string') {
      const from = Number(resume);
      if (!(from > prunedUpTo)) res.write('event: reset\ndata: {}\n\n');
      else for (const e of log) if (e.id > from && resources.includes(e.resource)) res.write(frame(e));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});

afterEach(() => {
  for (const s of streams) s.res.socket?.destroy();
  streams = [];
  log = [];
  prunedUpTo = 0;
  refusals = [];
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function waitFor(check: () => boolean, what: string, timeoutMs = 2000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Records what each subscriber receives. */
function recorder() {
  const batches: LiveChange[][] = [];
  let resets = 0;
  const handlers: LiveHandlers = {
    onChanges: (changes) => batches.push(changes),
    onReset: () => resets++,
  };
  return {
    handlers,
    batches,
    ids: () => batches.flatMap((b) => b.map((c) => c.doc.id)),
    resets: () => resets,
  };
}

const change = (type: LiveChange['type'], id: string, extra: Record<string, unknown> = {}): LiveChange => ({
  type,
  doc: { id, ...extra },
});

const streamsToClose: LiveStream[] = [];
afterEach(() => {
  for (const s of streamsToClose.splice(0)) s.close();
});

/** A stream against the test server with short waits; `token` null is a guest. */
function makeStream(options: { token?: string | null } & Partial<LiveStreamDeps> = {}) {
  let token = options.token ?? null;
  const warnings: string[] = [];
  const delays: number[] = [];
  const fetched: string[] = [];
  const timers: LiveTimers = {
    set: (callback, ms) => {
      delays.push(ms);
      return setTimeout(callback, ms);
    },
    clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  };
  const stream = createLiveStream({
    baseUrl,
    getToken: () => token,
    fetch: (input, init) => {
      fetched.push(String(input));
      return fetch(input, init);
    },
    timers,
    logger: { warn: (message) => void warnings.push(message) },
    random: () => 0,
    retryMs: 10,
    minRetryMs: 0,
    rateLimitedMs: 150,
    ...options,
  });
  streamsToClose.push(stream);
  return {
    stream,
    warnings,
    delays,
    fetched,
    setToken: (next: string | null) => (token = next),
  };
}

describe('live stream: one connection per company', () => {
  it('opens one connection for two resources subscribed in the same tick, and dispatches by resource', async () => {
    const { stream, fetched } = makeStream({ token: 't1' });
    const products = recorder();
    const orders = recorder();
    stream.subscribe('co1', 'products', products.handlers);
    stream.subscribe('co1', 'orders', orders.handlers);
    await waitFor(() => open().length === 1, 'the stream');
    await sleep(30);
    expect(fetched).toHaveLength(1); // not one opened and at once replaced
    expect(streams).toHaveLength(1);
    expect(streams[0]!.url.pathname).toBe('/api/companies/co1/changes');
    expect(streams[0]!.url.searchParams.get('resources')).toBe('orders,products');

    publish('products', [change('added', 'p1')]);
    publish('orders', [change('modified', 'o1', { status: 'paid' })]);
    publish('products', [change('removed', 'p2')]);
    await waitFor(() => products.batches.length === 2 && orders.batches.length === 1, 'the events');
    expect(products.ids()).toEqual(['p1', 'p2']);
    expect(orders.batches).toEqual([[change('modified', 'o1', { status: 'paid' })]]);
  });

  it('asks only for what guests may read without a token, and for the rest again once signed in', async () => {
    const { stream, setToken } = makeStream({ token: null });
    stream.subscribe('co1', 'orders', recorder().handlers);
    await sleep(30);
    // A signed-in list alone (a page being left after a sign-out): nothing is opened, no 401.
    expect(streams).toHaveLength(0);
    stream.subscribe('co1', 'products', recorder().handlers);
    await waitFor(() => open().length === 1, 'the guest stream');
    expect(streams[0]!.url.searchParams.get('resources')).toBe('products');
    expect(streams[0]!.headers.authorization).toBeUndefined();
    setToken('t2');
    stream.reconnect();
    await waitFor(
      () => open().length === 1 && open()[0]!.headers.authorization === 'Bearer t2',
      'the signed-in stream',
    );
    expect(open()[0]!.url.searchParams.get('resources')).toBe('orders,products');
  });

  it('sends the bearer token when signed in, and Last-Event-ID only once it has one', async () => {
    const { stream } = makeStream({ token: 'secret-token' });
    stream.subscribe('co1', 'products', recorder().handlers);
    await waitFor(() => open().length === 1, 'the stream');
    expect(streams[0]!.headers.authorization).toBe('Bearer secret-token');
    expect(streams[0]!.headers.accept).toBe('text/event-stream');
    expect(streams[0]!.headers['last-event-id']).toBeUndefined();
  });

  it('reconnects after the server drops the connection, from the last event id, missing nothing', async () => {
    const { stream, delays } = makeStream({ token: 't1' });
    const products = recorder();
    stream.subscribe('co1', 'products', products.handlers);
    await waitFor(() => open().length === 1, 'the stream');
    publish('products', [change('added', 'p1')]);
    const second = publish('products', [change('added', 'p2')]);
    await waitFor(() => products.batches.length === 2, 'two events');

    dropAll();
    publish('products', [change('added', 'p3')]); // committed while the client is away
    await waitFor(() => streams.length === 2 && open().length === 1, 'the reconnection');
    expect(streams[1]!.headers['last-event-id']).toBe(String(second));
    expect(streams[1]!.headers.authorization).toBe('Bearer t1');
    await waitFor(() => products.batches.length === 3, 'the missed event');
    publish('products', [change('added', 'p4')]);
    await waitFor(() => products.batches.length === 4, 'a live event after the resume');
    expect(products.ids()).toEqual(['p1', 'p2', 'p3', 'p4']);
    // The server's `retry: 20` set the wait (random() = 0: no jitter), not the default 3000.
    expect(delays).toContain(20);
    expect(delays).not.toContain(3000);
  });

  it('resumes from an id that came without data (it moves the resume point, as in EventSource)', async () => {
    const { stream } = makeStream({ token: 't1' });
    const products = recorder();
    stream.subscribe('co1', 'products', products.handlers);
    await waitFor(() => open().length === 1, 'the stream');
    // An event with no id of its own follows: once it is delivered, the id before it has been read (the
    // stream is in order), and the resume point stays 500.
    open()[0]!.res.write(
      `id: 500\n\ndata: ${JSON.stringify({ resource: 'products', changes: [change('added', 'p1')] })}\n\n`,
    );
    await waitFor(() => products.batches.length === 1, 'the event after the id');
    dropAll();
    await waitFor(() => streams.length === 2, 'the reconnection');
    expect(streams[1]!.headers['last-event-id']).toBe('500');
  });

  it('calls onReset of every subscriber when the server cannot resume', async () => {
    const { stream } = makeStream({ token: 't1' });
    const products = recorder();
    const orders = recorder();
    stream.subscribe('co1', 'products', products.handlers);
    stream.subscribe('co1', 'orders', orders.handlers);
    await waitFor(() => open().length === 1, 'the stream');
    const id = publish('products', [change('added', 'p1')]);
    await waitFor(() => products.batches.length === 1, 'the event');

    prunedUpTo = id; // the log no longer holds it
    dropAll();
    await waitFor(() => products.resets() === 1 && orders.resets() === 1, 'the resets');
    expect(streams[1]!.headers['last-event-id']).toBe(String(id));
    expect(products.batches).toHaveLength(1);
  });

  it('closes the connection when the last subscriber leaves, and reopens with the remaining resources', async () => {
    const { stream } = makeStream({ token: 't1' });
    const products = recorder();
    const offProducts = stream.subscribe('co1', 'products', products.handlers);
    const offOrders = stream.subscribe('co1', 'orders', recorder().handlers);
    const offOrdersToo = stream.subscribe('co1', 'orders', recorder().handlers);
    await waitFor(() => open().length === 1, 'the stream');
    const id = publish('products', [change('added', 'p1')]);
    await waitFor(() => products.batches.length === 1, 'the event');

    offOrders();
    await sleep(30);
    expect(streams).toHaveLength(1); // another orders subscriber is left: the same connection stays
    offOrdersToo();
    offOrdersToo(); // a second call does nothing
    await waitFor(() => streams.length === 2 && open().length === 1, 'the reopened stream');
    expect(streams[0]!.closed).toBe(true);
    expect(streams[1]!.resources).toEqual(['products']);
    expect(streams[1]!.headers['last-event-id']).toBe(String(id));

    offProducts();
    await waitFor(() => open().length === 0, 'the stream to close');
    await sleep(50);
    expect(streams).toHaveLength(2); // and it stays closed
  });

  it('reopens once when a resource is added later, resuming so nothing committed meanwhile is missed', async () => {
    const { stream } = makeStream({ token: 't1' });
    const products = recorder();
    const orders = recorder();
    stream.subscribe('co1', 'products', products.handlers);
    await waitFor(() => open().length === 1, 'the stream');
    const id = publish('products', [change('added', 'p1')]);
    await waitFor(() => products.batches.length === 1, 'the event');

    stream.subscribe('co1', 'orders', orders.handlers);
    stream.subscribe('co1', 'users', recorder().handlers);
    await waitFor(() => streams.length === 2 && open().length === 1, 'the reopened stream');
    await sleep(30);
    expect(streams).toHaveLength(2);
    expect(streams[1]!.resources).toEqual(['orders', 'products', 'users']);
    expect(streams[1]!.headers['last-event-id']).toBe(String(id));
    publish('orders', [change('added', 'o1')]);
    await waitFor(() => orders.batches.length === 1, 'the orders event');
    expect(products.ids()).toEqual(['p1']); // not replayed twice
  });
});

describe('live stream: credentials', () => {
  it('reopens with the new token when it changes, and not when it did not', async () => {
    const { stream, setToken } = makeStream({ token: 'old' });
    stream.subscribe('co1', 'products', recorder().handlers);
    await waitFor(() => open().length === 1, 'the stream');
    stream.reconnect(); // same token: nothing to do
    await sleep(30);
    expect(streams).toHaveLength(1);

    setToken('new');
    stream.reconnect();
    await waitFor(() => streams.length === 2 && open().length === 1, 'the reopened stream');
    expect(streams[0]!.closed).toBe(true);
    expect(streams[1]!.headers.authorization).toBe('Bearer new');
  });

  it('stops on 401 and reports it, until reconnect() with new credentials', async () => {
    const { stream, setToken, warnings } = makeStream({ token: 'expired' });
    const unauthorized = vi.fn();
    stream.onUnauthorized(unauthorized);
    refusals = [401];
    stream.subscribe('co1', 'products', recorder().handlers);
    await waitFor(() => unauthorized.mock.calls.length === 1, 'the 401 report');
    await sleep(80);
    expect(streams).toHaveLength(1); // no retry loop against a refused token
    expect(warnings.some((w) => w.includes('401'))).toBe(true);

    setToken('fresh');
    stream.reconnect();
    await waitFor(() => open().length === 1, 'the stream with the new token');
    expect(streams[1]!.headers.authorization).toBe('Bearer fresh');
  });

  it('backs off longer after a 429, and doubles the wait while failures continue', async () => {
    const { stream, delays } = makeStream({ token: 't1' });
    refusals = [503, 503, 429];
    const started = Date.now();
    stream.subscribe('co1', 'products', recorder().handlers);
    await waitFor(() => open().length === 1, 'the stream after the refusals');
    expect(streams).toHaveLength(4);
    expect(delays.filter((ms) => ms > 0 && ms < 60_000)).toEqual([10, 20, 150]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(150 + 30);
  });

  it('takes a silent connection as dead and reconnects', async () => {
    const { stream, warnings } = makeStream({ token: 't1', idleTimeoutMs: 80 });
    refusals = ['silent'];
    stream.subscribe('co1', 'products', recorder().handlers);
    await waitFor(() => open().length === 1 && streams.length === 2, 'a new connection');
    expect(warnings.some((w) => w.includes('silent'))).toBe(true);
  });
});

/** A minimal EventSource for node, built on fetch and the parser: no reconnection of its own. */
class FetchEventSource extends EventTarget {
  static created: string[] = [];
  readyState = 0;
  private readonly controller = new AbortController();

  constructor(readonly url: string) {
    super();
    FetchEventSource.created.push(url);
    void this.run();
  }

  private async run(): Promise<void> {
    try {
      const res = await fetch(this.url, { headers: { accept: 'text/event-stream' }, signal: this.controller.signal });
      if (res.status !== 200 || !res.body) return this.fail();
      this.readyState = 1;
      this.dispatchEvent(new Event('open'));
      const parser = createSseParser({
        onEvent: (e) => this.dispatchEvent(new MessageEvent(e.type, { data: e.data, lastEventId: e.lastEventId })),
      });
      const reader = res.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.feed(value);
      }
      this.fail();
    } catch {
      if (!this.controller.signal.aborted) this.fail();
    }
  }

  private fail(): void {
    this.readyState = 2;
    this.dispatchEvent(new Event('error'));
  }

  close(): void {
    this.readyState = 2;
    this.controller.abort();
  }
}

describe('live stream: guests', () => {
  afterEach(() => {
    FetchEventSource.created = [];
  });

  it('uses EventSource with no Authorization, hears the named reset event, and resumes by query', async () => {
    const { stream } = makeStream({ token: null, EventSource: FetchEventSource });
    const products = recorder();
    stream.subscribe('co1', 'products', products.handlers);
    await waitFor(() => open().length === 1, 'the stream');
    expect(FetchEventSource.created).toEqual([`${baseUrl}/companies/co1/changes?resources=products`]);
    expect(streams[0]!.headers.authorization).toBeUndefined();
    const id = publish('products', [change('added', 'p1')]);
    await waitFor(() => products.batches.length === 1, 'the event');

    // The browser's EventSource gave up (readyState CLOSED): the stream retries with the id in the query.
    prunedUpTo = id;
    dropAll();
    await waitFor(() => products.resets() === 1, 'the reset');
    expect(FetchEventSource.created[1]).toBe(liveStreamUrl(baseUrl, 'co1', ['products'], String(id)));
    expect(streams[1]!.url.searchParams.get('last_event_id')).toBe(String(id));
  });

  it('switches from EventSource to the fetch reader with the bearer on sign-in', async () => {
    const { stream, setToken } = makeStream({ token: null, EventSource: FetchEventSource });
    stream.subscribe('co1', 'products', recorder().handlers);
    await waitFor(() => open().length === 1, 'the guest stream');
    setToken('signed-in');
    stream.reconnect();
    await waitFor(() => streams.length === 2 && open().length === 1, 'the signed-in stream');
    expect(FetchEventSource.created).toHaveLength(1);
    expect(streams[1]!.headers.authorization).toBe('Bearer signed-in');
  });
});

describe('live stream: errors are logged, never thrown', () => {
  it('warns about a malformed event and a throwing subscriber, and keeps delivering', async () => {
    const { stream, warnings } = makeStream({ token: 't1' });
    const good = recorder();
    stream.subscribe('co1', 'products', {
      onChanges: () => {
        throw new Error('boom');
      },
      onReset: () => undefined,
    });
    stream.subscribe('co1', 'products', good.handlers);
    await waitFor(() => open().length === 1, 'the stream');
    open()[0]!.res.write('id: 5\ndata: {not json\n\n');
    publish('products', [change('added', 'p1')]);
    await waitFor(() => good.batches.length === 1, 'the good event');
    expect(warnings.some((w) => w.includes('not JSON'))).toBe(true);
    expect(warnings.some((w) => w.includes('onChanges failed'))).toBe(true);
  });

  it('is inert during server-side rendering (no window): subscribing opens nothing', () => {
    expect(typeof window).toBe('undefined');
    const inert = getLiveStream();
    const off = inert.subscribe('co1', 'products', recorder().handlers);
    expect(off).toBeTypeOf('function');
    expect(getLiveStream()).toBe(inert);
  });
});

describe('bindResourceStore', () => {
  interface Product extends Resource {
    name: string;
    companyId?: string;
  }

  function storeWith(items: Product[], reload: () => Promise<unknown>) {
    const list: ListResult<Product> = { items, total: items.length, page: 1, perPage: 10 };
    const service = {
      list: vi.fn(async () => {
        await reload();
        return list;
      }),
    } as unknown as ResourceService<Product>;
    return createResourceStore(service);
  }

  it('applies added, modified and removed, reloads on reset, and follows the subscription', async () => {
    const { stream } = makeStream({ token: 't1' });
    const reloads = vi.fn(async () => undefined);
    const store = storeWith(
      [
        { id: 'p1', name: 'Pan' },
        { id: 'p2', name: 'Arepa' },
      ],
      reloads,
    );
    await store.getState().fetchList();
    reloads.mockClear();

    const unbind = bindResourceStore(stream, store, 'co1', 'products', () => store.getState().fetchList());
    expect(store.getState().subscribed).toBe(true);
    await waitFor(() => open().length === 1, 'the stream');

    publish('products', [change('added', 'p3', { name: 'Almojábana' })]);
    publish('products', [change('modified', 'p1', { name: 'Pan de bono' })]);
    const id = publish('products', [change('removed', 'p2')]);
    await waitFor(() => store.getState().items.length === 2 && store.getState().items[0]!.name === 'Pan de bono', 'x');
    expect(store.getState().items).toEqual([
      { id: 'p1', name: 'Pan de bono', companyId: 'co1' }, // docs/product.md §3: received items carry companyId
      { id: 'p3', name: 'Almojábana', companyId: 'co1' },
    ]);

    prunedUpTo = id;
    dropAll();
    await waitFor(() => reloads.mock.calls.length === 1, 'the reload after the reset');

    unbind();
    expect(store.getState().subscribed).toBe(false);
    await waitFor(() => open().length === 0, 'the stream to close');
  });

  it('logs a failed reload instead of leaving an unhandled rejection', async () => {
    const { stream } = makeStream({ token: 't1' });
    const store = storeWith([], async () => undefined);
    const warn = vi.fn();
    bindResourceStore(stream, store, 'co1', 'products', () => Promise.reject(new Error('offline')), { warn });
    await waitFor(() => open().length === 1, 'the stream');
    open()[0]!.res.write('event: reset\ndata: {}\n\n');
    await waitFor(() => warn.mock.calls.length === 1, 'the warning');
    expect(String(warn.mock.calls[0]![0])).toContain('products');
  });
});

describe('deferLiveStream', () => {
  /** A stream that records what is asked of it. */
  function fakeStream() {
    const subscribed: string[] = [];
    const unsubscribed: string[] = [];
    const unauthorized = new Set<() => void>();
    let reconnects = 0;
    const stream: LiveStream = {
      subscribe: (companyId, resource) => {
        subscribed.push(`${companyId}/${resource}`);
        return () => void unsubscribed.push(`${companyId}/${resource}`);
      },
      reconnect: () => void reconnects++,
      onUnauthorized: (listener) => {
        unauthorized.add(listener);
        return () => void unauthorized.delete(listener);
      },
      close: () => undefined,
    };
    return { stream, subscribed, unsubscribed, unauthorized, reconnects: () => reconnects };
  }

  it('loads the stream with the first subscription and passes on what was asked before it came', async () => {
    const fake = fakeStream();
    const load = vi.fn(() => Promise.resolve(fake.stream));
    const deferred = deferLiveStream(load);
    const listener = vi.fn();
    deferred.onUnauthorized(listener);
    deferred.reconnect();
    expect(load).not.toHaveBeenCalled();
    deferred.subscribe('co1', 'products', recorder().handlers);
    const undone = deferred.subscribe('co1', 'brands', recorder().handlers);
    undone();
    deferred.subscribe('co1', 'settings', recorder().handlers);
    await waitFor(() => fake.subscribed.length === 2, 'the subscriptions');
    expect(load).toHaveBeenCalledTimes(1);
    expect(fake.subscribed).toEqual(['co1/products', 'co1/settings']);
    expect(fake.unsubscribed).toEqual([]);
    for (const l of fake.unauthorized) l();
    expect(listener).toHaveBeenCalledTimes(1);
    // Once loaded, calls go straight through.
    const off = deferred.subscribe('co2', 'products', recorder().handlers);
    expect(fake.subscribed).toContain('co2/products');
    off();
    expect(fake.unsubscribed).toEqual(['co2/products']);
    deferred.reconnect();
    expect(fake.reconnects()).toBe(1);
  });

  it('undoes a subscription made before the stream came, once it has come', async () => {
    const fake = fakeStream();
    let resolve: (stream: LiveStream) => void = () => undefined;
    const deferred = deferLiveStream(() => new Promise((r) => (resolve = r)));
    const off = deferred.subscribe('co1', 'products', recorder().handlers);
    resolve(fake.stream);
    await waitFor(() => fake.subscribed.length === 1, 'the subscription');
    off();
    expect(fake.unsubscribed).toEqual(['co1/products']);
  });

  it('tries to load again after a failure while a subscription waits', async () => {
    vi.useFakeTimers();
    try {
      const fake = fakeStream();
      const warn = vi.fn();
      const load = vi
        .fn<() => Promise<LiveStream>>()
        .mockRejectedValueOnce(new Error('offline'))
        .mockResolvedValue(fake.stream);
      const deferred = deferLiveStream(load, { warn });
      deferred.subscribe('co1', 'products', recorder().handlers);
      await vi.advanceTimersByTimeAsync(0);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(fake.subscribed).toEqual([]);
      await vi.advanceTimersByTimeAsync(3000);
      expect(load).toHaveBeenCalledTimes(2);
      expect(fake.subscribed).toEqual(['co1/products']);
    } finally {
      vi.useRealTimers();
    }
  });
});

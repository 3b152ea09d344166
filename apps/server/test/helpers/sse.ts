import net from 'node:net';

/** A minimal event-stream client for tests: collects parsed events, waits for conditions. */
export interface SseEvent {
  id?: string;
  event?: string;
  data?: string;
  json?: { resource: string; changes: { type: string; doc: Record<string, unknown> }[] };
}

export interface SseStream {
  status: number;
  headers: Record<string, string>;
  events: SseEvent[];
  comments: string[];
  /** The last `retry:` hint received. */
  retry: string | undefined;
  waitFor(pred: (events: SseEvent[]) => boolean, ms?: number): Promise<void>;
  closed: Promise<void>;
  close(): void;
}

export async function openStream(url: string, headers: Record<string, string> = {}): Promise<SseStream> {
  const controller = new AbortController();
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal });
  const events: SseEvent[] = [];
  const comments: string[] = [];
  let retry: string | undefined;
  const waiters = new Set<() => void>();
  const notify = () => waiters.forEach((w) => w());
  let buffer = '';
  const closed = (async () => {
    if (!res.body) return;
    const decoder = new TextDecoder();
    try {
      for await (const chunk of res.body) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let idx: number;
        while ((idx = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, idx);
          buffer = buffer.slice(idx + 2);
          const ev: SseEvent = {};
          let fields = 0;
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) comments.push(line.slice(1).trim());
            else {
              const [k, ...rest] = line.split(':');
              const v = rest.join(':').replace(/^ /, '');
              if (k === 'retry') retry = v;
              if (k === 'id' || k === 'event' || k === 'data') {
                ev[k] = v;
                fields++;
              }
            }
          }
          if (fields > 0) {
            if (ev.data && ev.data.startsWith('{"resource"')) ev.json = JSON.parse(ev.data);
            events.push(ev);
          }
        }
        notify();
      }
    } catch {
      // aborted
    }
    notify();
  })();
  return {
    status: res.status,
    headers: Object.fromEntries(res.headers),
    events,
    comments,
    get retry() {
      return retry;
    },
    closed,
    close: () => controller.abort(),
    waitFor(pred, ms = 2000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (pred(events)) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve();
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `timed out after ${ms} ms; events: ${JSON.stringify(events.map((e) => e.id + ' ' + (e.event ?? '') + ' ' + (e.json?.changes.map((c) => c.type + ':' + String(c.doc.name ?? c.doc.id)).join(',') ?? '')))}`,
            ),
          );
        }, ms);
        waiters.add(check);
        check();
      });
    },
  };
}

/** Only the change events (not reset). */
export const changeEvents = (events: SseEvent[]) => events.filter((e) => e.json);

/**
 * A TCP proxy in front of the test database: cut() drops every connection through it and refuses new
 * ones until restore(), as a database restart or a network cut would.
 */
export async function tcpProxy(databaseUrl: string) {
  const target = new URL(databaseUrl);
  let accepting = true;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    if (!accepting) {
      client.destroy();
      return;
    }
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    const done = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', done);
      s.on('close', done);
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as net.AddressInfo).port);
  // The proxy speaks TCP: the embedded database's Unix socket (`?host=`) would go around it.
  url.searchParams.delete('host');
  return {
    url: url.toString(),
    cut() {
      accepting = false;
      for (const s of sockets) s.destroy();
    },
    restore() {
      accepting = true;
    },
    close() {
      for (const s of sockets) s.destroy();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

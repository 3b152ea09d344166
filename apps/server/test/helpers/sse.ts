/** A minimal event-stream client for tests: collects parsed events, waits for conditions. */
export interface SseEvent {
  id?: string;
  event?: string;
  data?: string;
  json?: { resource: string; changes: { type: string; doc: Record<string, unknown> }[] };
}

export interface SseStream {
  status: number;
  events: SseEvent[];
  comments: string[];
  waitFor(pred: (events: SseEvent[]) => boolean, ms?: number): Promise<void>;
  closed: Promise<void>;
  close(): void;
}

export async function openStream(url: string, headers: Record<string, string> = {}): Promise<SseStream> {
  const controller = new AbortController();
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal });
  const events: SseEvent[] = [];
  const comments: string[] = [];
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
    events,
    comments,
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

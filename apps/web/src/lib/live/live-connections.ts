import { GUEST_LIVE_RESOURCES } from '@hornada/domain/constants';
import { companyPath } from '../api/paths';
import type {
  EventSourceConstructor,
  EventSourceLike,
  LiveHandlers,
  LiveStream,
  LiveStreamDeps,
  LiveTimers,
} from './live-types';
import type { LiveChange } from './live-rules';
import type { SseEvent } from './sse-parser';

/**
 * The live stream itself (live-stream.ts says what it does): loaded with the tab's first subscription, not with
 * the page (the storefront's first-load budget).
 */

let fetchReader: Promise<typeof import('./live-fetch-reader')> | null = null;

const EVENT_SOURCE_CLOSED = 2;
const JITTER = 0.25;

const realTimers: LiveTimers = {
  set: (callback, ms) => setTimeout(callback, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

interface Subscription {
  handlers: LiveHandlers;
}

interface Connection {
  close(): void;
}

/** One company's stream. */
interface Channel {
  companyId: string;
  subscriptions: Map<string, Set<Subscription>>;
  lastEventId: string;
  retryMs: number;
  failures: number;
  conn: Connection | null;
  /** The resources and token the current (or retrying) connection was opened with. */
  openKey: string | null;
  openToken: string | null;
  /** Stopped on a 401 or a 4xx: no automatic retry until reconnect() or a new set of resources. */
  stopped: boolean;
  forceReopen: boolean;
  retryTimer: unknown;
  reconcileTimer: unknown;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isChange(value: unknown): value is LiveChange {
  return (
    isRecord(value) &&
    (value.type === 'added' || value.type === 'modified' || value.type === 'removed') &&
    isRecord(value.doc)
  );
}

/** The stream's path for a set of resources; `lastEventId` (for a new EventSource, which sends no header). */
export function liveStreamUrl(
  baseUrl: string,
  companyId: string,
  resources: readonly string[],
  lastEventId = '',
): string {
  const base = baseUrl.replace(/\/+$/, '');
  const list = resources.map(encodeURIComponent).join(',');
  const resume = lastEventId ? `&last_event_id=${encodeURIComponent(lastEventId)}` : '';
  return `${base}${companyPath(companyId, 'changes')}?resources=${list}${resume}`;
}

export function createLiveStream(deps: LiveStreamDeps): LiveStream {
  const timers = deps.timers ?? realTimers;
  const logger = deps.logger ?? console;
  const random = deps.random ?? Math.random;
  const defaultRetryMs = deps.retryMs ?? 3000;
  const minRetryMs = deps.minRetryMs ?? 500;
  const maxRetryMs = deps.maxRetryMs ?? 30_000;
  const rateLimitedMs = deps.rateLimitedMs ?? 30_000;
  const idleTimeoutMs = deps.idleTimeoutMs ?? 60_000;
  const debounceMs = deps.debounceMs ?? 0;
  const channels = new Map<string, Channel>();
  const unauthorizedListeners = new Set<() => void>();

  const clampRetry = (ms: number) => Math.min(maxRetryMs, Math.max(minRetryMs, ms));

  function warn(message: string, detail?: unknown): void {
    try {
      if (detail === undefined) logger.warn(`[live] ${message}`);
      else logger.warn(`[live] ${message}`, detail);
    } catch {
      // a broken logger must not break the stream
    }
  }

  function safely(what: string, call: () => void): void {
    try {
      call();
    } catch (err) {
      warn(`${what} failed`, err);
    }
  }

  function resourcesOf(ch: Channel): string[] {
    return [...ch.subscriptions.keys()].sort();
  }

  function schedule(ch: Channel): void {
    if (ch.reconcileTimer !== null) return;
    ch.reconcileTimer = timers.set(() => {
      ch.reconcileTimer = null;
      reconcile(ch);
    }, debounceMs);
  }

  function disconnect(ch: Channel): void {
    if (ch.retryTimer !== null) timers.clear(ch.retryTimer);
    ch.retryTimer = null;
    const conn = ch.conn;
    ch.conn = null;
    conn?.close();
  }

  function reconcile(ch: Channel): void {
    if (channels.get(ch.companyId) !== ch) return;
    const resources = resourcesOf(ch);
    if (resources.length === 0) {
      // Nobody listens: a later subscription starts from now, with lists loaded fresh.
      disconnect(ch);
      channels.delete(ch.companyId);
      return;
    }
    const key = resources.join(',');
    const force = ch.forceReopen;
    ch.forceReopen = false;
    if (key === ch.openKey && !force && (ch.stopped || ch.conn !== null || ch.retryTimer !== null)) return;
    disconnect(ch);
    ch.stopped = false;
    ch.failures = 0;
    connect(ch);
  }

  function connect(ch: Channel): void {
    const all = resourcesOf(ch);
    ch.openKey = all.join(',');
    const token = deps.getToken();
    ch.openToken = token;
    // Without a token only what guests may read: a signed-in list still mounted (a page being left after a
    // sign-out) would make the whole stream a 401. It follows the rest again once a token comes (reconnect).
    const resources = token === null ? all.filter((r) => GUEST_LIVE_RESOURCES.includes(r)) : all;
    if (resources.length === 0) return;
    if (token === null && deps.EventSource) openEventSource(ch, resources, deps.EventSource);
    else openFetch(ch, resources, token);
  }

  /** Waits the retry time (doubled per failure in a row, capped, plus jitter), then reconnects. */
  function retryLater(ch: Channel, failed: boolean, atLeastMs = 0): void {
    ch.conn = null;
    if (failed) ch.failures++;
    const backoff = Math.min(maxRetryMs, ch.retryMs * 2 ** Math.max(0, ch.failures - 1));
    const base = Math.max(backoff, atLeastMs);
    const delay = Math.round(base * (1 + random() * JITTER));
    ch.retryTimer = timers.set(() => {
      ch.retryTimer = null;
      if (channels.get(ch.companyId) === ch && !ch.stopped) connect(ch);
    }, delay);
  }

  function stop(ch: Channel): void {
    ch.conn = null;
    ch.stopped = true;
  }

  function dispatch(ch: Channel, event: SseEvent): void {
    if (event.lastEventId) ch.lastEventId = event.lastEventId;
    if (event.type === 'reset') {
      for (const subs of [...ch.subscriptions.values()])
        for (const sub of [...subs]) safely('onReset', () => sub.handlers.onReset());
      return;
    }
    if (event.type !== 'message') return;
    let payload: unknown;
    try {
      payload = JSON.parse(event.data);
    } catch (err) {
      warn('an event that is not JSON was ignored', err);
      return;
    }
    if (!isRecord(payload) || typeof payload.resource !== 'string' || !Array.isArray(payload.changes)) {
      warn('an event without resource and changes was ignored', payload);
      return;
    }
    const subs = ch.subscriptions.get(payload.resource);
    if (!subs) return;
    const changes = payload.changes.filter(isChange);
    if (changes.length === 0) return;
    for (const sub of [...subs]) safely('onChanges', () => sub.handlers.onChanges(changes));
  }

  function openEventSource(ch: Channel, resources: string[], Source: EventSourceConstructor): void {
    // A new EventSource sends no Last-Event-ID header: the resume point goes in the query. When the
    // browser reconnects by itself it sends the header, which the server prefers.
    const url = liveStreamUrl(deps.baseUrl, ch.companyId, resources, ch.lastEventId);
    let source: EventSourceLike;
    try {
      source = new Source(url);
    } catch (err) {
      warn('could not open the stream', err);
      retryLater(ch, true);
      return;
    }
    const conn: Connection = { close: () => source.close() };
    ch.conn = conn;
    const current = () => ch.conn === conn;
    let warned = false;
    const onEvent = (event: Event) => {
      if (!current()) return;
      const message = event as MessageEvent<unknown>;
      dispatch(ch, {
        type: event.type,
        data: typeof message.data === 'string' ? message.data : '',
        lastEventId: typeof message.lastEventId === 'string' ? message.lastEventId : '',
      });
    };
    source.addEventListener('message', onEvent);
    source.addEventListener('reset', onEvent);
    source.addEventListener('open', () => {
      if (!current()) return;
      ch.failures = 0;
      warned = false;
    });
    source.addEventListener('error', () => {
      if (!current()) return;
      if (source.readyState === EVENT_SOURCE_CLOSED) {
        // The browser gave up (an HTTP error such as 429 or 5xx): retry ourselves, backing off.
        warn('the stream failed; retrying');
        source.close();
        retryLater(ch, true);
      } else if (!warned) {
        warned = true; // the browser reconnects by itself, with Last-Event-ID
        warn('the stream was interrupted; reconnecting');
      }
    });
  }

  function openFetch(ch: Channel, resources: string[], token: string | null): void {
    const controller = new AbortController();
    const conn: Connection = { close: () => controller.abort() };
    ch.conn = conn;
    const current = () => ch.conn === conn;
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (token !== null) headers.authorization = `Bearer ${token}`;
    if (ch.lastEventId) headers['last-event-id'] = ch.lastEventId;
    const url = liveStreamUrl(deps.baseUrl, ch.companyId, resources);
    // The reader and its parser come with the first fetch-read stream (a signed-in user's), not with a guest's page.
    fetchReader ??= import('./live-fetch-reader');
    fetchReader.then(
      ({ readStream }) => {
        if (!current()) return;
        void readStream({
          url,
          headers,
          controller,
          fetch: deps.fetch,
          timers,
          idleTimeoutMs,
          rateLimitedMs,
          lastEventId: () => ch.lastEventId,
          current,
          warn,
          retryLater: (failed, atLeastMs) => retryLater(ch, failed, atLeastMs),
          stop: () => stop(ch),
          unauthorized: () => {
            for (const listener of [...unauthorizedListeners]) safely('onUnauthorized', listener);
          },
          opened: () => {
            ch.failures = 0;
          },
          dispatch: (event) => dispatch(ch, event),
          setRetry: (ms) => {
            ch.retryMs = clampRetry(ms);
          },
          setLastEventId: (id) => {
            ch.lastEventId = id;
          },
        });
      },
      (err: unknown) => {
        fetchReader = null;
        if (!current()) return;
        warn('could not load the stream reader; retrying', err);
        retryLater(ch, true);
      },
    );
  }

  return {
    subscribe(companyId, resource, handlers) {
      let ch = channels.get(companyId);
      if (!ch) {
        ch = {
          companyId,
          subscriptions: new Map(),
          lastEventId: '',
          retryMs: clampRetry(defaultRetryMs),
          failures: 0,
          conn: null,
          openKey: null,
          openToken: null,
          stopped: false,
          forceReopen: false,
          retryTimer: null,
          reconcileTimer: null,
        };
        channels.set(companyId, ch);
      }
      const channel = ch;
      // A wrapper, so the same handlers subscribed twice count twice.
      const sub: Subscription = { handlers };
      let subs = channel.subscriptions.get(resource);
      if (!subs) {
        subs = new Set();
        channel.subscriptions.set(resource, subs);
        schedule(channel);
      }
      subs.add(sub);
      let active = true;
      return () => {
        if (!active) return;
        active = false;
        const set = channel.subscriptions.get(resource);
        if (!set?.delete(sub) || set.size > 0) return;
        channel.subscriptions.delete(resource);
        schedule(channel);
      };
    },

    reconnect() {
      const token = deps.getToken();
      for (const ch of channels.values()) {
        if (ch.openKey === null) continue; // not opened yet: it will read the token when it opens
        if (!ch.stopped && ch.openToken === token) continue;
        ch.forceReopen = true;
        schedule(ch);
      }
    },

    onUnauthorized(listener) {
      unauthorizedListeners.add(listener);
      return () => void unauthorizedListeners.delete(listener);
    },

    close() {
      for (const ch of channels.values()) {
        if (ch.reconcileTimer !== null) timers.clear(ch.reconcileTimer);
        ch.reconcileTimer = null;
        disconnect(ch);
      }
      channels.clear();
    },
  };
}

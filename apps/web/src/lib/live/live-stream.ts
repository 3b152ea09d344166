import { browserTokenStorage } from '../auth/token-storage';
import type { LiveLogger, LiveStream } from './live-types';
import type { Resource } from '../api/resource-service';
import type { ResourceStore } from '../api/resource-store';

/**
 * The web's live stream transport (docs/product.md §7 "Live subscription", docs/design.md §1/§3): ONE connection per company
 * and browser tab carries every resource the tab watches (browsers allow 6 connections per host), opened
 * with `GET {base}/companies/{companyId}/changes?resources=a,b`. Guests use the browser's EventSource;
 * signed-in users a fetch-based reader that sends the bearer token. Errors are only logged (docs/product.md §7), with
 * console.warn, never thrown at the user. The code that opens the connections (live-connections.ts) is loaded
 * with the tab's first subscription (getLiveStream).
 */

export type {
  EventSourceConstructor,
  EventSourceLike,
  LiveHandlers,
  LiveLogger,
  LiveStream,
  LiveStreamDeps,
  LiveTimers,
} from './live-types';

/**
 * Wires a list store (resource-store.ts) to the stream: each event's changes go through `applyChanges`,
 * a reset calls `reload()` (the list is loaded again), and `subscribed` follows the subscription.
 * Returns the function that undoes it.
 */
export function bindResourceStore<T extends Resource>(
  stream: LiveStream,
  store: ResourceStore<T>,
  companyId: string,
  resource: string,
  reload: () => unknown,
  logger: LiveLogger = console,
): () => void {
  const unsubscribe = stream.subscribe(companyId, resource, {
    onChanges: (changes) => store.getState().applyChanges(changes, companyId),
    onReset: () => {
      // The store keeps the error for the screen; here it only must not become an unhandled rejection.
      Promise.resolve()
        .then(reload)
        .catch((err: unknown) => logger.warn(`[live] reloading ${resource} after a reset failed`, err));
    },
  });
  store.getState().setSubscribed(true);
  return () => {
    unsubscribe();
    store.getState().setSubscribed(false);
  };
}

/** Does nothing: what server-side rendering gets (effects never run there). */
const inertStream: LiveStream = {
  subscribe: () => () => undefined,
  reconnect: () => undefined,
  onUnauthorized: () => () => undefined,
  close: () => undefined,
};

/** How long a stream whose code could not be loaded (no signal) waits before trying again. */
const LOAD_RETRY_MS = 3000;

/**
 * The tab's stream while its code (live-connections.ts) is still to come: it is loaded by the first subscription,
 * after the page's first render, so that it is not in the storefront's first load. What is asked before it is
 * there is passed on to it once loaded; a subscription undone before then opens nothing. Should the code fail
 * to load, it is tried again while a subscription waits.
 */
export function deferLiveStream(load: () => Promise<LiveStream>, logger: LiveLogger = console): LiveStream {
  let real: LiveStream | null = null;
  let loading = false;
  /** What waits for the stream, each with whether it is a subscription (close() forgets those). */
  const waiting = new Map<(stream: LiveStream) => void, boolean>();

  function start(): void {
    if (loading) return;
    loading = true;
    load().then(
      (stream) => {
        real = stream;
        for (const apply of [...waiting.keys()]) apply(stream);
        waiting.clear();
      },
      (err: unknown) => {
        loading = false;
        logger.warn('[live] could not load the stream; retrying', err);
        setTimeout(() => {
          if ([...waiting.values()].includes(true)) start();
        }, LOAD_RETRY_MS);
      },
    );
  }

  /** Applies `pass` to the stream, now or once it is loaded; returns what undoes it, either way. */
  function whenLoaded(pass: (stream: LiveStream) => () => void, subscription: boolean): () => void {
    if (real) return pass(real);
    let undo: (() => void) | null = null;
    let active = true;
    const apply = (stream: LiveStream) => {
      undo = pass(stream);
    };
    waiting.set(apply, subscription);
    if (subscription) start();
    return () => {
      if (!active) return;
      active = false;
      waiting.delete(apply);
      undo?.();
    };
  }

  return {
    subscribe: (companyId, resource, handlers) =>
      whenLoaded((stream) => stream.subscribe(companyId, resource, handlers), true),
    // Before the stream is loaded no connection is open: each opens with the token of its time.
    reconnect: () => real?.reconnect(),
    onUnauthorized: (listener) => whenLoaded((stream) => stream.onUnauthorized(listener), false),
    close() {
      for (const [apply, subscription] of [...waiting]) if (subscription) waiting.delete(apply);
      real?.close();
    },
  };
}

let browserStream: LiveStream | null = null;

/**
 * The tab's stream, built on first use: `/api`, the token from local storage, the browser's EventSource
 * for guests. On the server (no window) an inert stream; nothing here touches browser globals at import.
 */
export function getLiveStream(): LiveStream {
  if (typeof window === 'undefined' || typeof fetch !== 'function') return inertStream;
  browserStream ??= deferLiveStream(() =>
    import('./live-connections').then(({ createLiveStream }) =>
      createLiveStream({
        baseUrl: '/api',
        getToken: () => browserTokenStorage.get(),
        EventSource: typeof EventSource === 'function' ? EventSource : undefined,
        fetch: (input, init) => fetch(input, init),
      }),
    ),
  );
  return browserStream;
}

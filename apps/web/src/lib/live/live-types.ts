import type { LiveTimers } from './live-fetch-reader';
import type { LiveChange } from './live-rules';

/**
 * What the live stream offers and what it is built from (live-stream.ts says what it does): apart from both the
 * stream's face (live-stream.ts) and its connections (live-connections.ts, loaded later), which both use them.
 */

export interface LiveHandlers {
  /** One committed transaction's changes for the subscribed resource. */
  onChanges(changes: LiveChange[]): void;
  /** The server could not resume (Last-Event-ID too old or unknown): reload the list. */
  onReset(): void;
}

/** What this module uses of the browser's EventSource (an EventTarget with readyState and close). */
export interface EventSourceLike {
  readonly readyState: number;
  addEventListener(type: string, listener: (event: Event) => void): void;
  close(): void;
}
export type EventSourceConstructor = new (url: string) => EventSourceLike;

export type { LiveTimers };

export interface LiveLogger {
  warn(message: string, detail?: unknown): void;
}

export interface LiveStreamDeps {
  /** `/api` in the browser; an absolute URL in tests. */
  baseUrl: string;
  /** The current id token; null for a guest. Read at every (re)connection. */
  getToken(): string | null;
  /** For guests. Without it guests use the fetch reader too (no Authorization header). */
  EventSource?: EventSourceConstructor;
  fetch: typeof fetch;
  timers?: LiveTimers;
  logger?: LiveLogger;
  /** Jitter source, [0, 1). */
  random?: () => number;
  /** Reconnection delay until the server sends `retry:` (the server sends 3000). */
  retryMs?: number;
  /** Bounds on `retry:` hints and the backoff. */
  minRetryMs?: number;
  maxRetryMs?: number;
  /** Wait after a 429 that names no Retry-After (the server names 30 s); Retry-After is capped at 4× this. */
  rateLimitedMs?: number;
  /** Fetch reader: with no byte for this long (heartbeats come every 25 s) the connection is taken as dead. */
  idleTimeoutMs?: number;
  /** How long subscribe/unsubscribe changes gather before the stream (re)opens: one render, one stream. */
  debounceMs?: number;
}

export interface LiveStream {
  /**
   * Follows `resource` of `companyId`; returns the unsubscribe function. The connection opens (or reopens
   * with the new set of resources, resuming from the last event id) after a short debounce, and closes
   * when nothing is subscribed. Each company has its own connection (the app watches one).
   */
  subscribe(companyId: string, resource: string, handlers: LiveHandlers): () => void;
  /**
   * Applies a change of credentials (sign-in, sign-out, refresh): every connection whose token is not the
   * current one, or that stopped on a 401, reopens with it, resuming from its last event id.
   */
  reconnect(): void;
  /** Called when the server answers 401: that connection stops until reconnect(). */
  onUnauthorized(listener: () => void): () => void;
  /** Closes every connection and forgets every subscriber. */
  close(): void;
}

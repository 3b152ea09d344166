import { createSseParser, type SseEvent } from './sse-parser';

/** The clock; tests and the browser pass their own. */
export interface LiveTimers {
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

/**
 * The fetch-based reader of the live stream (live-stream.ts), which sends the bearer token EventSource cannot:
 * a signed-in user's, loaded with their first stream rather than with a guest's page (the storefront's first-load budget).
 */

/** One connection's request and what the stream (live-stream.ts) does with each outcome. */
export interface FetchReadContext {
  url: string;
  headers: Record<string, string>;
  /** Aborting it ends the connection (the stream closes it; the reader, when the stream goes silent). */
  controller: AbortController;
  fetch: typeof fetch;
  timers: LiveTimers;
  idleTimeoutMs: number;
  rateLimitedMs: number;
  /** The id to resume from when the stream opens. */
  lastEventId(): string;
  /** Whether this is still the channel's connection: a replaced one does nothing more. */
  current(): boolean;
  warn(message: string, detail?: unknown): void;
  retryLater(failed: boolean, atLeastMs?: number): void;
  /** No automatic retry until the credentials or the resources change. */
  stop(): void;
  /** The server answered 401. */
  unauthorized(): void;
  /** The stream opened. */
  opened(): void;
  dispatch(event: SseEvent): void;
  setRetry(ms: number): void;
  setLastEventId(id: string): void;
}

/** Opens the connection and reads it until it ends, fails or is replaced. */
export async function readStream(ctx: FetchReadContext): Promise<void> {
  let idleTimer: unknown = null;
  const disarm = () => {
    if (idleTimer !== null) ctx.timers.clear(idleTimer);
    idleTimer = null;
  };
  const arm = () => {
    disarm();
    idleTimer = ctx.timers.set(() => {
      idleTimer = null;
      if (!ctx.current()) return;
      ctx.warn('the stream went silent; reconnecting');
      ctx.controller.abort();
      ctx.retryLater(true);
    }, ctx.idleTimeoutMs);
  };

  let res: Response;
  try {
    arm();
    res = await ctx.fetch(ctx.url, { headers: ctx.headers, signal: ctx.controller.signal });
  } catch (err) {
    disarm();
    if (!ctx.current()) return;
    ctx.warn('could not reach the stream; retrying', err);
    ctx.retryLater(true);
    return;
  }
  const type = res.headers.get('content-type') ?? '';
  if (res.status !== 200 || !type.includes('text/event-stream') || !res.body) {
    disarm();
    void res.body?.cancel().catch(() => undefined);
    if (!ctx.current()) return;
    if (res.status === 401) {
      ctx.warn('the stream was refused (401): stopped until the credentials change');
      ctx.stop();
      ctx.unauthorized();
    } else if (res.status === 429) {
      const seconds = Number(res.headers.get('retry-after'));
      const wait = Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds * 1000, ctx.rateLimitedMs * 4) : 0;
      ctx.warn('too many streams (429); retrying later');
      ctx.retryLater(true, Math.max(wait, ctx.rateLimitedMs));
    } else if (res.status >= 500 || res.status === 408 || res.status === 200) {
      ctx.warn(`the stream answered ${res.status} ${type}; retrying`);
      ctx.retryLater(true);
    } else {
      // 400, 403, 404: asking again will not help until the resources or the credentials change.
      ctx.warn(`the stream was refused (${res.status}): stopped`);
      ctx.stop();
    }
    return;
  }

  ctx.opened();
  const parser = createSseParser(
    {
      onEvent: (event) => {
        if (ctx.current()) ctx.dispatch(event);
      },
      onRetry: (ms) => {
        ctx.setRetry(ms);
      },
    },
    ctx.lastEventId(),
  );
  const reader = res.body.getReader();
  try {
    for (;;) {
      arm();
      const { done, value } = await reader.read();
      if (!ctx.current()) return;
      if (done) break;
      parser.feed(value);
      // An event with an id and no data still moves the resume point.
      if (parser.lastEventId) ctx.setLastEventId(parser.lastEventId);
    }
    parser.end();
  } catch (err) {
    if (!ctx.current()) return;
    ctx.warn('the stream was interrupted; reconnecting', err);
  } finally {
    disarm();
  }
  if (ctx.current()) ctx.retryLater(false); // the server ended the stream: come back after `retry`
}

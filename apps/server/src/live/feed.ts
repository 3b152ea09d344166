import { and, asc, eq, gt, inArray, lte, lt, sql } from 'drizzle-orm';
import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db';
import { changeLog } from '../db/schema';
import type { Clock } from '../lib/clock';
import { CHANGES_CHANNEL, type Change } from './change-log';

export const HEARTBEAT_MS = 25_000;
export const RETENTION_DAYS = 7;
/** application_name of the one LISTEN connection, so operators (and tests) can find it. */
export const LISTENER_APPLICATION_NAME = 'hornada-live';
/** A subscriber whose unsent output passes this is closed and resumes from the log. */
export const MAX_BUFFERED_BYTES = 1_048_576;
const REPLAY_BATCH = 500;

export interface LogRow {
  position: number;
  companyId: string;
  resource: string;
  changes: Change[];
}

/**
 * Decides what one subscriber receives of one log row, reading the caller's current state each time
 * (so a role change or a disabled account bites at once): the changes it may read, or null for none;
 * 'close' ends the stream (the caller can no longer read anything here).
 */
export type Visibility = (
  uid: string | null,
  row: LogRow,
  tokenIssuedAt?: number | null,
) => Promise<Change[] | null | 'close'>;

export interface Subscriber {
  companyId: string;
  resources: ReadonlySet<string>;
  uid: string | null;
  /** `iat` of the id token that opened the stream: it ends when the user's sessions end after it. */
  tokenIssuedAt?: number | null;
  /** Last position this subscriber has been brought up to (sent or filtered out). */
  cursor: number;
  live: boolean;
  closed: boolean;
  write(chunk: string): void;
  /** Bytes written but not yet taken by the socket. */
  buffered(): number;
  end(): void;
}

/** One event as design §3 writes it. */
export function formatEvent(position: number, resource: string, changes: Change[]): string {
  return `id: ${position}\ndata: ${JSON.stringify({ resource, changes })}\n\n`;
}

export interface FeedOptions {
  /** Interval of the heartbeat comment (design §3: 25 s). */
  heartbeatMs?: number;
  /** Backoff bounds for reconnecting the listener and retrying a failed pump. */
  retryMinMs?: number;
  retryMaxMs?: number;
  applicationName?: string;
}

/**
 * Reads a Last-Event-ID (header or parameter). Absent: null, the stream starts from now. Anything that
 * is not a positive integer (empty, `0`, garbage) can name no log position we issued, so it gets 0,
 * which subscribe() answers with `event: reset`: the client reloads instead of trusting a history
 * that may have been pruned.
 */
export function parseLastEventId(raw: string | undefined): number | null {
  if (raw === undefined) return null;
  const text = raw.trim();
  if (!/^\d{1,15}$/.test(text)) return 0;
  return Number(text);
}

/**
 * The change feed of one instance: one LISTEN connection (not one per subscriber), a pump that reads
 * the log in position order and fans each row out to this instance's subscribers and cache, resume
 * from Last-Event-ID, heartbeats, retention and back-pressure. A lost listener reconnects with
 * backoff until stop(), and a failed pump retries with backoff: notifications missed meanwhile are
 * caught up from the log, which is the source of truth.
 */
export class LiveFeed {
  private listener: pg.Client | null = null;
  private readonly subscribers = new Set<Subscriber>();
  private lastPosition = 0;
  private pumping: Promise<void> | null = null;
  private again = false;
  private heartbeat: NodeJS.Timeout | null = null;
  private pruning: NodeJS.Timeout | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private pumpRetryTimer: NodeJS.Timeout | null = null;
  private listenerFailures = 0;
  private pumpFailures = 0;
  private stopped = false;
  readonly heartbeatMs: number;
  private readonly retryMinMs: number;
  private readonly retryMaxMs: number;
  private readonly applicationName: string;
  /** Called for every row read from the log, before delivery: caches forget what it touched. */
  readonly onRow: ((row: LogRow) => void)[] = [];

  constructor(
    private readonly db: Db,
    private readonly url: string,
    private readonly clock: Clock,
    private readonly visibility: Visibility,
    private readonly log: FastifyBaseLogger,
    options: FeedOptions = {},
  ) {
    this.heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
    this.retryMinMs = options.retryMinMs ?? 250;
    this.retryMaxMs = options.retryMaxMs ?? 10_000;
    this.applicationName = options.applicationName ?? LISTENER_APPLICATION_NAME;
  }

  async start(): Promise<void> {
    const [max] = await this.db
      .select({ p: sql<number>`coalesce(max(${changeLog.position}), 0)::bigint` })
      .from(changeLog);
    this.lastPosition = Number(max?.p ?? 0);
    // The first connection must succeed: an instance that cannot listen should not start.
    await this.connectListener();
    this.heartbeat = setInterval(() => this.beat(), this.heartbeatMs);
    this.heartbeat.unref();
    this.pruning = setInterval(
      () => void this.prune().catch((err) => this.log.warn({ err }, 'change log prune failed')),
      3_600_000,
    );
    this.pruning.unref();
    await this.prune();
  }

  /** Exponential backoff with jitter, so instances that lost the database do not return in step. */
  private backoff(failures: number): number {
    const base = Math.min(this.retryMaxMs, this.retryMinMs * 2 ** Math.min(failures, 20));
    return Math.round(base * (0.8 + Math.random() * 0.4));
  }

  private async connectListener(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url, application_name: this.applicationName });
    let ready = false;
    let lost = false;
    const onLost = (err?: Error) => {
      // Only a listener that was up counts; a failed connect is reported by connect() itself.
      if (!ready || lost) return;
      lost = true;
      if (this.listener === client) this.listener = null;
      void client.end().catch(() => {});
      if (this.stopped) return;
      this.log.warn({ err }, 'change feed listener lost; reconnecting');
      this.scheduleReconnect();
    };
    client.on('notification', () => this.pump());
    client.on('error', onLost);
    client.on('end', () => onLost());
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGES_CHANNEL}`);
    } catch (err) {
      await client.end().catch(() => {});
      throw err;
    }
    if (this.stopped) {
      await client.end().catch(() => {});
      return;
    }
    ready = true;
    this.listener = client;
    this.listenerFailures = 0;
    // Anything committed while we were not listening.
    this.pump();
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.reconnectTimer) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (this.stopped) return;
      this.connectListener().catch((err: unknown) => {
        this.log.warn({ err }, 'change feed listener reconnect failed; retrying');
        this.scheduleReconnect();
      });
    }, this.backoff(this.listenerFailures++));
    this.reconnectTimer.unref();
  }

  private schedulePumpRetry(): void {
    if (this.stopped || this.pumpRetryTimer) return;
    this.pumpRetryTimer = setTimeout(() => {
      this.pumpRetryTimer = null;
      this.pump();
    }, this.backoff(this.pumpFailures++));
    this.pumpRetryTimer.unref();
  }

  /** Reads new log rows in order; one pump at a time, re-run if notified meanwhile. */
  pump(): void {
    if (this.stopped) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    if (this.pumpRetryTimer) {
      // A notification arrived first: try now; a failure schedules the next retry.
      clearTimeout(this.pumpRetryTimer);
      this.pumpRetryTimer = null;
    }
    this.pumping = (async () => {
      do {
        this.again = false;
        for (;;) {
          const rows = await this.readAfter(this.lastPosition, REPLAY_BATCH);
          for (const row of rows) {
            for (const fn of this.onRow) fn(row);
            this.lastPosition = row.position;
            await this.deliver(row);
          }
          if (rows.length < REPLAY_BATCH) break;
        }
      } while (this.again && !this.stopped);
      this.pumpFailures = 0;
    })()
      .catch((err: unknown) => {
        // The log keeps what we could not read: retry rather than wait for the next notification.
        this.log.error({ err }, 'change feed pump failed; retrying');
        this.schedulePumpRetry();
      })
      .finally(() => {
        this.pumping = null;
      });
  }

  /** Resolves when every notification received so far has been pumped (tests and benchmarks). */
  async settled(): Promise<void> {
    while (this.pumping) await this.pumping;
  }

  private async readAfter(
    position: number,
    limit: number,
    filter?: { companyId: string; resources: string[]; upTo: number },
  ) {
    const conds = [gt(changeLog.position, position)];
    if (filter) {
      conds.push(
        eq(changeLog.companyId, filter.companyId),
        inArray(changeLog.resource, filter.resources),
        lte(changeLog.position, filter.upTo),
      );
    }
    const rows = await this.db
      .select({
        position: changeLog.position,
        companyId: changeLog.companyId,
        resource: changeLog.resource,
        changes: changeLog.changes,
      })
      .from(changeLog)
      .where(and(...conds))
      .orderBy(asc(changeLog.position))
      .limit(limit);
    return rows as LogRow[];
  }

  private async deliver(row: LogRow): Promise<void> {
    // A change to a user is checked against that user's own streams whatever they watch, so that
    // disabling or deleting an account ends its streams at once.
    const touchedUsers = row.resource === 'users' ? new Set(row.changes.map((c) => String(c.doc.id))) : null;
    const wants = (s: Subscriber) =>
      s.companyId === row.companyId && s.resources.has(row.resource) && row.position > s.cursor;
    const targets = [...this.subscribers].filter(
      (s) => s.live && !s.closed && (wants(s) || (touchedUsers !== null && s.uid !== null && touchedUsers.has(s.uid))),
    );
    // One serialisation per distinct view of the row, not one per subscriber.
    const rendered = new Map<string, string>();
    await Promise.all(
      targets.map(async (sub) => {
        const wanted = wants(sub);
        let view: Awaited<ReturnType<Visibility>>;
        try {
          view = await this.visibility(sub.uid, row, sub.tokenIssuedAt);
        } catch (err) {
          // Cannot tell what it may read now: close it; it resumes from the log with Last-Event-ID.
          this.log.warn({ err }, 'live visibility check failed; closing the stream');
          return this.close(sub, 2000);
        }
        if (view === 'close') return this.close(sub);
        if (!wanted) return;
        sub.cursor = row.position;
        if (!view || view.length === 0) return;
        const key = JSON.stringify(view.map((c) => [c.type, c.doc.id, Object.keys(c.doc).length]));
        let chunk = rendered.get(key);
        if (!chunk) {
          chunk = formatEvent(row.position, row.resource, view);
          rendered.set(key, chunk);
        }
        this.send(sub, chunk);
      }),
    );
  }

  private send(sub: Subscriber, chunk: string): void {
    if (sub.closed) return;
    sub.write(chunk);
    // A subscriber that stops reading is cut loose; it resumes from the log with Last-Event-ID.
    if (sub.buffered() > MAX_BUFFERED_BYTES) this.close(sub, 2000);
  }

  close(sub: Subscriber, retryMs = 1000): void {
    if (sub.closed) return;
    sub.closed = true;
    this.subscribers.delete(sub);
    try {
      sub.write(`retry: ${retryMs}\n\n`);
    } finally {
      sub.end();
    }
  }

  /**
   * Adds a subscriber. `lastEventId` null starts from now. A positive id replays the log after that
   * position; an id ≤ 0 (see parseLastEventId), one the log no longer holds (pruned, or never
   * issued) or one older than the kept window gets `event: reset` and the client reloads.
   */
  async subscribe(sub: Subscriber, lastEventId: number | null): Promise<void> {
    // The client may have gone before we got here; its close handler has already run.
    if (sub.closed) return;
    this.subscribers.add(sub);
    if (lastEventId === null) {
      sub.cursor = this.lastPosition;
      sub.live = true;
      return;
    }
    if (lastEventId <= 0 || !(await this.known(lastEventId))) {
      if (sub.closed) return;
      sub.write('event: reset\ndata: {}\n\n');
      sub.cursor = this.lastPosition;
      sub.live = true;
      return;
    }
    sub.cursor = lastEventId;
    // Replay up to what the pump has handled; repeat until caught up, then go live with no await
    // between the last check and the switch, so nothing is missed or sent twice. An id beyond what
    // this instance's pump has reached (the client came from a faster instance) replays nothing and
    // the pump delivers only what follows it.
    for (;;) {
      if (sub.closed) return;
      const upTo = this.lastPosition;
      const rows = await this.readAfter(sub.cursor, REPLAY_BATCH, {
        companyId: sub.companyId,
        resources: [...sub.resources],
        upTo,
      });
      for (const row of rows) {
        if (sub.closed) return;
        const view = await this.visibility(sub.uid, row, sub.tokenIssuedAt);
        sub.cursor = row.position;
        if (view === 'close') return this.close(sub);
        if (view && view.length > 0) this.send(sub, formatEvent(row.position, row.resource, view));
      }
      if (rows.length < REPLAY_BATCH) {
        sub.cursor = Math.max(sub.cursor, upTo);
        if (this.lastPosition === upTo) {
          sub.live = true;
          return;
        }
      }
    }
  }

  unsubscribe(sub: Subscriber): void {
    sub.closed = true;
    this.subscribers.delete(sub);
  }

  private cutoff(): Date {
    return new Date(this.clock.now().getTime() - RETENTION_DAYS * 86_400_000);
  }

  /**
   * Whether a resume from `position` is exact: the row is in the database (not only up to what this
   * instance has pumped) and inside the kept window, even if the hourly prune has not run yet.
   */
  private async known(position: number): Promise<boolean> {
    const [row] = await this.db
      .select({ createdAt: changeLog.createdAt })
      .from(changeLog)
      .where(eq(changeLog.position, position))
      .limit(1);
    return row !== undefined && row.createdAt.getTime() >= this.cutoff().getTime();
  }

  private beat(): void {
    for (const sub of this.subscribers) if (sub.live) this.send(sub, ': heartbeat\n\n');
  }

  /** Keeps 7 days of log (design §3). */
  async prune(): Promise<void> {
    await this.db.delete(changeLog).where(lt(changeLog.createdAt, this.cutoff()));
  }

  get subscriberCount(): number {
    return this.subscribers.size;
  }

  /** Shutdown: every stream ends with a retry hint, then the listener closes. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.pruning) clearInterval(this.pruning);
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    if (this.pumpRetryTimer) clearTimeout(this.pumpRetryTimer);
    for (const sub of [...this.subscribers]) this.close(sub, 1000);
    await this.settled().catch(() => {});
    await this.listener?.end().catch(() => {});
    this.listener = null;
  }
}

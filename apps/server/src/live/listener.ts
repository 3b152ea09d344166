import { and, asc, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db';
import { changeLog } from '../db/schema';
import { CHANGES_CHANNEL, type Change } from '../db/change-log';

/** application_name of the one LISTEN connection, so operators (and tests) can find it. */
export const LISTENER_APPLICATION_NAME = 'hornada-live';
/** Rows read from the log at a time, by the pump and by a resume. */
export const LOG_BATCH = 500;
/** The last committed log position (positions follow commit order: none below it is still to come). */
const HEAD_SQL = 'SELECT coalesce(max(position), 0) AS p FROM change_log';
/** How long a request waits to learn that this instance's caches are current before it reads the database. */
const HEAD_TIMEOUT_MS = 2000;

export interface LogRow {
  position: number;
  companyId: string;
  resource: string;
  changes: Change[];
}

/** What the listener has been through since it started: counted for operators and for tests to wait on. */
export interface ListenerStats {
  /** Notifications heard on the LISTEN connection. */
  notifications: number;
  /** Reconnects of a lost listener that succeeded / that failed (each failure schedules the next try). */
  reconnects: number;
  reconnectFailures: number;
  /** Pumps that failed (each schedules a retry). */
  pumpFailures: number;
  /** Reads of the log's head for caughtUp() (many requests share one). */
  headQueries: number;
}

export interface ListenerOptions {
  /** Backoff bounds for reconnecting the listener and retrying a failed pump. */
  retryMinMs?: number;
  retryMaxMs?: number;
  applicationName?: string;
}

/**
 * Committed log rows after `position`, in position order. `filter` narrows to one subscriber's
 * company and resources, up to a position (a resume).
 */
export async function readLog(
  db: Db,
  position: number,
  limit: number,
  filter?: { companyId: string; resources: string[]; upTo: number },
): Promise<LogRow[]> {
  const conds = [gt(changeLog.position, position)];
  if (filter) {
    conds.push(
      eq(changeLog.companyId, filter.companyId),
      inArray(changeLog.resource, filter.resources),
      lte(changeLog.position, filter.upTo),
    );
  }
  const rows = await db
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

/**
 * One LISTEN connection per instance (not one per subscriber) and the pump it drives: on each
 * notification the pump reads the log after the last row it handled, in position order, and hands
 * every row on. A lost listener reconnects with backoff until stop(), and a failed pump retries with
 * backoff: notifications missed meanwhile are caught up from the log, which is the source of truth.
 */
export class ChangeListener {
  private client: pg.Client | null = null;
  private lastPosition = 0;
  private pumping: Promise<void> | null = null;
  private again = false;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private pumpRetryTimer: NodeJS.Timeout | null = null;
  private listenerFailures = 0;
  private pumpFailures = 0;
  private stopped = false;
  /** When the oldest notification not yet answered by a read of the log arrived (performance.now()). */
  private heardAt: number | null = null;
  private readonly retryMinMs: number;
  private readonly retryMaxMs: number;
  private readonly applicationName: string;
  /**
   * Called for every row read from the log, before delivery: caches forget what it touched. Not for a
   * row this instance committed itself, whose changes its caches forgot at commit (appliedAtCommit).
   */
  readonly onRow: ((row: LogRow) => void)[] = [];
  /** Positions this instance committed and already forgot at commit, until the pump reads them. */
  private readonly appliedAhead = new Set<number>();
  /** Requests waiting for the pump to reach a log position (caughtUp). */
  private readonly waiters = new Set<{ target: number; done: (ok: boolean) => void }>();
  /** The head query this event-loop turn's requests share, until it is sent (caughtUp). */
  private headQueued: Promise<number> | null = null;
  readonly stats: ListenerStats = {
    notifications: 0,
    reconnects: 0,
    reconnectFailures: 0,
    pumpFailures: 0,
    headQueries: 0,
  };

  constructor(
    private readonly db: Db,
    private readonly url: string,
    /**
     * Hands on the rows of one read, in order, with when the notification that led to reading them
     * arrived (performance.now()); the pump reads on when it resolves.
     */
    private readonly deliver: (rows: LogRow[], heardAt: number) => Promise<void>,
    private readonly log: FastifyBaseLogger,
    options: ListenerOptions = {},
  ) {
    this.retryMinMs = options.retryMinMs ?? 250;
    this.retryMaxMs = options.retryMaxMs ?? 10_000;
    this.applicationName = options.applicationName ?? LISTENER_APPLICATION_NAME;
  }

  /** Position of the last row the pump has read (and handed on, or is handing on). */
  get position(): number {
    return this.lastPosition;
  }

  async start(): Promise<void> {
    const [max] = await this.db
      .select({ p: sql<number>`coalesce(max(${changeLog.position}), 0)::bigint` })
      .from(changeLog);
    this.lastPosition = Number(max?.p ?? 0);
    for (const p of this.appliedAhead) if (p <= this.lastPosition) this.appliedAhead.delete(p);
    // The first connection must succeed: an instance that cannot listen should not start.
    await this.connect();
  }

  /** Exponential backoff with jitter, so instances that lost the database do not return in step. */
  private backoff(failures: number): number {
    const base = Math.min(this.retryMaxMs, this.retryMinMs * 2 ** Math.min(failures, 20));
    return Math.round(base * (0.8 + Math.random() * 0.4));
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url, application_name: this.applicationName });
    let ready = false;
    let lost = false;
    const onLost = (err?: Error) => {
      // Only a listener that was up counts; a failed connect is reported by connect() itself.
      if (!ready || lost) return;
      lost = true;
      if (this.client === client) this.client = null;
      void client.end().catch(() => {});
      if (this.stopped) return;
      this.log.warn({ err }, 'change feed listener lost; reconnecting');
      this.scheduleReconnect();
    };
    client.on('notification', () => {
      this.stats.notifications++;
      this.heardAt ??= performance.now();
      this.pump();
    });
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
    this.client = client;
    this.listenerFailures = 0;
    // Anything committed while we were not listening.
    this.pump();
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.reconnectTimer) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (this.stopped) return;
      this.connect().then(
        () => void this.stats.reconnects++,
        (err: unknown) => {
          this.stats.reconnectFailures++;
          this.log.warn({ err }, 'change feed listener reconnect failed; retrying');
          this.scheduleReconnect();
        },
      );
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
        const heardAt = this.heardAt ?? performance.now();
        this.heardAt = null;
        for (;;) {
          const rows = await readLog(this.db, this.lastPosition, LOG_BATCH);
          // The hooks run before the position moves: one that throws fails the pump, and the retry
          // reads its row again. The rows before it are handed on first. A row committed here was
          // forgotten at its commit (appliedAtCommit): its hooks do not run again.
          let ready = rows.length;
          let failure: unknown;
          for (let i = 0; i < rows.length && ready === rows.length; i++) {
            try {
              if (!this.appliedAhead.has(rows[i]!.position)) for (const fn of this.onRow) fn(rows[i]!);
            } catch (err) {
              ready = i;
              failure = err;
            }
          }
          if (ready > 0) {
            for (let i = 0; i < ready; i++) this.appliedAhead.delete(rows[i]!.position);
            this.lastPosition = rows[ready - 1]!.position;
            this.release();
            await this.deliver(ready === rows.length ? rows : rows.slice(0, ready), heardAt);
          }
          if (ready < rows.length) throw failure;
          if (rows.length < LOG_BATCH) break;
        }
      } while (this.again && !this.stopped);
      this.pumpFailures = 0;
    })()
      .catch((err: unknown) => {
        // The log keeps what we could not read: retry rather than wait for the next notification.
        this.stats.pumpFailures++;
        this.log.error({ err }, 'change feed pump failed; retrying');
        this.schedulePumpRetry();
      })
      .finally(() => {
        this.pumping = null;
      });
  }

  /**
   * Resolves true once every change committed before the call has been through the onRow hooks of this
   * instance, so its caches hold nothing older: a user's write made on another instance is seen by its
   * next read here, and a session ended there is refused here at once. The log's head is read on the
   * LISTEN connection (no other connection) by a query sent after the call; callers arriving while one
   * is on the wire share the next, so a busy instance asks about once a round trip, not once a request.
   * False when the listener is down or the pump does not reach the head within `timeoutMs`: the caller
   * then reads the database instead of the caches.
   */
  async caughtUp(timeoutMs = HEAD_TIMEOUT_MS): Promise<boolean> {
    // No listener, no pump: nothing says what this instance has missed.
    if (!this.client) return false;
    let head: number;
    try {
      head = await this.head();
    } catch {
      return false;
    }
    if (this.lastPosition >= head || this.appliedUpTo(head)) return true;
    // The notification may still be on its way: read the log now.
    this.pump();
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => waiter.done(false), timeoutMs);
      const waiter = {
        target: head,
        done: (ok: boolean) => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve(ok);
        },
      };
      this.waiters.add(waiter);
    });
  }

  /**
   * The log's head, from a query sent after this call. Calls join the query not yet sent, which goes out
   * once the event loop has taken in what else arrived (setImmediate): every request read in one turn
   * shares it. Several may be on the wire at once (the pool's connections), so a request waits one
   * round trip, not the rest of another's first.
   */
  private head(): Promise<number> {
    this.headQueued ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      this.headQueued = null;
      return this.sendHead();
    });
    return this.headQueued;
  }

  private sendHead(): Promise<number> {
    this.stats.headQueries++;
    return new Promise<number>((resolve, reject) => {
      // A connection gone silent must not hold requests: one timer a query, not one a request.
      const timer = setTimeout(() => reject(new Error('no answer from the log head')), HEAD_TIMEOUT_MS);
      this.db.$client.query<{ p: string }>({ name: 'hornada-log-head', text: HEAD_SQL }).then(
        (r) => {
          clearTimeout(timer);
          resolve(Number(r.rows[0]?.p ?? 0));
        },
        (err: unknown) => {
          clearTimeout(timer);
          reject(err instanceof Error ? err : new Error(String(err)));
        },
      );
    });
  }

  /**
   * Records log positions this instance has just committed, whose changes its caches forgot at commit:
   * the pump will not hand them to onRow again, and caughtUp need not wait for it to read them.
   */
  appliedAtCommit(positions: readonly number[]): void {
    // One the pump has read already (it came first) is behind us: nothing to skip.
    for (const p of positions) if (p > this.lastPosition) this.appliedAhead.add(p);
  }

  /**
   * Whether every position after the pump's and up to `head` was committed here (a writing instance
   * reading right after its own commit); a gap (a position that never committed) needs the pump.
   */
  private appliedUpTo(head: number): boolean {
    if (head - this.lastPosition > this.appliedAhead.size) return false;
    for (let p = this.lastPosition + 1; p <= head; p++) if (!this.appliedAhead.has(p)) return false;
    return true;
  }

  /** Waiters whose position the pump has reached. */
  private release(): void {
    for (const w of this.waiters) if (w.target <= this.lastPosition) w.done(true);
  }

  /** Resolves when every notification received so far has been pumped (tests and benchmarks). */
  async settled(): Promise<void> {
    while (this.pumping) await this.pumping;
  }

  /**
   * No pump, reconnect or retry starts from here on; waits for the running pump, then closes the
   * connection.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const w of this.waiters) w.done(false);
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    if (this.pumpRetryTimer) clearTimeout(this.pumpRetryTimer);
    await this.settled().catch(() => {});
    await this.client?.end().catch(() => {});
    this.client = null;
  }
}

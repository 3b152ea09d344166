import { and, asc, eq, gt, inArray, lte, lt, sql } from 'drizzle-orm';
import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db';
import { changeLog } from '../db/schema';
import type { Clock } from '../lib/clock';
import { CHANGES_CHANNEL, type Change } from './change-log';

export const HEARTBEAT_MS = 25_000;
export const RETENTION_DAYS = 7;
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
export type Visibility = (uid: string | null, row: LogRow) => Promise<Change[] | null | 'close'>;

export interface Subscriber {
  companyId: string;
  resources: ReadonlySet<string>;
  uid: string | null;
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

/**
 * The change feed of one instance: one LISTEN connection (not one per subscriber), a pump that reads
 * the log in position order and fans each row out to this instance's subscribers and cache, resume
 * from Last-Event-ID, heartbeats, retention and back-pressure.
 */
export class LiveFeed {
  private listener: pg.Client | null = null;
  private readonly subscribers = new Set<Subscriber>();
  private lastPosition = 0;
  private pumping: Promise<void> | null = null;
  private again = false;
  private heartbeat: NodeJS.Timeout | null = null;
  private pruning: NodeJS.Timeout | null = null;
  private stopped = false;
  /** Called for every row read from the log, before delivery: caches forget what it touched. */
  readonly onRow: ((row: LogRow) => void)[] = [];

  constructor(
    private readonly db: Db,
    private readonly url: string,
    private readonly clock: Clock,
    private readonly visibility: Visibility,
    private readonly log: FastifyBaseLogger,
  ) {}

  async start(): Promise<void> {
    const [max] = await this.db
      .select({ p: sql<number>`coalesce(max(${changeLog.position}), 0)::bigint` })
      .from(changeLog);
    this.lastPosition = Number(max?.p ?? 0);
    await this.connectListener();
    this.heartbeat = setInterval(() => this.beat(), HEARTBEAT_MS);
    this.heartbeat.unref();
    this.pruning = setInterval(
      () => void this.prune().catch((err) => this.log.warn({ err }, 'change log prune failed')),
      3_600_000,
    );
    this.pruning.unref();
    await this.prune();
  }

  private async connectListener(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    client.on('notification', () => this.pump());
    client.on('error', (err) => {
      this.log.warn({ err }, 'change feed listener lost; reconnecting');
      this.listener = null;
      void client.end().catch(() => {});
      if (!this.stopped) setTimeout(() => void this.connectListener().catch(() => {}), 1000).unref();
    });
    await client.connect();
    await client.query(`LISTEN ${CHANGES_CHANNEL}`);
    this.listener = client;
    // Anything committed while we were not listening.
    this.pump();
  }

  /** Reads new log rows in order; one pump at a time, re-run if notified meanwhile. */
  pump(): void {
    if (this.pumping) {
      this.again = true;
      return;
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
    })()
      .catch((err) => this.log.error({ err }, 'change feed pump failed'))
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
    const targets = [...this.subscribers].filter(
      (s) =>
        s.live &&
        !s.closed &&
        s.companyId === row.companyId &&
        s.resources.has(row.resource) &&
        row.position > s.cursor,
    );
    // One serialisation per distinct view of the row, not one per subscriber.
    const rendered = new Map<string, string>();
    await Promise.all(
      targets.map(async (sub) => {
        const view = await this.visibility(sub.uid, row);
        sub.cursor = row.position;
        if (view === 'close') return this.close(sub);
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
   * Adds a subscriber. With a Last-Event-ID it first replays the log after that position; an id the
   * log no longer holds (pruned, or never issued) gets `event: reset` and the client reloads.
   */
  async subscribe(sub: Subscriber, lastEventId: number | null): Promise<void> {
    this.subscribers.add(sub);
    if (lastEventId === null) {
      sub.cursor = this.lastPosition;
      sub.live = true;
      return;
    }
    if (!(await this.known(lastEventId))) {
      sub.write('event: reset\ndata: {}\n\n');
      sub.cursor = this.lastPosition;
      sub.live = true;
      return;
    }
    sub.cursor = lastEventId;
    // Replay up to what the pump has handled; repeat until caught up, then go live with no await
    // between the last check and the switch, so nothing is missed or sent twice.
    for (;;) {
      const upTo = this.lastPosition;
      const rows = await this.readAfter(sub.cursor, REPLAY_BATCH, {
        companyId: sub.companyId,
        resources: [...sub.resources],
        upTo,
      });
      for (const row of rows) {
        if (sub.closed) return;
        const view = await this.visibility(sub.uid, row);
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

  private async known(position: number): Promise<boolean> {
    if (position === 0) return true;
    if (position > this.lastPosition) return false;
    const [row] = await this.db
      .select({ p: changeLog.position })
      .from(changeLog)
      .where(eq(changeLog.position, position))
      .limit(1);
    return Boolean(row);
  }

  private beat(): void {
    for (const sub of this.subscribers) if (sub.live) this.send(sub, ': heartbeat\n\n');
  }

  /** Keeps 7 days of log (design §3). */
  async prune(): Promise<void> {
    const cutoff = new Date(this.clock.now().getTime() - RETENTION_DAYS * 86_400_000);
    await this.db.delete(changeLog).where(lt(changeLog.createdAt, cutoff));
  }

  get subscriberCount(): number {
    return this.subscribers.size;
  }

  /** Shutdown: every stream ends with a retry hint, then the listener closes. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.pruning) clearInterval(this.pruning);
    for (const sub of [...this.subscribers]) this.close(sub, 1000);
    await this.settled().catch(() => {});
    await this.listener?.end().catch(() => {});
    this.listener = null;
  }
}

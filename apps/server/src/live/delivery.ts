import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db';
import { changeLog } from '../db/schema';
import type { Change } from '../db/change-log';
import { LOG_BATCH, readLog, type LogRow } from './listener';

/** A subscriber whose unsent output passes this is closed and resumes from the log. */
export const MAX_BUFFERED_BYTES = 1_048_576;

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

export interface DeliveryDeps {
  db: Db;
  visibility: Visibility;
  log: FastifyBaseLogger;
  /** Position of the last row the pump has read: a new stream starts there, a resume catches up to it. */
  position(): number;
  /** Oldest moment the log still keeps: a resume from before it gets `event: reset`. */
  keptSince(): Date;
  heartbeatMs: number;
}

/**
 * This instance's subscribers: subscribe (from now, or resumed from Last-Event-ID), each row sent to
 * those who may read it as each one may read it, heartbeats, back-pressure and close.
 */
export class Delivery {
  private heartbeat: NodeJS.Timeout | null = null;

  constructor(
    /** The open streams; shared with the feed, which counts them. */
    private readonly subscribers: Set<Subscriber>,
    private readonly deps: DeliveryDeps,
  ) {}

  start(): void {
    this.heartbeat = setInterval(() => this.beat(), this.deps.heartbeatMs);
    this.heartbeat.unref();
  }

  /** Sends one row, read by the pump, to the live subscribers that may read it. */
  async deliver(row: LogRow): Promise<void> {
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
          view = await this.deps.visibility(sub.uid, row, sub.tokenIssuedAt);
        } catch (err) {
          // Cannot tell what it may read now: close it; it resumes from the log with Last-Event-ID.
          this.deps.log.warn({ err }, 'live visibility check failed; closing the stream');
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
      sub.cursor = this.deps.position();
      sub.live = true;
      return;
    }
    if (lastEventId <= 0 || !(await this.known(lastEventId))) {
      if (sub.closed) return;
      sub.write('event: reset\ndata: {}\n\n');
      sub.cursor = this.deps.position();
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
      const upTo = this.deps.position();
      const rows = await readLog(this.deps.db, sub.cursor, LOG_BATCH, {
        companyId: sub.companyId,
        resources: [...sub.resources],
        upTo,
      });
      for (const row of rows) {
        if (sub.closed) return;
        const view = await this.deps.visibility(sub.uid, row, sub.tokenIssuedAt);
        sub.cursor = row.position;
        if (view === 'close') return this.close(sub);
        if (view && view.length > 0) this.send(sub, formatEvent(row.position, row.resource, view));
      }
      if (rows.length < LOG_BATCH) {
        sub.cursor = Math.max(sub.cursor, upTo);
        if (this.deps.position() === upTo) {
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

  /**
   * Whether a resume from `position` is exact: the row is in the database (not only up to what this
   * instance has pumped) and inside the kept window, even if the hourly prune has not run yet.
   */
  private async known(position: number): Promise<boolean> {
    const [row] = await this.deps.db
      .select({ createdAt: changeLog.createdAt })
      .from(changeLog)
      .where(eq(changeLog.position, position))
      .limit(1);
    return row !== undefined && row.createdAt.getTime() >= this.deps.keptSince().getTime();
  }

  private beat(): void {
    for (const sub of this.subscribers) if (sub.live) this.send(sub, ': heartbeat\n\n');
  }

  /** Shutdown: every stream ends with a retry hint. */
  stop(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    for (const sub of [...this.subscribers]) this.close(sub, 1000);
  }
}

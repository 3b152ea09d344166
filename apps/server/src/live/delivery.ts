import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Caller } from '../caller';
import type { Db } from '../db';
import { changeLog } from '../db/schema';
import type { Change } from '../db/change-log';
import { FanoutStats } from './fanout-stats';
import { Frame } from './frame';
import { LOG_BATCH, readLog, type LogRow } from './listener';

export type { LogRow } from './listener';

/** A subscriber whose unsent output passes this is closed and resumes from the log. */
export const MAX_BUFFERED_BYTES = 1_048_576;

/** What the readers of one log row receive (visibility.ts): one instance per row, each view built once. */
export interface RowViews {
  /**
   * The changes `caller` (null: a guest) receives of the row, or null for none. Callers who receive the
   * same get the same array, so delivery serialises each distinct view once.
   */
  of(caller: Caller | null): Change[] | null;
}

/** Decides what subscribers receive (visibility.ts). */
export interface Visibility {
  /**
   * The user a signed-in stream reads as, in its current state; 'close' when it may read nothing any
   * more (disabled, deleted, or its sessions ended after the stream's token was issued).
   */
  caller(uid: string, tokenIssuedAt?: number | null): Promise<Caller | 'close'>;
  row(row: LogRow): RowViews;
}

export interface Subscriber {
  companyId: string;
  resources: ReadonlySet<string>;
  uid: string | null;
  /** `iat` of the id token that opened the stream: it ends when the user's sessions end after it. */
  tokenIssuedAt?: number | null;
  /**
   * Who the stream reads as (null: a guest): resolved when it subscribes and again whenever the log
   * records a change to its user, never read per event.
   */
  caller: Caller | null;
  /** A change to its user was logged since `caller` was resolved: resolve again before going on. */
  stale: boolean;
  /** Last position this subscriber has been brought up to (sent or filtered out). */
  cursor: number;
  live: boolean;
  closed: boolean;
  write(frame: Frame): void;
  /** Bytes written but not yet taken by the socket. */
  buffered(): number;
  end(): void;
  /** Hold writes until uncork(), so that several events leave in one write (optional). */
  cork?(): void;
  uncork?(): void;
}

/** One event as docs/design.md §3 writes it. */
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

/** Rows of one read written to a stream before its corked writes go out. */
const CORK_ROWS = 16;
const HEARTBEAT = new Frame(': heartbeat\n\n');
const RESET = new Frame('event: reset\ndata: {}\n\n');
const topicOf = (companyId: string, resource: string) => `${companyId}\u0000${resource}`;

function addTo<K, V>(index: Map<K, Set<V>>, key: K, value: V): void {
  let set = index.get(key);
  if (!set) index.set(key, (set = new Set()));
  set.add(value);
}

function removeFrom<K, V>(index: Map<K, Set<V>>, key: K, value: V): void {
  const set = index.get(key);
  if (set?.delete(value) && set.size === 0) index.delete(key);
}

/**
 * This instance's subscribers: subscribe (from now, or resumed from Last-Event-ID), each row sent to
 * those who may read it as each one may read it, heartbeats, back-pressure and close.
 *
 * A row's fan-out is one synchronous pass over the streams of its company and resource: no database read,
 * promise or closure per stream. Each stream holds the caller it reads as, refreshed through the change
 * log (a change to its user); each distinct view of the row is serialised and framed once (a Frame) and
 * the same bytes written to every stream that receives it.
 */
export class Delivery {
  private heartbeat: NodeJS.Timeout | null = null;
  /** Subscribers by company and resource: a row reaches the streams that watch it without a scan. */
  private readonly byTopic = new Map<string, Set<Subscriber>>();
  /** Signed-in subscribers by user: a change to a user reaches its streams, whatever they watch. */
  private readonly byUser = new Map<string, Set<Subscriber>>();
  readonly stats = new FanoutStats();

  constructor(
    /** The open streams; shared with the feed, which counts them. */
    private readonly subscribers: Set<Subscriber>,
    private readonly deps: DeliveryDeps,
  ) {}

  start(): void {
    this.heartbeat = setInterval(() => this.beat(), this.deps.heartbeatMs);
    this.heartbeat.unref();
  }

  /**
   * Sends rows read by the pump, in order, to the live subscribers that may read them. `heardAt`
   * (performance.now()) is when the notification that led to reading them arrived.
   */
  async deliver(rows: readonly LogRow[], heardAt: number): Promise<void> {
    const readAt = performance.now();
    // Several rows for one stream leave in one write: the streams written to are corked, and uncorked
    // every CORK_ROWS rows so that a long catch-up neither holds events back nor piles them up.
    const corked = rows.length > 1 ? new Set<Subscriber>() : null;
    const done: number[] = [];
    try {
      for (const row of rows) {
        if (row.resource === 'users' && this.touches(row)) {
          // Its readers' callers are read again first (the only wait of a fan-out): flush what is held.
          if (corked) this.uncork(corked);
          await this.refreshTouched(row);
        }
        done.push(this.fanOut(row, corked));
        if (corked && done.length % CORK_ROWS === 0) this.uncork(corked);
      }
    } finally {
      if (corked) this.uncork(corked);
    }
    const end = performance.now();
    for (const streams of done) if (streams > 0) this.stats.record(end - heardAt, end - readAt, streams);
  }

  /** Whether a change to users names the user of an open stream. */
  private touches(row: LogRow): boolean {
    return row.changes.some((c) => this.byUser.has(String(c.doc.id)));
  }

  /**
   * A change to a user is checked against that user's own streams whatever they watch: disabling or
   * deleting an account, or ending its sessions, ends its streams at once, and a new role applies from
   * this row on. A stream still catching up is marked, and resolves its caller again before going live.
   */
  private async refreshTouched(row: LogRow): Promise<void> {
    const live: Subscriber[] = [];
    for (const c of row.changes) {
      for (const sub of this.byUser.get(String(c.doc.id)) ?? []) {
        sub.stale = true;
        if (sub.live && !sub.closed) live.push(sub);
      }
    }
    await Promise.all(
      live.map(async (sub) => {
        try {
          await this.resolveCaller(sub);
        } catch (err) {
          // Cannot tell what it may read now: close it; it resumes from the log with Last-Event-ID.
          this.deps.log.warn({ err }, 'live caller check failed; closing the stream');
          this.close(sub, 2000);
        }
      }),
    );
  }

  /** Reads the stream's caller again; closes the stream (false) when it may read nothing any more. */
  private async resolveCaller(sub: Subscriber): Promise<boolean> {
    if (sub.uid === null) {
      sub.stale = false;
      return true;
    }
    // Cleared before the read: a change logged meanwhile marks it again.
    sub.stale = false;
    const caller = await this.deps.visibility.caller(sub.uid, sub.tokenIssuedAt);
    if (sub.closed) return false;
    if (caller === 'close') {
      this.close(sub);
      return false;
    }
    sub.caller = caller;
    return true;
  }

  /** Writes one row to the live streams of its company and resource; returns how many were written to. */
  private fanOut(row: LogRow, corked: Set<Subscriber> | null): number {
    const subs = this.byTopic.get(topicOf(row.companyId, row.resource));
    if (!subs) return 0;
    const views = this.deps.visibility.row(row);
    // One frame per distinct view; consecutive streams mostly share one (every guest does).
    const frames = new Map<Change[], Frame>();
    let lastView: Change[] | null = null;
    let lastFrame: Frame | null = null;
    let written = 0;
    for (const sub of subs) {
      if (!sub.live || sub.closed || row.position <= sub.cursor) continue;
      sub.cursor = row.position;
      const view = views.of(sub.caller);
      if (!view || view.length === 0) continue;
      if (view !== lastView) {
        lastView = view;
        lastFrame = frames.get(view) ?? null;
        if (!lastFrame) frames.set(view, (lastFrame = new Frame(formatEvent(row.position, row.resource, view))));
      }
      if (corked && !corked.has(sub)) {
        corked.add(sub);
        sub.cork?.();
      }
      this.send(sub, lastFrame!);
      written++;
    }
    return written;
  }

  private uncork(corked: Set<Subscriber>): void {
    for (const sub of corked) sub.uncork?.();
    corked.clear();
  }

  private send(sub: Subscriber, frame: Frame): void {
    if (sub.closed) return;
    sub.write(frame);
    // A subscriber that stops reading is cut loose; it resumes from the log with Last-Event-ID.
    if (sub.buffered() > MAX_BUFFERED_BYTES) this.close(sub, 2000);
  }

  close(sub: Subscriber, retryMs = 1000): void {
    if (sub.closed) return;
    this.unsubscribe(sub);
    try {
      sub.write(new Frame(`retry: ${retryMs}\n\n`));
    } finally {
      sub.end();
    }
  }

  private add(sub: Subscriber): void {
    this.subscribers.add(sub);
    for (const resource of sub.resources) addTo(this.byTopic, topicOf(sub.companyId, resource), sub);
    if (sub.uid !== null) addTo(this.byUser, sub.uid, sub);
  }

  /**
   * Adds a subscriber. `lastEventId` null starts from now. A positive id replays the log after that
   * position; an id ≤ 0 (see parseLastEventId), one the log no longer holds (pruned, or never
   * issued) or one older than the kept window gets `event: reset` and the client reloads.
   */
  async subscribe(sub: Subscriber, lastEventId: number | null): Promise<void> {
    // The client may have gone before we got here; its close handler has already run.
    if (sub.closed) return;
    // Indexed first, so that a change to its user logged from here on marks it stale.
    this.add(sub);
    sub.stale = true;
    sub.cursor = this.deps.position();
    if (lastEventId !== null) {
      if (lastEventId > 0 && (await this.known(lastEventId))) sub.cursor = lastEventId;
      else {
        if (sub.closed) return;
        sub.write(RESET);
        // The client reloads its lists after the reset: what they will hold is not sent again.
        sub.cursor = this.deps.position();
      }
    }
    // Replay up to what the pump has handled; repeat until caught up, then go live with no await
    // between the last check and the switch, so nothing is missed or sent twice. An id beyond what
    // this instance's pump has reached (the client came from a faster instance) replays nothing and
    // the pump delivers only what follows it. The caller is resolved again whenever a change to its
    // user was logged meanwhile, so it goes live reading as its user is now.
    for (;;) {
      if (sub.closed) return;
      if (sub.stale && !(await this.resolveCaller(sub))) return;
      const upTo = this.deps.position();
      if (sub.cursor >= upTo) {
        if (sub.stale || sub.closed) continue;
        sub.live = true;
        return;
      }
      const rows = await readLog(this.deps.db, sub.cursor, LOG_BATCH, {
        companyId: sub.companyId,
        resources: [...sub.resources],
        upTo,
      });
      for (const row of rows) {
        if (sub.closed) return;
        sub.cursor = row.position;
        const view = this.deps.visibility.row(row).of(sub.caller);
        if (view && view.length > 0) this.send(sub, new Frame(formatEvent(row.position, row.resource, view)));
      }
      if (rows.length < LOG_BATCH) sub.cursor = Math.max(sub.cursor, upTo);
    }
  }

  unsubscribe(sub: Subscriber): void {
    sub.closed = true;
    if (!this.subscribers.delete(sub)) return;
    for (const resource of sub.resources) removeFrom(this.byTopic, topicOf(sub.companyId, resource), sub);
    if (sub.uid !== null) removeFrom(this.byUser, sub.uid, sub);
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
    for (const sub of this.subscribers) if (sub.live) this.send(sub, HEARTBEAT);
  }

  /** Shutdown: every stream ends with a retry hint. */
  stop(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    for (const sub of [...this.subscribers]) this.close(sub, 1000);
  }
}

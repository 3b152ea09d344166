import { lt } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db';
import { changeLog } from '../db/schema';
import type { Clock } from '../lib/clock';
import { withJobLock } from '../lib/job-lock';
import { Delivery, type Subscriber, type Visibility } from './delivery';
import type { FanoutSummary } from './fanout-stats';
import { ChangeListener, type ListenerOptions, type ListenerStats, type LogRow } from './listener';

export {
  MAX_BUFFERED_BYTES,
  formatEvent,
  parseLastEventId,
  type RowViews,
  type Subscriber,
  type Visibility,
} from './delivery';
export type { FanoutSummary } from './fanout-stats';
export { Frame } from './frame';
export { LISTENER_APPLICATION_NAME, type ListenerStats, type LogRow } from './listener';

export const HEARTBEAT_MS = 25_000;
export const RETENTION_DAYS = 7;

export interface FeedOptions extends ListenerOptions {
  /** Interval of the heartbeat comment (docs/design.md §3: 25 s). */
  heartbeatMs?: number;
}

/**
 * The change feed of one instance: the listener and its pump (listener.ts) read the log in position
 * order, and each row goes to this instance's cache hooks (onRow) and then to its subscribers
 * (delivery.ts: resume from Last-Event-ID, visibility, heartbeats, back-pressure). Here: the wiring
 * and the log's retention.
 */
export class LiveFeed {
  private readonly subscribers = new Set<Subscriber>();
  private readonly listener: ChangeListener;
  private readonly delivery: Delivery;
  private pruning: NodeJS.Timeout | null = null;
  readonly heartbeatMs: number;
  /** Called for every row read from the log that this instance did not commit, before delivery: caches forget what it touched. */
  readonly onRow: ((row: LogRow) => void)[];

  constructor(
    private readonly db: Db,
    url: string,
    private readonly clock: Clock,
    visibility: Visibility,
    private readonly log: FastifyBaseLogger,
    options: FeedOptions = {},
  ) {
    this.heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
    this.listener = new ChangeListener(db, url, (rows, heardAt) => this.delivery.deliver(rows, heardAt), log, options);
    this.onRow = this.listener.onRow;
    this.delivery = new Delivery(this.subscribers, {
      db,
      visibility,
      log,
      position: () => this.listener.position,
      keptSince: () => this.cutoff(),
      heartbeatMs: this.heartbeatMs,
    });
  }

  async start(): Promise<void> {
    await this.listener.start();
    this.delivery.start();
    this.pruning = setInterval(
      () => void this.prune().catch((err) => this.log.warn({ err }, 'change log prune failed')),
      3_600_000,
    );
    this.pruning.unref();
    await this.prune();
  }

  /** Reads new log rows in order; one pump at a time, re-run if notified meanwhile. */
  pump(): void {
    this.listener.pump();
  }

  /**
   * Whether this instance's caches now hold every change committed before the call (listener.ts); false
   * when it cannot tell in time, and the caller reads the database.
   */
  caughtUp(timeoutMs?: number): Promise<boolean> {
    return this.listener.caughtUp(timeoutMs);
  }

  /** Log positions this instance committed and whose changes it forgot at commit (listener.ts). */
  appliedAtCommit(positions: readonly number[]): void {
    this.listener.appliedAtCommit(positions);
  }

  /** Resolves when every notification received so far has been pumped (tests and benchmarks). */
  settled(): Promise<void> {
    return this.listener.settled();
  }

  /**
   * Adds a subscriber. `lastEventId` null starts from now. A positive id replays the log after that
   * position; an id ≤ 0 (see parseLastEventId), one the log no longer holds (pruned, or never
   * issued) or one older than the kept window gets `event: reset` and the client reloads.
   */
  subscribe(sub: Subscriber, lastEventId: number | null): Promise<void> {
    return this.delivery.subscribe(sub, lastEventId);
  }

  unsubscribe(sub: Subscriber): void {
    this.delivery.unsubscribe(sub);
  }

  /** Ends one stream with a retry hint (ms) for the client's reconnect. */
  close(sub: Subscriber, retryMs = 1000): void {
    this.delivery.close(sub, retryMs);
  }

  /** The listener's counters since start (reconnects, failed pumps, notifications heard). */
  get listenerStats(): Readonly<ListenerStats> {
    return this.listener.stats;
  }

  /** The fan-out's own times per event (notification → last write), over the latest events. */
  get fanoutStats(): FanoutSummary {
    return this.delivery.stats.summary();
  }

  get subscriberCount(): number {
    return this.subscribers.size;
  }

  private cutoff(): Date {
    return new Date(this.clock.now().getTime() - RETENTION_DAYS * 86_400_000);
  }

  /** Keeps 7 days of log (docs/design.md §3). */
  async prune(): Promise<void> {
    // One instance prunes at a time (job-lock.ts); another's run under way does the same delete.
    await withJobLock(this.db, 'change-log-prune', () =>
      this.db.delete(changeLog).where(lt(changeLog.createdAt, this.cutoff())),
    );
  }

  /** Shutdown: every stream ends with a retry hint, then the listener closes. */
  async stop(): Promise<void> {
    if (this.pruning) clearInterval(this.pruning);
    this.delivery.stop();
    await this.listener.stop();
    // For operators (and bench:live, which reads it): what the fan-out cost this instance per event.
    const fanout = this.fanoutStats;
    if (fanout.events > 0) this.log.info({ fanout }, 'live fan-out');
  }
}

import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from './clock';
import { withJobLock, type LockDb } from './job-lock';

/**
 * A background job that runs at most once every `everyMs` of the app's clock (so an injected clock
 * drives it), on a timer of that period, and when a caller asks it to run if due. A run under way is
 * waited for, never doubled; stop() ends the timer and waits for it (the pool closes after).
 *
 * Each run holds the job's advisory lock (job-lock.ts): with several instances on one database, a run
 * that finds another instance's run under way skips, so the job's work is done once, not once per
 * instance.
 */
export abstract class DueJob {
  private lastRun: number | null = null;
  private running: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly lock: { db: LockDb; name: string },
    private readonly clock: Clock,
    private readonly everyMs: number,
    private readonly jobLog: FastifyBaseLogger,
    /** Logged when a run fails (the next one tries again). */
    private readonly failure: string,
  ) {}

  /** What one run does; given the time it started by the app's clock. */
  protected abstract work(now: Date): Promise<unknown>;

  start(): void {
    this.timer = setInterval(() => void this.runIfDue(), this.everyMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Runs unless a run started less than `everyMs` ago by the app's clock; a run under way is waited for. */
  runIfDue(): Promise<void> {
    if (this.running) return this.running;
    const now = this.clock.now();
    if (this.lastRun !== null && now.getTime() - this.lastRun < this.everyMs) return Promise.resolve();
    this.lastRun = now.getTime();
    const run: Promise<void> = withJobLock(this.lock.db, this.lock.name, () => this.work(now))
      .then(() => undefined)
      .catch((err: unknown) => this.jobLog.warn({ err }, this.failure))
      .finally(() => {
        this.running = null;
      });
    this.running = run;
    return run;
  }
}

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors';
import { callerKey } from './rate-limit';

/**
 * Bulk updates are the heaviest requests (up to 1000 rows in one transaction, seconds of work), so
 * they get bounds of their own besides the row bound of their schema:
 *
 * - a byte bound: 256 KB of body, about 256 bytes a row at the full 1000 rows (a few fields each:
 *   price, stock, active), where the API's general bound is 1 MB;
 * - a concurrency bound: at most PER_CALLER bulk updates of one account run at once and the next
 *   QUEUE_PER_CALLER wait their turn (a script that sends ten at once still gets ten answers), while
 *   a further one is a 429 rather than a growing pile of parsed bodies; and all callers' bulk updates
 *   together hold at most the pool's size minus RESERVED connections, so reads (a guest's product
 *   page) always find one. A queue, not a refusal, because the work is legitimate and serial anyway:
 *   bulk updates over the same rows wait on each other's row locks, and waiting in the database
 *   holds a connection where waiting here holds nothing.
 */
export const BULK_BODY_BYTES = 256 * 1024;
const PER_CALLER = 2;
const QUEUE_PER_CALLER = 8;
const RESERVED = 2;

interface Slot {
  running: number;
  waiting: number;
}

export class WriteGate {
  private running = 0;
  private readonly callers = new Map<string, Slot>();
  private readonly queue: { key: string; start: () => void }[] = [];

  constructor(private readonly limits: { perCaller: number; queuePerCaller: number; total: number }) {}

  /** Runs fn when the caller of `key` may; throws a 429 when its queue is full. */
  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    let slot = this.callers.get(key);
    if (!slot) this.callers.set(key, (slot = { running: 0, waiting: 0 }));
    if (slot.running < this.limits.perCaller && this.running < this.limits.total) {
      slot.running++;
      this.running++;
    } else {
      if (slot.waiting >= this.limits.queuePerCaller) {
        throw new AppError(
          429,
          'rate_limited',
          `Too many bulk updates in progress for this account (${slot.running} running, ${slot.waiting} waiting); retry when one has finished`,
          undefined,
          { 'retry-after': '5' },
        );
      }
      slot.waiting++;
      // pump() counts it as running before it starts.
      await new Promise<void>((resolve) => this.queue.push({ key, start: resolve }));
    }
    try {
      return await fn();
    } finally {
      slot.running--;
      this.running--;
      if (slot.running === 0 && slot.waiting === 0) this.callers.delete(key);
      this.pump();
    }
  }

  /** Starts the first waiters (in arrival order) whose callers are under their own bound. */
  private pump(): void {
    for (let i = 0; i < this.queue.length && this.running < this.limits.total;) {
      const next = this.queue[i]!;
      const slot = this.callers.get(next.key)!;
      if (slot.running >= this.limits.perCaller) {
        i++;
        continue;
      }
      this.queue.splice(i, 1);
      slot.waiting--;
      slot.running++;
      this.running++;
      next.start();
    }
  }
}

const gates = new WeakMap<FastifyInstance, WriteGate>();

/** The app's one gate for bulk updates (every resource's bulk route shares it). */
function gateOf(app: FastifyInstance): WriteGate {
  let gate = gates.get(app);
  if (!gate) {
    const poolSize = app.ctx.db.$client.options.max ?? 10;
    gate = new WriteGate({
      perCaller: PER_CALLER,
      queuePerCaller: QUEUE_PER_CALLER,
      total: Math.max(1, poolSize - RESERVED),
    });
    gates.set(app, gate);
  }
  return gate;
}

/** Runs a bulk update under the app's bounds, counted against the request's caller. */
export function underBulkBounds<T>(app: FastifyInstance, req: FastifyRequest, fn: () => Promise<T>): Promise<T> {
  return gateOf(app).run(callerKey(req), fn);
}

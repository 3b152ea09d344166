import { inArray, lt } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { CART_RETENTION_DAYS } from '@hornada/domain';
import type { AppContext } from '../../context';
import { carts } from '../../db/schema';
import { DueJob } from '../../lib/due-job';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Rows one statement deletes: a backlog goes in short statements that hold few locks. */
const BATCH = 500;

/**
 * Carts nobody wrote to for CART_RETENTION_DAYS days are deleted, open or checked out: an
 * abandoned cart keeps a contact and an address nobody needs any more, and a checked-out cart only
 * answered a replayed checkout, which no client sends a month later. Runs when the app starts, every
 * hour, and when a cart is made once an hour of the app's clock has passed since the last run, so an
 * injected clock drives it. Several instances may run it at once: deleting twice deletes nothing more.
 */
export class CartCleanup extends DueJob {
  constructor(
    private readonly ctx: AppContext,
    private readonly log: FastifyBaseLogger,
  ) {
    super({ db: ctx.db, name: 'cart-cleanup' }, ctx.clock, HOUR_MS, log, 'cart cleanup failed');
  }

  protected work(now: Date): Promise<void> {
    return this.run(new Date(now.getTime() - CART_RETENTION_DAYS * DAY_MS));
  }

  private async run(cutoff: Date): Promise<void> {
    const db = this.ctx.db;
    let total = 0;
    for (;;) {
      const gone = await db
        .delete(carts)
        .where(
          inArray(carts.id, db.select({ id: carts.id }).from(carts).where(lt(carts.updatedAt, cutoff)).limit(BATCH)),
        )
        .returning({ id: carts.id });
      total += gone.length;
      if (gone.length < BATCH) break;
    }
    if (total > 0) this.log.info({ carts: total }, 'carts untouched for 30 days deleted');
  }
}

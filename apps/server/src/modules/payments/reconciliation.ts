import { and, asc, eq, exists, gt, inArray, isNull, lte, notExists, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Order } from '@hornada/domain';
import type { AppContext } from '../../context';
import { orders, paymentAttempts } from '../../db/schema';
import { DueJob } from '../../lib/due-job';
import { gatewayActor, systemActor } from '../../resources/actor';
import type { ResourceRegistry } from '../../resources/registry';
import type { PaymentsService } from './payments.service';

const MINUTE_MS = 60_000;
/** An attempt still pending this long is asked about (docs/design.md §5: the browser may never come back). */
export const LOOK_UP_AFTER_MS = 10 * MINUTE_MS;
/** How often the job runs, and how long a look-up's claim keeps other runs off the attempt. */
export const RECONCILE_EVERY_MS = 5 * MINUTE_MS;
/** An online payment not completed this long after its last attempt is abandoned. */
export const ABANDON_AFTER_MS = 24 * 60 * MINUTE_MS;
/**
 * Attempts are asked about until this age (the last look-up before the abandonment included): past it,
 * one still PENDING belongs to an order that moved on (paid by a later attempt); a late answer for it
 * still arrives as an event.
 */
export const LOOK_UP_UNTIL_MS = 25 * 60 * MINUTE_MS;
/** Attempts one run claims, and orders it abandons: a backlog goes over several runs. */
const BATCH = 100;

/** The status an abandoned attempt keeps (the gateway never reported a final one). */
export const ABANDONED = 'ABANDONED';
/** The reason an abandoned order carries (staff read it in the order's detail). */
export const ABANDONED_REASON = 'El pago en línea no se completó en 24 horas';

type OrderPayment = NonNullable<Order['payment']>;

/**
 * Online payments nobody reported (docs/design.md §5): attempts still pending 10 minutes after they
 * started are asked of the gateway (by transaction id, or by reference when none reached us) and what
 * it answers is applied by the payments service, once per (transaction, status) as an event's. Each due
 * attempt is claimed by one statement (`FOR UPDATE SKIP LOCKED`, its `updatedAt` stamped with the claim),
 * so however many instances run, one asks about it per RECONCILE_EVERY_MS.
 *
 * An online web order whose last attempt started 24 hours ago and is still not paid is abandoned: its
 * payment failed (by the gateway's line, as the gateway never answered) and the order cancelled with
 * ABANDONED_REASON by the system. Cancelling, rather than leaving it out of the window's count, keeps
 * docs/design.md §5's single meaning of "holds a place" (an order not cancelled) and of "unpaid" (not cancelled,
 * not paid): the order leaves production and receivables as it leaves its window. An order staff
 * confirmed by hand is theirs: its payment is marked failed, the order is left alone.
 *
 * Runs when the app starts, on a timer, and when due by the app's clock, like the cart clean-up.
 */
export class PaymentReconciliation extends DueJob {
  constructor(
    private readonly ctx: AppContext,
    private readonly resources: ResourceRegistry,
    private readonly payments: PaymentsService,
    private readonly log: FastifyBaseLogger,
  ) {
    super(
      { db: ctx.db, name: 'payment-reconciliation' },
      ctx.clock,
      RECONCILE_EVERY_MS,
      log,
      'payment reconciliation failed',
    );
  }

  protected work(): Promise<unknown> {
    return this.run();
  }

  /** One run: the due look-ups, then the abandoned orders. */
  async run(): Promise<{ lookedUp: number; abandoned: number }> {
    const lookedUp = await this.lookUpPending();
    const abandoned = await this.abandon();
    if (lookedUp + abandoned > 0) this.log.info({ lookedUp, abandoned }, 'online payments reconciled');
    return { lookedUp, abandoned };
  }

  /** Claims the due pending attempts in one statement, then asks the gateway about each. */
  private async lookUpPending(): Promise<number> {
    const db = this.ctx.db;
    const now = this.ctx.clock.now();
    const due = db
      .select({ id: paymentAttempts.id })
      .from(paymentAttempts)
      .where(
        and(
          eq(paymentAttempts.status, 'PENDING'),
          lte(paymentAttempts.createdAt, new Date(now.getTime() - LOOK_UP_AFTER_MS)),
          gt(paymentAttempts.createdAt, new Date(now.getTime() - LOOK_UP_UNTIL_MS)),
          lte(paymentAttempts.updatedAt, new Date(now.getTime() - RECONCILE_EVERY_MS)),
        ),
      )
      .orderBy(asc(paymentAttempts.createdAt))
      .limit(BATCH)
      .for('update', { skipLocked: true });
    // The claim: stamped now, an attempt is not due again for RECONCILE_EVERY_MS, in this run or another's.
    const claimed = await db
      .update(paymentAttempts)
      .set({ updatedAt: now })
      .where(inArray(paymentAttempts.id, due))
      .returning();
    for (const a of claimed) {
      try {
        const t = a.transactionId
          ? await this.ctx.payments.lookUp(a.transactionId)
          : await this.ctx.payments.findByReference(a.reference);
        // Only a transaction of this attempt is applied; the service checks amount and currency.
        if (t && t.reference === a.reference) await this.payments.applyTransaction(t);
      } catch (err) {
        this.log.warn({ err, reference: a.reference }, 'payment look-up failed; asked again next run');
      }
    }
    return claimed.length;
  }

  /** Online web orders whose last attempt started 24 hours ago, still unpaid: failed and cancelled. */
  private async abandon(): Promise<number> {
    const db = this.ctx.db;
    const cutoff = new Date(this.ctx.clock.now().getTime() - ABANDON_AFTER_MS);
    const attemptOf = (newerThanCutoff: boolean) =>
      db
        .select({ one: sql`1` })
        .from(paymentAttempts)
        .where(
          and(
            eq(paymentAttempts.orderId, orders.id),
            newerThanCutoff ? gt(paymentAttempts.createdAt, cutoff) : undefined,
          ),
        );
    const stillOpen = and(
      eq(orders.paymentMethod, 'online'),
      inArray(orders.paymentStatus, ['pending', 'failed']),
      inArray(orders.status, ['pending', 'confirmed']),
      // A confirmed order whose payment already failed has nothing left to abandon.
      or(eq(orders.status, 'pending'), eq(orders.paymentStatus, 'pending')),
      isNull(orders.deletedAt),
    );
    const candidates = await db
      .select({ id: orders.id, companyId: orders.companyId })
      .from(orders)
      .where(and(stillOpen, exists(attemptOf(false)), notExists(attemptOf(true))))
      .limit(BATCH);
    let abandoned = 0;
    for (const c of candidates) {
      try {
        if (await this.abandonOne(c.companyId, c.id, cutoff)) abandoned += 1;
      } catch (err) {
        this.log.warn({ err, orderId: c.id }, 'abandoning an online payment failed; tried again next run');
      }
    }
    return abandoned;
  }

  private abandonOne(companyId: string, orderId: string, cutoff: Date): Promise<boolean> {
    const service = this.resources.get('orders');
    return this.resources.transaction(companyId, async (scope) => {
      const { tx } = scope;
      // Another instance abandoning it, or a retry starting an attempt, holds the row: skipped here.
      const [order] = await tx
        .select()
        .from(orders)
        .where(
          and(
            eq(orders.id, orderId),
            eq(orders.paymentMethod, 'online'),
            inArray(orders.paymentStatus, ['pending', 'failed']),
            inArray(orders.status, ['pending', 'confirmed']),
          ),
        )
        .for('update', { skipLocked: true });
      if (!order || (order.status !== 'pending' && order.paymentStatus !== 'pending')) return false;
      const [fresh] = await tx
        .select({ id: paymentAttempts.id })
        .from(paymentAttempts)
        .where(and(eq(paymentAttempts.orderId, orderId), gt(paymentAttempts.createdAt, cutoff)))
        .limit(1);
      if (fresh) return false;
      const now = this.ctx.clock.now();
      await tx
        .update(paymentAttempts)
        .set({ status: ABANDONED, updatedAt: now })
        .where(and(eq(paymentAttempts.orderId, orderId), eq(paymentAttempts.status, 'PENDING')));
      if (order.paymentStatus === 'pending') {
        const payment = order.payment as OrderPayment | null;
        await service.update(
          gatewayActor(this.ctx.payments.name),
          companyId,
          orderId,
          { paymentStatus: 'failed', ...(payment ? { payment: { ...payment, status: ABANDONED } } : {}) },
          scope,
        );
      }
      if (order.status === 'pending') {
        await service.update(
          systemActor('payment-abandoned'),
          companyId,
          orderId,
          { status: 'cancelled', cancelReason: ABANDONED_REASON },
          scope,
        );
      }
      return true;
    });
  }
}

import { randomBytes } from 'node:crypto';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { canMovePayment, type Order, type PaymentStatus, type RefundDue } from '@hornada/domain';
import type { AppContext } from '../../context';
import { canonicalHash } from '../../lib/canonical-hash';
import { AppError, notFound } from '../../lib/errors';
import type { DbOrTx } from '../../db';
import { orders, paymentAttempts, paymentEvents, paymentTransactions } from '../../db/schema';
import { gatewayActor } from '../../resources/actor';
import type { Row } from '../../resources/definition';
import type { ResourceRegistry, ServiceOf } from '../../resources/registry';
import type { WriteScope } from '../../resources/service';
import { logged, type Logged, type OrderPayments, type OrderRow, type PaymentLink, type Step } from '../orders';
import type { GatewayTransaction, TransactionStatus, VerifiedEvent } from '../../providers/payments';

/** Amounts travel in cents of Colombian pesos (docs/design.md §5). */
export const CURRENCY = 'COP';

export type { PaymentLink };

/** What became of a transaction the gateway reported (an event or a look-up). */
export type TransactionOutcome =
  /** Its reference is no attempt of ours: answered 200 so the gateway stops retrying, and logged. */
  | { kind: 'unknown-reference'; reference: string; transactionId: string }
  /** This (transaction, status) was applied before: nothing changes. */
  | { kind: 'replay'; orderId: string }
  /** The transaction id was first seen with another reference: refused, nothing changes. */
  | { kind: 'foreign-transaction'; reference: string; firstReference: string; transactionId: string }
  /** Recorded: `outcome` says what it did to the order. */
  | { kind: 'recorded'; orderId: string; outcome: EventOutcome; reference: string; transactionId: string };

/**
 * `applied`: the order's payment follows the transaction; `mismatch`: amount or currency not the
 * attempt's, written to history, never paid; `stale`: a result of an attempt the order has moved past
 * (another attempt is current, or the order is paid), kept in payment_events only; `refund-due`: money
 * received the bakery must give back (approved after the order was cancelled, or a second approved
 * transaction of a paid order), added to the order's `refundsDue` and its history, the order left as it is.
 */
export type EventOutcome = 'applied' | 'mismatch' | 'stale' | 'refund-due';

/** The payment status a transaction's status leads to (docs/design.md §5). */
const TARGET: Record<TransactionStatus, PaymentStatus> = {
  APPROVED: 'paid',
  PENDING: 'pending',
  DECLINED: 'failed',
  VOIDED: 'failed',
  ERROR: 'failed',
};

type OrderPayment = NonNullable<Order['payment']>;

/** What became of a verified event (the route answers and logs by it). */
export type EventResult =
  | TransactionOutcome
  /** Another kind of event: nothing to do. */
  | { kind: 'ignored'; event: string }
  /** Outside its time window: answered 200 so the gateway stops, not applied (reconciliation asks instead). */
  | { kind: 'untimely'; transactionId: string; when: 'too-old' | 'ahead' }
  /** Its reference was not covered and the gateway does not know its transaction id: nothing applied. */
  | { kind: 'unknown-transaction'; transactionId: string };

/**
 * Online payment (docs/design.md §3, §5): attempts with their own references, started through the configured
 * gateway, and the transactions it reports applied to the order once per (transaction id, status), through
 * the orders service as the gateway, so every effect is in the order's history and the change feed.
 */
export class PaymentsService implements OrderPayments {
  private readonly orders: ServiceOf<'orders'>;

  constructor(
    private readonly ctx: AppContext,
    private readonly resources: ResourceRegistry,
  ) {
    this.orders = resources.get('orders');
  }

  private get gateway() {
    return this.ctx.payments;
  }

  /**
   * A new attempt for an online order, in the caller's transaction (the order already locked or just
   * created in it): the next attempt number, a reference never used, the amount in cents; the order's
   * payment moves to pending at the gateway with that reference.
   */
  async startAttempt(
    scope: WriteScope,
    order: Pick<OrderRow, 'id' | 'companyId' | 'number' | 'total'>,
    redirectUrl: string,
  ): Promise<{ order: Row; link: PaymentLink }> {
    const [last] = await scope.tx
      .select({ n: sql<number>`coalesce(max(${paymentAttempts.attempt}), 0)`.mapWith(Number) })
      .from(paymentAttempts)
      .where(eq(paymentAttempts.orderId, order.id));
    const attempt = (last?.n ?? 0) + 1;
    // Unique and unguessable (docs/design.md §5: `{order number}-{attempt}-{random}`), never reused.
    const reference = `${order.number}-${attempt}-${randomBytes(6).toString('hex')}`;
    const now = this.ctx.clock.now();
    await scope.tx.insert(paymentAttempts).values({
      id: randomBytes(16).toString('base64url'),
      companyId: order.companyId,
      orderId: order.id,
      attempt,
      reference,
      gateway: this.gateway.name,
      amountInCents: order.total * 100,
      currency: CURRENCY,
      status: 'PENDING',
      transactionId: null,
      createdAt: now,
      updatedAt: now,
    });
    const payment: OrderPayment = { gateway: this.gateway.name, reference, transactionId: null };
    const updated = await this.orders.update(
      gatewayActor(this.gateway.name),
      order.companyId,
      order.id,
      { paymentStatus: 'pending', payment },
      scope,
    );
    const link = this.linkOf({ reference, amountInCents: order.total * 100, currency: CURRENCY }, redirectUrl);
    return { order: updated, link };
  }

  /** The link of the order's latest attempt (a repeated checkout answers the same one); null: none. */
  async latestLink(db: DbOrTx, orderId: string, redirectUrl: string): Promise<PaymentLink | null> {
    const [a] = await db
      .select()
      .from(paymentAttempts)
      .where(eq(paymentAttempts.orderId, orderId))
      .orderBy(desc(paymentAttempts.attempt))
      .limit(1);
    return a ? this.linkOf(a, redirectUrl) : null;
  }

  private linkOf(a: { reference: string; amountInCents: number; currency: string }, redirectUrl: string): PaymentLink {
    return {
      reference: a.reference,
      checkoutUrl: this.gateway.checkoutUrl({
        reference: a.reference,
        amountInCents: a.amountInCents,
        currency: a.currency,
        redirectUrl,
      }),
    };
  }

  /**
   * A new attempt for an online order that is not paid (docs/design.md §3: the response page's "Intentar de
   * nuevo"): a new reference, the order's payment pending again. A paid, refunded or cancelled order,
   * or one not paid online, is a 409.
   */
  async newAttempt(orderId: string, redirectUrl: string): Promise<PaymentLink> {
    const companyId = await this.companyOf(orderId);
    return this.resources.transaction(companyId, async (scope) => {
      // Locked first: two tries at once take attempt numbers one after the other.
      const [order] = await scope.tx
        .select()
        .from(orders)
        .where(and(eq(orders.id, orderId), isNull(orders.deletedAt)))
        .for('update');
      if (!order) throw notFound('Order not found');
      if (order.paymentMethod !== 'online') {
        throw new AppError(409, 'payments/not-payable', `Order #${order.number} is not paid online`);
      }
      const closed =
        order.status === 'cancelled'
          ? 'cancelled'
          : ['paid', 'refunded'].includes(order.paymentStatus)
            ? order.paymentStatus
            : null;
      if (closed) {
        throw new AppError(409, 'payments/not-payable', `Order #${order.number} is ${closed}: it takes no new payment`);
      }
      return (await this.startAttempt(scope, order, redirectUrl)).link;
    });
  }

  /**
   * The payment-response page's look-up (docs/design.md §3): the transaction asked of the gateway, server to
   * server, and applied when it carries one of this order's references (its amount and currency are
   * checked as an event's). Without an id, or for a transaction of another order, only the order's own
   * state is answered. Nothing but the id is taken from the query.
   */
  async lookUp(
    orderId: string,
    transactionId: string | undefined,
  ): Promise<{ paymentStatus: PaymentStatus; transactionStatus: TransactionStatus | null }> {
    await this.companyOf(orderId);
    let transactionStatus: TransactionStatus | null = null;
    if (transactionId) {
      let t: GatewayTransaction | null;
      try {
        t = await this.gateway.lookUp(transactionId);
      } catch {
        throw new AppError(503, 'unavailable', 'The payment gateway did not answer; try again in a moment');
      }
      const [ours] = t
        ? await this.ctx.db
            .select({ id: paymentAttempts.id })
            .from(paymentAttempts)
            .where(and(eq(paymentAttempts.reference, t.reference), eq(paymentAttempts.orderId, orderId)))
        : [];
      if (t && ours) {
        await this.applyTransaction(t);
        transactionStatus = t.status;
      }
    }
    const [order] = await this.ctx.db
      .select({ paymentStatus: orders.paymentStatus })
      .from(orders)
      .where(eq(orders.id, orderId));
    return { paymentStatus: order!.paymentStatus, transactionStatus };
  }

  private async companyOf(orderId: string): Promise<string> {
    const [row] = await this.ctx.db
      .select({ companyId: orders.companyId })
      .from(orders)
      .where(and(eq(orders.id, orderId), isNull(orders.deletedAt)));
    if (!row) throw notFound('Order not found');
    return row.companyId;
  }

  /**
   * A verified event: a transaction's state applied (other kinds of event, and one outside its time
   * window, change nothing). When the checksum does not cover exactly the fields acted on (Wompi's own
   * events leave out the reference), only the transaction id is believed: the transaction is asked of the
   * gateway, server to server, and what the gateway answers is applied. 503 when it does not answer, so
   * the gateway sends the event again.
   */
  async applyEvent(event: VerifiedEvent): Promise<EventResult> {
    if (event.kind === 'other') return { kind: 'ignored', event: event.event };
    if (event.kind === 'untimely') return { kind: 'untimely', transactionId: event.transactionId, when: event.when };
    if (event.covered) return this.applyTransaction(event.transaction);
    let t: GatewayTransaction | null;
    try {
      t = await this.gateway.lookUp(event.transaction.id);
    } catch {
      throw new AppError(503, 'unavailable', 'The payment gateway did not answer the look-up of this transaction');
    }
    if (!t || t.id !== event.transaction.id)
      return { kind: 'unknown-transaction', transactionId: event.transaction.id };
    return this.applyTransaction(t);
  }

  /**
   * Applies what the gateway says of a transaction, at most once per (transaction id, status): the row
   * of payment_events is claimed first in the same transaction, so a concurrent copy waits on its key
   * and then finds it taken (no read-then-write). A transaction id already seen with another reference
   * changes nothing (`foreign-transaction`). The order is then locked and moved by the orders service as
   * the gateway.
   */
  async applyTransaction(t: GatewayTransaction): Promise<TransactionOutcome> {
    const [attempt] = await this.ctx.db
      .select()
      .from(paymentAttempts)
      .where(eq(paymentAttempts.reference, t.reference))
      .limit(1);
    if (!attempt) return { kind: 'unknown-reference', reference: t.reference, transactionId: t.id };
    return this.resources.transaction(attempt.companyId, async (scope) => {
      const { tx } = scope;
      const now = this.ctx.clock.now();
      // A transaction id belongs to the first reference it was seen with (docs/design.md §5): the row is claimed
      // first, so of two concurrent events with different references the second finds the first's.
      await tx
        .insert(paymentTransactions)
        .values({ transactionId: t.id, reference: t.reference, firstSeenAt: now })
        .onConflictDoNothing();
      const [bound] = await tx
        .select({ reference: paymentTransactions.reference })
        .from(paymentTransactions)
        .where(eq(paymentTransactions.transactionId, t.id));
      if (bound && bound.reference !== t.reference) {
        return {
          kind: 'foreign-transaction',
          reference: t.reference,
          firstReference: bound.reference,
          transactionId: t.id,
        };
      }
      const claimed = await tx
        .insert(paymentEvents)
        .values({
          transactionId: t.id,
          status: t.status,
          reference: t.reference,
          orderId: attempt.orderId,
          outcome: 'applied',
          receivedAt: now,
        })
        .onConflictDoNothing()
        .returning({ id: paymentEvents.transactionId });
      if (claimed.length === 0) return { kind: 'replay', orderId: attempt.orderId };

      const [order] = await tx.select().from(orders).where(eq(orders.id, attempt.orderId)).for('update');
      if (!order) throw new Error(`payments: attempt ${attempt.reference} names no order`);
      await tx
        .update(paymentAttempts)
        .set({ status: t.status, transactionId: t.id, updatedAt: now })
        .where(eq(paymentAttempts.id, attempt.id));

      const outcome = await this.moveOrder(scope, order, attempt, t);
      if (outcome !== 'applied') {
        await tx
          .update(paymentEvents)
          .set({ outcome })
          .where(and(eq(paymentEvents.transactionId, t.id), eq(paymentEvents.status, t.status)));
      }
      return { kind: 'recorded', orderId: order.id, outcome, reference: t.reference, transactionId: t.id };
    });
  }

  /** The order's payment after a transaction of one of its attempts (docs/design.md §5). */
  private async moveOrder(
    scope: WriteScope,
    order: OrderRow,
    attempt: { reference: string; amountInCents: number; currency: string },
    t: GatewayTransaction,
  ): Promise<EventOutcome> {
    const actor = gatewayActor(this.gateway.name);
    const base: OrderPayment = {
      gateway: this.gateway.name,
      reference: t.reference,
      transactionId: t.id,
      status: t.status,
    };
    if (t.amountInCents !== attempt.amountInCents || t.currency !== attempt.currency) {
      // Written to history, never paid, whatever the status says.
      const problem = `The transaction is for ${t.amountInCents} ${t.currency} in cents; the attempt was for ${attempt.amountInCents} ${attempt.currency}`;
      await this.orders.update(actor, order.companyId, order.id, { payment: { ...base, problem } }, scope);
      return 'mismatch';
    }
    const target = TARGET[t.status];
    const owed = target === 'paid' ? this.refundDueOf(order, t) : null;
    if (owed) {
      // Money received for an order that takes none: never revived, flagged for staff to give it back.
      const refundsDue = [...(order.refundsDue ?? []), owed];
      const paidNow = order.paymentStatus !== 'paid' && order.paymentStatus !== 'refunded';
      if (paidNow && !canMovePayment('gateway', 'online', order.paymentStatus, 'paid')) {
        await this.orders.update(actor, order.companyId, order.id, { paymentStatus: 'pending' }, scope);
      }
      await this.orders.update(
        actor,
        order.companyId,
        order.id,
        paidNow ? { paymentStatus: 'paid', payment: base, refundsDue } : { refundsDue },
        scope,
      );
      return 'refund-due';
    }
    const current = order.payment?.reference === t.reference;
    // Only money received moves an order off another attempt; a decline of an older attempt does not.
    if (!current && target !== 'paid') return 'stale';
    if (order.paymentStatus === 'paid' || order.paymentStatus === 'refunded') return 'stale';
    if (order.paymentStatus !== target && !canMovePayment('gateway', 'online', order.paymentStatus, target)) {
      // Approved after a failure (or before the attempt was recorded as pending): pending first, as
      // the payment axis walks, then paid, both by the gateway.
      if (target === 'paid' && canMovePayment('gateway', 'online', order.paymentStatus, 'pending')) {
        await this.orders.update(actor, order.companyId, order.id, { paymentStatus: 'pending' }, scope);
      } else return 'stale';
    }
    await this.orders.update(actor, order.companyId, order.id, { paymentStatus: target, payment: base }, scope);
    return 'applied';
  }

  /**
   * The payment an approved transaction is owed back as, or null when it pays the order: approved after
   * the order was cancelled, or another transaction than the one that paid it (docs/design.md §5: an order is
   * paid once).
   */
  private refundDueOf(order: OrderRow, t: GatewayTransaction): RefundDue | null {
    const paidBy = order.payment?.status === 'APPROVED' ? order.payment.transactionId : null;
    const reason =
      order.status === 'cancelled'
        ? 'after-cancel'
        : (order.paymentStatus === 'paid' || order.paymentStatus === 'refunded') && paidBy !== t.id
          ? 'duplicate'
          : null;
    if (!reason) return null;
    return {
      reason,
      transactionId: t.id,
      reference: t.reference,
      amountInCents: t.amountInCents,
      currency: t.currency,
      at: this.ctx.clock.now().toISOString(),
    };
  }

  /**
   * The payments module's step of every order update by a gateway (added where the app is composed, after
   * the order's own steps): the payment's change lands in history (with the problem, when the transaction did
   * not match), and a web order still pending is confirmed when it is paid (docs/design.md §5).
   */
  readonly gatewayStep: Step = (u) => {
    if (u.who.kind !== 'gateway') return;
    const { current } = u;
    const log: Logged[] = [];
    const payment = u.out.payment as OrderPayment | undefined;
    // Compared whatever the order of their keys (jsonb reorders them).
    if (payment !== undefined && canonicalHash(payment) !== canonicalHash(current.payment)) {
      log.push(logged('payment', current.payment, payment, payment?.problem ? 'mismatch' : undefined));
    }
    const paidNow = u.out.paymentStatus === 'paid' && current.paymentStatus !== 'paid';
    if (!(paidNow && current.channel === 'web' && current.status === 'pending')) return { log };
    log.push(logged('status', 'pending', 'confirmed', 'paid-online'));
    return { set: { status: 'confirmed' }, log };
  };
}

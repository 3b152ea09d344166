import { allowedPaymentMoves, formatMoney } from '@hornada/domain';
import { AppError } from '../../../../lib/errors';
import { historyBy } from '../../../../resources/actor';
import { logged, type Logged, type OrderUpdate, type StepResult } from '../order-update';
import { sameValue } from '../problems';

/** Whoever may move this order's payment from paid to refunded (the admin): the one who refunds. */
const mayRefund = (u: OrderUpdate) =>
  !!u.payer && u.payer !== 'gateway' && allowedPaymentMoves(u.payer, u.method, 'paid').includes('refunded');

/**
 * Refunds, whole or partial (the admin's, as the move to refunded): one at a time, at most what is left
 * (paid less the refunds before it). The row is locked for the write (resources/service.ts), so two refunds
 * sent at once are applied one after the other and the second sees the first: never more than was paid.
 * The refund that leaves nothing moves the payment to refunded with its reason; the old move to refunded
 * (paymentStatus and refundReason, no amount) records one refund of what is left, so `refunds` always
 * lists every peso given back.
 */
export function recordRefund(u: OrderUpdate): StepResult {
  const { current, data, out } = u;
  const before = current.refunds ?? [];
  const done = before.reduce((sum, r) => sum + r.amount, 0);
  const left = Math.max(0, current.total - done);
  const by = historyBy(u.who);
  const at = u.now.toISOString();
  const sent = data.refund;
  if (!sent) {
    if (out.paymentStatus === 'refunded' && current.paymentStatus !== 'refunded' && left > 0) {
      const reason = data.refundReason ?? current.refundReason ?? '';
      return {
        drop: ['refund'],
        set: { refunds: [...before, { amount: left, reason, at, by }] },
        log: [logged('refunds', done, current.total)],
      };
    }
    return { drop: ['refund'] };
  }
  if (!mayRefund(u)) {
    throw new AppError(403, 'forbidden', `Refunds of order #${current.number} are recorded by the admin`, [
      { path: 'refund', message: 'Only the admin records a refund' },
    ]);
  }
  if (current.paymentStatus !== 'paid' || out.paymentStatus !== undefined) {
    throw new AppError(
      422,
      'orders/not-refundable',
      `Order #${current.number} is ${current.paymentStatus}: only a paid order is refunded`,
      [{ path: 'refund', message: 'Only a paid order is refunded' }],
    );
  }
  if (sent.amount > left) {
    throw new AppError(
      422,
      'orders/refund-too-large',
      `A refund of ${formatMoney(sent.amount)} is more than what is left to refund on order #${current.number}: ${formatMoney(left)}`,
      [{ path: 'refund.amount', message: `At most ${left}` }],
    );
  }
  const set: Record<string, unknown> = { refunds: [...before, { amount: sent.amount, reason: sent.reason, at, by }] };
  const log: Logged[] = [logged('refunds', done, done + sent.amount)];
  if (sent.amount === left) {
    // Nothing left: the payment is refunded, with this refund's reason (docs/design.md §5).
    if (sent.reason !== current.refundReason) log.push(logged('refundReason', current.refundReason, sent.reason));
    set.refundReason = sent.reason;
    set.paymentStatus = 'refunded';
    log.push(logged('paymentStatus', current.paymentStatus, 'refunded'));
  }
  return { drop: ['refund'], set, log };
}

/**
 * Payments owed back: the gateway adds them (modules/payments); the refund of the order
 * (paid → refunded) empties them, and so does the one who may refund saying the money went back
 * (`refundsDue: []`). Every change lands in history.
 */
export function settleRefundsDue(u: OrderUpdate): StepResult {
  const { current, out } = u;
  const before = current.refundsDue ?? [];
  const sent = (u.data as { refundsDue?: unknown }).refundsDue;
  if (u.who.kind === 'gateway') {
    if (Array.isArray(sent) && !sameValue(sent, before)) {
      return { drop: ['refundsDue'], set: { refundsDue: sent }, log: [logged('refundsDue', before, sent)] };
    }
    return { drop: ['refundsDue'] };
  }
  const refundedNow = out.paymentStatus === 'refunded' && current.paymentStatus !== 'refunded';
  if ((sent === undefined && !refundedNow) || before.length === 0) return { drop: ['refundsDue'] };
  if (!refundedNow && !mayRefund(u)) {
    throw new AppError(
      422,
      'orders/invalid-payment',
      `The payments owed back on order #${current.number} are cleared by whoever may refund it`,
      [{ path: 'refundsDue', message: 'Only whoever may refund the order clears it' }],
    );
  }
  return { drop: ['refundsDue'], set: { refundsDue: [] }, log: [logged('refundsDue', before, [])] };
}

import { allowedPaymentMoves, type PaymentStatus } from '@hornada/domain';
import { AppError, validationError } from '../../../../lib/errors';
import { logged, type Logged, type OrderUpdate, type StepResult } from '../order-update';
import { cancelledNotPayable, listOrNone, rule } from '../problems';

/** A new payment method only while unpaid; online is the gateway's, credit the B2B client's. */
export function changePaymentMethod(u: OrderUpdate): StepResult | void {
  const { current, data } = u;
  if (!u.editing.includes('paymentMethod')) return;
  const method = data.paymentMethod!;
  const b2b = data.b2bClientId !== undefined ? data.b2bClientId : current.b2bClientId;
  if (current.paymentStatus !== 'unpaid' || method === 'online' || (method === 'credit' && !b2b)) {
    throw rule('orders/invalid-payment', `The payment method cannot become ${method} now`, 'paymentMethod');
  }
  return { method, log: [logged('paymentMethod', current.paymentMethod, method)] };
}

/** The payment axis by method and role; a driver's collected cash pays a cash order or an unpaid transfer. */
export function movePayment(u: OrderUpdate): StepResult {
  const { current, data, method } = u;
  const paymentTo = data.paymentStatus;
  if (u.changed('refundReason') && paymentTo !== 'refunded') {
    throw new AppError(
      422,
      'orders/field-outside-move',
      `refundReason cannot change on order #${current.number} without a refund; it changes only with the move of the payment to refunded`,
      [{ path: 'refundReason', message: 'Changes only with the move of the payment to refunded' }],
    );
  }
  const log: Logged[] = [];
  const set: Record<string, unknown> = {};
  let newMethod = method;
  if (paymentTo !== undefined && paymentTo !== current.paymentStatus) {
    assertPaymentMove(u, paymentTo);
    if (paymentTo === 'refunded') {
      // The reason belongs to the refund (docs/design.md §5), logged just before it.
      const reason = data.refundReason ?? current.refundReason;
      if (!reason) throw validationError([{ path: 'refundReason', message: 'Say why the order is refunded' }]);
      if (u.changed('refundReason')) log.push(logged('refundReason', current.refundReason, data.refundReason));
    }
    set.paymentStatus = paymentTo;
    log.push(logged('paymentStatus', current.paymentStatus, paymentTo));
  } else if (
    u.changed('cashCollected') &&
    (method === 'cash' || method === 'transfer') &&
    current.paymentStatus === 'unpaid' &&
    (data.cashCollected ?? 0) >= current.total
  ) {
    // The driver's collected cash pays a cash order (docs/design.md §5: "cash collected on delivery"), and an
    // unconfirmed transfer paid at the door instead: that one was paid in cash, so its method
    // becomes cash, and the cash summary counts it both to collect and collected.
    if (method === 'transfer') {
      set.paymentMethod = 'cash';
      newMethod = 'cash';
      log.push(logged('paymentMethod', 'transfer', 'cash', 'cash-collected'));
    }
    set.paymentStatus = 'paid';
    log.push(logged('paymentStatus', 'unpaid', 'paid', 'cash-collected'));
  }
  if (u.changed('cashCollected')) log.push(logged('cashCollected', current.cashCollected, data.cashCollected));
  // What was sent is never stored as it is: only the move decided here.
  return { drop: ['paymentStatus'], set, log, method: newMethod };
}

/** The move is one the payer may make for this method; a person never marks a cancelled order paid. */
function assertPaymentMove(u: OrderUpdate, paymentTo: PaymentStatus): void {
  const { current, data, payer, method } = u;
  if (paymentTo === 'paid' && u.who.kind !== 'gateway') {
    const refused = cancelledNotPayable([
      { number: current.number, status: data.status ?? current.status, path: 'paymentStatus' },
    ]);
    if (refused) throw refused;
  }
  const allowed = payer ? allowedPaymentMoves(payer, method, current.paymentStatus) : [];
  if (!allowed.includes(paymentTo)) {
    throw new AppError(
      422,
      'orders/invalid-payment',
      `The payment of order #${current.number} (${method}) cannot go from ${current.paymentStatus} to ${paymentTo}; allowed: ${listOrNone(allowed)}`,
      [{ path: 'paymentStatus', message: `Allowed: ${listOrNone(allowed)}` }],
    );
  }
}

import type { OrderStatus, OrderPaymentMethod, PaymentStatus } from '@hornada/domain/schemas/orders';

/** How long a payment may stay pending before the page stops waiting on screen (docs/design.md §5: the job asks after). */
export const PENDING_PATIENCE_MS = 10 * 60_000;
/** How often a pending payment is asked about, then how often once the page said it will let them know. */
export const PENDING_POLL_MS = 3000;
export const LATE_POLL_MS = 30_000;
/** How often an order that is not paid online is followed until it is final. */
export const ORDER_POLL_MS = 4000;

/**
 * What the response page says of an order's payment, from what the server answers (never the query):
 * `offline` (cash, transfer: the plain confirmation), `approved`, `declined` (may try again), `pending`
 * (still at the gateway), `late` (pending past PENDING_PATIENCE_MS: "te avisaremos"), `closed` (the order
 * was cancelled or refunded: nothing to pay).
 */
export type PaymentView = 'offline' | 'approved' | 'declined' | 'pending' | 'late' | 'closed';

export function paymentView(
  order: { paymentMethod: OrderPaymentMethod; paymentStatus: PaymentStatus; status: OrderStatus },
  waitedMs: number,
): PaymentView {
  if (order.paymentMethod !== 'online') return 'offline';
  if (order.paymentStatus === 'paid') return 'approved';
  if (order.status === 'cancelled' || order.paymentStatus === 'refunded') return 'closed';
  if (order.paymentStatus === 'failed') return 'declined';
  return waitedMs >= PENDING_PATIENCE_MS ? 'late' : 'pending';
}

/** When to ask again (ms), or null when the answer is final for this page. */
export function nextPoll(view: PaymentView, orderStatus: OrderStatus): number | null {
  switch (view) {
    case 'pending':
      return PENDING_POLL_MS;
    case 'late':
      return LATE_POLL_MS;
    case 'offline':
    case 'approved':
      // The order itself is still followed until it is delivered or cancelled (its status chip).
      return orderStatus === 'delivered' || orderStatus === 'cancelled' ? null : ORDER_POLL_MS;
    default:
      return null;
  }
}

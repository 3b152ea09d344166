import { ORDER_STATUS_ES, paymentStatusText } from '@hornada/domain/order-status';
import type { OrderStatus, PaymentStatus } from '@hornada/domain/schemas/orders';

/**
 * An order's status and payment as chips, one palette wherever an order is shown (staff's orders screen, the
 * customer's history): the same status reads in the same colour for everyone. Text at least 4.5:1 on its
 * background. `size` 'md' for a card's header, 'sm' (default) for a table row.
 */

const STATUS_TONE: Record<OrderStatus, string> = {
  pending: 'bg-amber-100 text-amber-950 ring-amber-300',
  confirmed: 'bg-sky-100 text-sky-950 ring-sky-300',
  in_production: 'bg-violet-100 text-violet-950 ring-violet-300',
  ready: 'bg-teal-100 text-teal-950 ring-teal-300',
  out_for_delivery: 'bg-indigo-100 text-indigo-950 ring-indigo-300',
  delivered: 'bg-emerald-100 text-emerald-950 ring-emerald-300',
  cancelled: 'bg-stone-200 text-stone-800 ring-stone-300',
};

const PAYMENT_TONE: Record<PaymentStatus, string> = {
  unpaid: 'bg-orange-50 text-orange-950 ring-orange-300',
  pending: 'bg-sky-50 text-sky-950 ring-sky-300',
  paid: 'bg-emerald-50 text-emerald-950 ring-emerald-300',
  failed: 'bg-red-50 text-red-950 ring-red-300',
  refunded: 'bg-stone-100 text-stone-800 ring-stone-300',
};

type ChipSize = 'sm' | 'md';

const chip = (size: ChipSize) =>
  `inline-flex items-center whitespace-nowrap rounded-full px-2.5 py-0.5 font-semibold ring-1 ring-inset ${
    size === 'md' ? 'text-sm' : 'text-xs'
  }`;

/** An order's status as a coloured chip (its Spanish label from packages/domain). */
export function StatusChip({ status, size = 'sm' }: { status: OrderStatus; size?: ChipSize }) {
  return <span className={`${chip(size)} ${STATUS_TONE[status]}`}>{ORDER_STATUS_ES[status]}</span>;
}

/** An order's payment status as a chip; with the order's status, a cancelled order's pending payment reads "Sin cobro". */
export function PaymentChip({
  status,
  orderStatus,
  size = 'sm',
}: {
  status: PaymentStatus;
  orderStatus?: OrderStatus;
  size?: ChipSize;
}) {
  const tone = orderStatus === 'cancelled' && status === 'pending' ? PAYMENT_TONE.refunded : PAYMENT_TONE[status];
  return <span className={`${chip(size)} ${tone}`}>{paymentStatusText(status, orderStatus)}</span>;
}

/** An order a B2B client's standing order made (docs/design.md §3): "Recurrente". */
export function RecurringChip({ size = 'sm' }: { size?: ChipSize }) {
  return (
    <span
      className={`${chip(size)} bg-fuchsia-50 text-fuchsia-950 ring-fuchsia-300`}
      title="Creado por un pedido recurrente"
    >
      Recurrente
    </span>
  );
}

/** Money received that the bakery must give back: loud, since nobody else will notice it. */
export function RefundDueChip({ count, size = 'sm' }: { count: number; size?: ChipSize }) {
  if (count === 0) return null;
  return (
    <span className={`${chip(size)} bg-red-50 text-red-800 ring-red-600/30`} data-refund-due="">
      {count === 1 ? 'Devolver pago' : `Devolver ${count} pagos`}
    </span>
  );
}

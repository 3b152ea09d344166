import type { OrderStatus, PaymentStatus } from '@hornada/domain/schemas/orders';
import { ORDER_STATUS_ES, PAYMENT_STATUS_ES, PAYMENT_TONE, STATUS_TONE } from './order-view';

const chip =
  'inline-flex items-center whitespace-nowrap rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset';

/** An order's status as a coloured chip (its Spanish label from packages/domain). */
export function StatusChip({ status }: { status: OrderStatus }) {
  return <span className={`${chip} ${STATUS_TONE[status]}`}>{ORDER_STATUS_ES[status]}</span>;
}

/** An order's payment status as a chip. */
export function PaymentChip({ status }: { status: PaymentStatus }) {
  return <span className={`${chip} ${PAYMENT_TONE[status]}`}>{PAYMENT_STATUS_ES[status]}</span>;
}

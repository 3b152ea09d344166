import { FULFILLMENT_ES, historyLine, type HistoryLine } from '@hornada/domain/order-history';
import {
  allowedPaymentMoves,
  allowedStatusMoves,
  CHANNEL_ES,
  ORDER_STATUS_ES,
  PAYMENT_METHOD_ES,
  PAYMENT_STATUS_ES,
} from '@hornada/domain/order-status';
import type { Role } from '@hornada/domain/roles';
import type { Order, OrderStatus, RefundDueReason } from '@hornada/domain/schemas/orders';

/** What the orders screen shows of an order, pure: labels, days, links, history lines and the moves a role may make. */

export { CHANNEL_ES, FULFILLMENT_ES, historyLine, type HistoryLine };

/** The button that makes a status move, as a verb. */
export const STATUS_ACTION_ES: Record<OrderStatus, string> = {
  pending: 'Volver a pendiente',
  confirmed: 'Confirmar',
  in_production: 'Iniciar producción',
  ready: 'Marcar listo',
  out_for_delivery: 'Enviar a domicilio',
  delivered: 'Marcar entregado',
  cancelled: 'Cancelar pedido',
};

export { ORDER_STATUS_ES, PAYMENT_METHOD_ES, PAYMENT_STATUS_ES };

/** A day `YYYY-MM-DD` plus `n` days (calendar arithmetic, no time zone involved). */
export function addDays(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

export interface DatePreset {
  id: string;
  label: string;
  /** Bounds as the API reads them: relative to today in the company's time zone, so a saved link stays current. */
  start: string;
  end: string;
}

/** The due-day choices the screen offers. */
export const DATE_PRESETS: readonly DatePreset[] = [
  { id: 'upcoming', label: 'Hoy y próximos', start: 'today', end: '' },
  { id: 'today', label: 'Hoy', start: 'today', end: 'today' },
  { id: 'tomorrow', label: 'Mañana', start: 'today+1', end: 'today+1' },
  { id: 'next7', label: 'Próximos 7 días', start: 'today', end: 'today+6' },
  { id: 'yesterday', label: 'Ayer', start: 'today-1', end: 'today-1' },
  { id: 'last7', label: 'Últimos 7 días', start: 'today-7', end: 'today-1' },
  { id: 'all', label: 'Todas las fechas', start: '', end: '' },
];

/** Which preset a range is ('custom' when none). */
export function presetOf(start: string, end: string): string {
  return DATE_PRESETS.find((p) => p.start === start && p.end === end)?.id ?? 'custom';
}

/** A bound as a calendar day (`today+1` → the day after `today`); '' stays ''. */
export function absoluteDay(bound: string, today: string): string {
  const m = /^today(?:([+-])(\d{1,3}))?$/.exec(bound);
  if (!m) return bound;
  return addDays(today, (m[1] === '-' ? -1 : 1) * Number(m[2] ?? 0));
}

const shortDays = new Map<string, Intl.DateTimeFormat>();

/** The due day as staff scan it: 'Hoy', 'Mañana', 'Ayer' or 'jue 26 nov'. */
export function shortDay(dueDate: string | Date, timeZone: string, today: string): string {
  const at = new Date(dueDate);
  if (Number.isNaN(at.getTime())) return '';
  const day = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    at,
  );
  if (day === today) return 'Hoy';
  if (day === addDays(today, 1)) return 'Mañana';
  if (day === addDays(today, -1)) return 'Ayer';
  let f = shortDays.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('es-CO', { timeZone, weekday: 'short', day: 'numeric', month: 'short' });
    shortDays.set(timeZone, f);
  }
  return f.format(at).replace(/[.,]/g, '').replace(/\s+/g, ' ');
}

export interface WindowDef {
  id: string;
  label: string;
  start: string;
  end: string;
}

export interface OrderMoves {
  /** The next step forward (the row's main button), if the role may make one. */
  next: OrderStatus | null;
  /** Cancelling, when the role may. */
  cancel: boolean;
  /** Marking paid (cash, transfer, credit; the gateway's alone for online). */
  markPaid: boolean;
  /** Refunding a paid order (the admin's). */
  refund: boolean;
  /** Saying the payments owed back were returned (whoever may refund). */
  clearRefunds: boolean;
}

/** The moves `role` may make on `order`, read from the status machine and the role table of packages/domain. */
export function orderMoves(
  role: Role | null,
  order: Pick<Order, 'status' | 'fulfillment' | 'paymentMethod' | 'paymentStatus'> & Partial<Pick<Order, 'refundsDue'>>,
): OrderMoves {
  if (!role) return { next: null, cancel: false, markPaid: false, refund: false, clearRefunds: false };
  const status = allowedStatusMoves(role, order.status, order.fulfillment);
  const payment = allowedPaymentMoves(role, order.paymentMethod, order.paymentStatus);
  return {
    next: status.find((s) => s !== 'cancelled') ?? null,
    cancel: status.includes('cancelled'),
    // A cancelled order is not collected.
    markPaid: payment.includes('paid') && order.status !== 'cancelled',
    refund: payment.includes('refunded'),
    clearRefunds:
      (order.refundsDue?.length ?? 0) > 0 &&
      allowedPaymentMoves(role, order.paymentMethod, 'paid').includes('refunded'),
  };
}

/** Why a payment is owed back, as staff read it. */
export const REFUND_DUE_ES: Record<RefundDueReason, string> = {
  'after-cancel': 'Pago recibido después de cancelar: devolver',
  duplicate: 'Pago recibido dos veces: devolver',
};

/**
 * Whether the write a live change carries is the one that paid the order: the order is paid and its
 * history's move to paid belongs to the latest write (its entries are milliseconds apart; a later
 * status change of a paid order comes seconds or days after). Compared within the server's own clock,
 * so the browser's clock does not matter.
 */
export function paidByThisChange(doc: Partial<Pick<Order, 'paymentStatus' | 'history'>>): boolean {
  if (doc.paymentStatus !== 'paid' || !doc.history?.length) return false;
  const last = Date.parse(doc.history.at(-1)!.at);
  const paid = doc.history.findLast((h) => h.field === 'paymentStatus' && h.to === 'paid');
  return paid !== undefined && last - Date.parse(paid.at) < 1000;
}

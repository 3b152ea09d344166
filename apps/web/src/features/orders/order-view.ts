import { formatDateTime, formatMoney } from '@hornada/domain/format';
import {
  allowedPaymentMoves,
  allowedStatusMoves,
  CHANNEL_ES,
  ORDER_STATUS_ES,
  PAYMENT_METHOD_ES,
  PAYMENT_STATUS_ES,
} from '@hornada/domain/order-status';
import type { Role } from '@hornada/domain/roles';
import type { Fulfillment } from '@hornada/domain/schemas/carts';
import type {
  HistoryEntry,
  Order,
  OrderPaymentMethod,
  OrderStatus,
  PaymentStatus,
  RefundDueReason,
} from '@hornada/domain/schemas/orders';

/** What the orders screen shows of an order, pure: labels, days, links, history lines and the moves a role may make. */

export { CHANNEL_ES };

export const FULFILLMENT_ES: Record<Fulfillment, string> = {
  delivery: 'Domicilio',
  pickup: 'Recoge en tienda',
};

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

/** Why a payment is owed back, as staff read it (issue 24). */
export const REFUND_DUE_ES: Record<RefundDueReason, string> = {
  'after-cancel': 'Pago recibido después de cancelar: devolver',
  duplicate: 'Pago recibido dos veces: devolver',
};

const FIELD_ES: Record<string, string> = {
  status: 'Estado',
  paymentStatus: 'Pago',
  paymentMethod: 'Medio de pago',
  dueDate: 'Día de entrega',
  window: 'Horario',
  items: 'Productos',
  total: 'Total',
  fulfillment: 'Entrega',
  address: 'Dirección',
  deliveryAssistantId: 'Domiciliario',
  cashCollected: 'Efectivo recibido',
  b2bClientId: 'Cliente mayorista',
  notes: 'Notas',
  cancelReason: 'Motivo de la cancelación',
  refundReason: 'Motivo del reembolso',
  refundsDue: 'Pagos por devolver',
  contact: 'Contacto',
  customerId: 'Cliente',
  routePosition: 'Orden en la ruta',
  producedQuantities: 'Cantidades producidas',
};

const NOTE_ES: Record<string, string> = {
  'lead-time': 'con menos anticipación de la habitual',
  capacity: 'con el horario lleno',
  'cash-collected': 'efectivo recibido en la entrega',
};

const ROLE_ES: Record<string, string> = {
  system_admin: 'administración',
  company_admin: 'administración',
  company_staff: 'equipo',
  company_customer: 'cliente',
  delivery_assistant: 'domicilios',
  production_assistant: 'producción',
  guest: 'cliente',
  gateway: 'pasarela',
  system: 'sistema',
};

export interface HistoryLine {
  at: string;
  when: string;
  who: string;
  what: string;
}

function valueText(field: string, value: unknown, windows: readonly WindowDef[]): string {
  if (value === null || value === undefined || value === '') return '—';
  if (field === 'status') return ORDER_STATUS_ES[value as OrderStatus] ?? String(value);
  if (field === 'paymentStatus') return PAYMENT_STATUS_ES[value as PaymentStatus] ?? String(value);
  if (field === 'paymentMethod') return PAYMENT_METHOD_ES[value as OrderPaymentMethod] ?? String(value);
  if (field === 'fulfillment') return FULFILLMENT_ES[value as Fulfillment] ?? String(value);
  if (field === 'total' || field === 'cashCollected') return typeof value === 'number' ? formatMoney(value) : '—';
  if (field === 'window') return windows.find((w) => w.id === value)?.label ?? String(value);
  if (field === 'items' && Array.isArray(value)) {
    const units = value.reduce<number>((sum, l) => sum + (Number((l as { quantity?: number }).quantity) || 0), 0);
    return `${units} ${units === 1 ? 'unidad' : 'unidades'}`;
  }
  if (field === 'deliveryAssistantId' || field === 'customerId') return 'asignado';
  if (field === 'refundsDue' && Array.isArray(value)) return value.length === 0 ? 'ninguno' : String(value.length);
  return typeof value === 'string' || typeof value === 'number' ? String(value) : 'cambió';
}

/** One history entry in Spanish: when, who, and what went from what to what (newest first is the caller's choice). */
export function historyLine(entry: HistoryEntry, windows: readonly WindowDef[], timeZone: string): HistoryLine {
  const role = ROLE_ES[entry.by.role];
  const who = role && entry.by.name !== role ? `${entry.by.name} (${role})` : entry.by.name;
  const label = FIELD_ES[entry.field] ?? entry.field;
  let what: string;
  if (entry.field === 'status' && (entry.from === null || entry.from === undefined)) {
    what = `Pedido recibido: ${valueText('status', entry.to, windows)}`;
  } else if (entry.field === 'standingOrderId') {
    what = 'Creado por un pedido recurrente';
  } else {
    what = `${label}: ${valueText(entry.field, entry.from, windows)} → ${valueText(entry.field, entry.to, windows)}`;
  }
  const note = entry.note ? NOTE_ES[entry.note] : undefined;
  if (note) what += ` (${note})`;
  return { at: entry.at, when: formatDateTime(entry.at, { timeZone }), who, what };
}

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

import { formatDateTime, formatMoney } from './format';
import type { WindowParts } from './order-display';
import { notReceivedText, ORDER_STATUS_ES, PAYMENT_METHOD_ES, PAYMENT_STATUS_ES } from './order-status';
import type { Fulfillment } from './schemas/carts';
import type { HistoryEntry, NotReceived, OrderPaymentMethod, OrderStatus, PaymentStatus } from './schemas/orders';

/**
 * An order's history as people read it, in Spanish (design §5: every change lands in history): the staff's
 * orders screen and the customer's own history show the same lines.
 */

export const FULFILLMENT_ES: Record<Fulfillment, string> = {
  delivery: 'Domicilio',
  pickup: 'Recoge en tienda',
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
  refunds: 'Reembolsado',
  b2bClientId: 'Cliente mayorista',
  notes: 'Notas',
  cancelReason: 'Motivo de la cancelación',
  refundReason: 'Motivo del reembolso',
  notReceived: 'No recibió',
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

function valueText(field: string, value: unknown, windows: readonly WindowParts[]): string {
  if (value === null || value === undefined || value === '') return '—';
  if (field === 'status') return ORDER_STATUS_ES[value as OrderStatus] ?? String(value);
  if (field === 'paymentStatus') return PAYMENT_STATUS_ES[value as PaymentStatus] ?? String(value);
  if (field === 'paymentMethod') return PAYMENT_METHOD_ES[value as OrderPaymentMethod] ?? String(value);
  if (field === 'fulfillment') return FULFILLMENT_ES[value as Fulfillment] ?? String(value);
  if (field === 'total' || field === 'cashCollected' || field === 'refunds')
    return typeof value === 'number' ? formatMoney(value) : '—';
  if (field === 'window') return windows.find((w) => w.id === value)?.label ?? String(value);
  if (field === 'items' && Array.isArray(value)) {
    const units = value.reduce<number>((sum, l) => sum + (Number((l as { quantity?: number }).quantity) || 0), 0);
    return `${units} ${units === 1 ? 'unidad' : 'unidades'}`;
  }
  if (field === 'deliveryAssistantId' || field === 'customerId') return 'asignado';
  if (field === 'notReceived' && typeof value === 'object') return notReceivedText(value as NotReceived);
  if (field === 'refundsDue' && Array.isArray(value)) return value.length === 0 ? 'ninguno' : String(value.length);
  return typeof value === 'string' || typeof value === 'number' ? String(value) : 'cambió';
}

/** One history entry in Spanish: when, who, and what went from what to what (newest first is the caller's choice). */
export function historyLine(entry: HistoryEntry, windows: readonly WindowParts[], timeZone: string): HistoryLine {
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
 * What a paid order still owes because it grew after it was paid (issue 29: staff added lines to an order
 * paid online): its total now less its total when it was paid, read from its history; 0 when not paid, or
 * when it did not grow. The money for a smaller order goes back as a refund, which is the admin's move.
 */
export function balanceDue(order: {
  total: number;
  paymentStatus: PaymentStatus;
  history: readonly HistoryEntry[];
}): number {
  if (order.paymentStatus !== 'paid') return 0;
  const paidAt = order.history.findLastIndex((h) => h.field === 'paymentStatus' && h.to === 'paid');
  if (paidAt < 0) return 0;
  const changes = order.history.map((h, i) => ({ h, i })).filter(({ h }) => h.field === 'total');
  // The total when it was paid: the last change before (or in) that write, else what the first change started from.
  const before = changes.filter(({ i }) => i <= paidAt).at(-1);
  const after = changes.find(({ i }) => i > paidAt);
  const paid = before ? Number(before.h.to) : after ? Number(after.h.from) : order.total;
  return Number.isFinite(paid) ? Math.max(0, order.total - paid) : 0;
}

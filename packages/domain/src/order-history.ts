import { formatDateTime, formatMoney } from './format';
import type { WindowParts } from './order-display';
import { notReceivedText, ORDER_STATUS_ES, PAYMENT_METHOD_ES, PAYMENT_STATUS_ES } from './order-status';
import type { Fulfillment } from './schemas/carts';
import type { HistoryEntry, NotReceived, OrderPaymentMethod, OrderStatus, PaymentStatus } from './schemas/orders';

/**
 * An order's history as people read it, in Spanish (docs/design.md §5: every change lands in history): the staff's
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

const empty = (value: unknown) => value === null || value === undefined || value === '';

function valueText(field: string, value: unknown, windows: readonly WindowParts[]): string {
  if (empty(value)) return '—';
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
  if (field === 'notReceived' && typeof value === 'object') return notReceivedText(value as NotReceived);
  if (field === 'refundsDue' && Array.isArray(value)) return value.length === 0 ? 'ninguno' : String(value.length);
  return String(value);
}

/** Fields whose values are ids: the line names whom they point at (the entry's `names`), never the id. */
const PERSON_FIELDS: Record<string, { set: string; changed: string; cleared: string; unnamed: string }> = {
  deliveryAssistantId: {
    set: 'Asignado a',
    changed: 'Asignado a',
    cleared: 'Sin domiciliario',
    unnamed: 'un domiciliario',
  },
  customerId: { set: 'Cliente:', changed: 'Cliente:', cleared: 'Sin cliente', unnamed: 'un cliente registrado' },
  b2bClientId: {
    set: 'Cliente mayorista:',
    changed: 'Cliente mayorista:',
    cleared: 'Sin cliente mayorista',
    unnamed: 'otro cliente mayorista',
  },
};

/** A change of who: "Asignado a Carlos Pérez (antes: Ana Gómez)", "Sin domiciliario (antes: Ana Gómez)". */
function personText(entry: HistoryEntry): string {
  const words = PERSON_FIELDS[entry.field]!;
  const fromName = entry.names?.from ?? null;
  const toName = entry.names?.to ?? null;
  const before = !empty(entry.from) && fromName ? ` (antes: ${fromName})` : '';
  if (empty(entry.to)) return `${words.cleared}${before}`;
  return `${empty(entry.from) ? words.set : words.changed} ${toName ?? words.unnamed}${before}`;
}

/** A change of something that is not one value (an address, a contact, a list): said in words. */
const CHANGED_ES: Record<string, string> = {
  address: 'Dirección cambiada',
  contact: 'Datos de contacto cambiados',
  producedQuantities: 'Cantidades producidas actualizadas',
  notes: 'Notas cambiadas',
};

function wholeChangeText(entry: HistoryEntry, label: string): string {
  if (entry.field === 'address') {
    const line = (v: unknown) => (v && typeof v === 'object' ? (v as { line?: unknown }).line : undefined);
    const to = line(entry.to);
    if (empty(entry.to)) return 'Dirección quitada';
    if (typeof to === 'string' && to)
      return `${empty(entry.from) ? 'Dirección agregada' : 'Dirección cambiada'}: ${to}`;
  }
  if (entry.field === 'notes') {
    if (empty(entry.to)) return 'Notas quitadas';
    if (typeof entry.to === 'string')
      return `${empty(entry.from) ? 'Notas agregadas' : 'Notas cambiadas'}: ${entry.to}`;
  }
  return CHANGED_ES[entry.field] ?? `${label} cambió`;
}

/** Whether a value reads as one word or number (else the line says what changed, not "cambió → cambió"). */
function isPlain(field: string, value: unknown): boolean {
  if (empty(value) || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    return true;
  }
  return field === 'items' || field === 'notReceived' || field === 'refundsDue';
}

/** One history entry in Spanish: when, who, and what changed, in words (newest first is the caller's choice). */
export function historyLine(entry: HistoryEntry, windows: readonly WindowParts[], timeZone: string): HistoryLine {
  const role = ROLE_ES[entry.by.role];
  const who = role && entry.by.name !== role ? `${entry.by.name} (${role})` : entry.by.name;
  const label = FIELD_ES[entry.field] ?? entry.field;
  let what: string;
  if (entry.field === 'status' && empty(entry.from)) {
    what = `Pedido recibido: ${valueText('status', entry.to, windows)}`;
  } else if (entry.field === 'standingOrderId') {
    what = 'Creado por un pedido recurrente';
  } else if (PERSON_FIELDS[entry.field]) {
    what = personText(entry);
  } else if (CHANGED_ES[entry.field] || !isPlain(entry.field, entry.from) || !isPlain(entry.field, entry.to)) {
    what = wholeChangeText(entry, label);
  } else if (empty(entry.from)) {
    what = `${label}: ${valueText(entry.field, entry.to, windows)}`;
  } else if (empty(entry.to)) {
    what = `${label}: se quitó (antes: ${valueText(entry.field, entry.from, windows)})`;
  } else {
    what = `${label}: ${valueText(entry.field, entry.from, windows)} → ${valueText(entry.field, entry.to, windows)}`;
  }
  const note = entry.note ? NOTE_ES[entry.note] : undefined;
  if (note) what += ` (${note})`;
  return { at: entry.at, when: formatDateTime(entry.at, { timeZone }), who, what };
}

/**
 * What a paid order still owes because it grew after it was paid (staff added lines to an order
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

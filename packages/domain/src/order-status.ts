import type { Role } from './roles';
import type { Fulfillment } from './schemas/carts';
import type { NotReceivedReason, OrderChannel, OrderPaymentMethod, OrderStatus, PaymentStatus } from './schemas/orders';

/**
 * The status machine and the payment axis of docs/design.md §5, with the role table: pure, so the server's
 * write path, the web's quick actions and the tests read the same rules.
 */
type Mover = 'back_office' | 'production_assistant' | 'delivery_assistant' | 'company_customer';

interface Move<S> {
  from: S;
  to: S;
  /** Who besides admin and staff (who make every move of the status machine) may make it. */
  by: readonly Mover[];
  /** Only for this fulfilment (a pickup order goes ready → delivered, a delivery goes out first). */
  only?: Fulfillment;
  /** False: admin and staff do not make it either (the driver's "No recibió" is said at the door). */
  office?: false;
}

const STATUS_MOVES: readonly Move<OrderStatus>[] = [
  { from: 'pending', to: 'confirmed', by: [] },
  { from: 'pending', to: 'cancelled', by: ['company_customer'] },
  { from: 'confirmed', to: 'in_production', by: ['production_assistant'] },
  { from: 'confirmed', to: 'cancelled', by: [] },
  { from: 'in_production', to: 'ready', by: ['production_assistant'] },
  { from: 'in_production', to: 'cancelled', by: [] },
  { from: 'ready', to: 'out_for_delivery', by: ['delivery_assistant'], only: 'delivery' },
  { from: 'ready', to: 'delivered', by: [], only: 'pickup' },
  { from: 'out_for_delivery', to: 'delivered', by: ['delivery_assistant'], only: 'delivery' },
  // "No recibió": the stop failed, the order goes back to the office with a reason (notReceived).
  { from: 'out_for_delivery', to: 'ready', by: ['delivery_assistant'], only: 'delivery', office: false },
];

function moverOf(role: Role): Mover | null {
  if (role === 'system_admin' || role === 'company_admin' || role === 'company_staff') return 'back_office';
  return role === 'production_assistant' || role === 'delivery_assistant' || role === 'company_customer' ? role : null;
}

const mayMake = (role: Role, move: Move<unknown>) => {
  const mover = moverOf(role);
  if (mover === 'back_office') return move.office !== false;
  return mover !== null && move.by.includes(mover);
};

/** The statuses this role may move an order to from `from` (empty: none). */
export function allowedStatusMoves(role: Role, from: OrderStatus, fulfillment: Fulfillment): OrderStatus[] {
  return STATUS_MOVES.filter((m) => m.from === from && (!m.only || m.only === fulfillment) && mayMake(role, m)).map(
    (m) => m.to,
  );
}

export function canMoveStatus(role: Role, from: OrderStatus, to: OrderStatus, fulfillment: Fulfillment): boolean {
  return allowedStatusMoves(role, from, fulfillment).includes(to);
}

/** Every status move of the machine, whoever makes it (for the tests and the web's chips). */
export function statusMoves(fulfillment: Fulfillment): { from: OrderStatus; to: OrderStatus }[] {
  return STATUS_MOVES.filter((m) => !m.only || m.only === fulfillment).map(({ from, to }) => ({ from, to }));
}

/** The statuses in which the lines, the day and the delivery details may still change. */
export const EDITABLE_STATUSES: readonly OrderStatus[] = ['pending', 'confirmed'];
/** The statuses from which an order may be cancelled (with a reason). */
export const CANCELLABLE_STATUSES: readonly OrderStatus[] = ['pending', 'confirmed', 'in_production'];

type PaymentMover = 'back_office' | 'admin' | 'gateway';
interface PaymentMove {
  from: PaymentStatus;
  to: PaymentStatus;
  by: PaymentMover;
}

/**
 * The payment axis, by method (docs/design.md §5). Cash: staff marks it paid, or the driver's collected
 * cash does (the server sets it when `cashCollected` reaches the total). Transfer: staff confirms.
 * Online: only the gateway moves it. Credit (B2B): paid when settled. A refund is the admin's.
 */
/** Cash, transfer and credit: staff marks them paid (the driver's collected cash does too), the admin refunds. */
const SETTLED_BY_STAFF: readonly PaymentMove[] = [
  { from: 'unpaid', to: 'paid', by: 'back_office' },
  { from: 'paid', to: 'refunded', by: 'admin' },
];

const PAYMENT_MOVES: Record<OrderPaymentMethod, readonly PaymentMove[]> = {
  cash: SETTLED_BY_STAFF,
  transfer: SETTLED_BY_STAFF,
  credit: SETTLED_BY_STAFF,
  online: [
    { from: 'unpaid', to: 'pending', by: 'gateway' },
    { from: 'pending', to: 'paid', by: 'gateway' },
    { from: 'pending', to: 'failed', by: 'gateway' },
    { from: 'failed', to: 'pending', by: 'gateway' },
    { from: 'paid', to: 'refunded', by: 'admin' },
  ],
};

/** Who moves a payment: a role, or the payment gateway (the server itself). */
export type PaymentActor = Role | 'gateway';

function mayMovePayment(actor: PaymentActor, by: PaymentMover): boolean {
  if (by === 'gateway') return actor === 'gateway';
  if (by === 'admin') return actor === 'company_admin' || actor === 'system_admin';
  return actor === 'company_admin' || actor === 'company_staff' || actor === 'system_admin';
}

export function allowedPaymentMoves(
  actor: PaymentActor,
  method: OrderPaymentMethod,
  from: PaymentStatus,
): PaymentStatus[] {
  return PAYMENT_MOVES[method].filter((m) => m.from === from && mayMovePayment(actor, m.by)).map((m) => m.to);
}

export function canMovePayment(
  actor: PaymentActor,
  method: OrderPaymentMethod,
  from: PaymentStatus,
  to: PaymentStatus,
): boolean {
  return allowedPaymentMoves(actor, method, from).includes(to);
}

/** The payment statuses an order of this method may have at all (its starting one first). */
export function paymentStatusesOf(method: OrderPaymentMethod): PaymentStatus[] {
  const out: PaymentStatus[] = ['unpaid'];
  for (const m of PAYMENT_MOVES[method]) if (!out.includes(m.to)) out.push(m.to);
  return out;
}

/** Design §5: "unpaid" = not cancelled and not paid (open balances). */
export function isUnpaid(order: { status: OrderStatus; paymentStatus: PaymentStatus }): boolean {
  return order.status !== 'cancelled' && order.paymentStatus !== 'paid' && order.paymentStatus !== 'refunded';
}

/** Spanish labels for the statuses (chips, the confirmation page). */
export const ORDER_STATUS_ES: Record<OrderStatus, string> = {
  pending: 'Pendiente',
  confirmed: 'Confirmado',
  in_production: 'En producción',
  ready: 'Listo',
  out_for_delivery: 'En camino',
  delivered: 'Entregado',
  cancelled: 'Cancelado',
};

/** The driver's reasons for "No recibió", as the phone offers them. */
export const NOT_RECEIVED_ES: Record<NotReceivedReason, string> = {
  nobody_home: 'No había nadie',
  wrong_address: 'Dirección errada',
  refused: 'Rechazó el pedido',
  other: 'Otro',
};

/** "No había nadie", or "Otro: <what the driver wrote>". */
export function notReceivedText(v: { reason: NotReceivedReason; details?: string | null }): string {
  const label = NOT_RECEIVED_ES[v.reason] ?? v.reason;
  return v.details ? `${label}: ${v.details}` : label;
}

export const PAYMENT_STATUS_ES: Record<PaymentStatus, string> = {
  unpaid: 'Sin pagar',
  pending: 'Pago en proceso',
  paid: 'Pagado',
  failed: 'Pago rechazado',
  refunded: 'Reembolsado',
};

/**
 * An order's payment as people read it: a cancelled order never says a payment is in progress (an online
 * attempt left pending when it was cancelled charges nothing; money the gateway approves after is a payment
 * owed back, shown apart).
 */
export function paymentStatusText(paymentStatus: PaymentStatus, orderStatus?: OrderStatus): string {
  if (orderStatus === 'cancelled' && paymentStatus === 'pending') return 'Sin cobro';
  return PAYMENT_STATUS_ES[paymentStatus];
}

export const CHANNEL_ES: Record<OrderChannel, string> = {
  web: 'Tienda en línea',
  staff: 'Mostrador',
  b2b: 'Mayorista',
};

export const PAYMENT_METHOD_ES: Record<OrderPaymentMethod, string> = {
  cash: 'Efectivo',
  transfer: 'Transferencia',
  online: 'Pago en línea',
  credit: 'Crédito',
};

/**
 * When a field belongs to the order's life (docs/design.md §5's role × field table): the statuses it
 * may change in (`during`, when the write moves nothing) and the moves it may come with (`with`, the
 * status a write moves the order to). A write that moves the order is judged by its move alone, so a
 * field never rides along a move it does not belong to (a reason with anything but a cancellation,
 * cash on a cancelled order).
 */
export interface FieldMoment {
  during: readonly OrderStatus[];
  with: readonly OrderStatus[];
}

/** The fields whose change is bound to a moment of the order; the others follow only the permission table. */
export const MOMENT_FIELDS = [
  'cancelReason',
  'notReceived',
  'cashCollected',
  'producedQuantities',
  'routePosition',
  'deliveryAssistantId',
  'notes',
] as const;
export type MomentField = (typeof MOMENT_FIELDS)[number];

const OPEN: readonly OrderStatus[] = ['pending', 'confirmed', 'in_production', 'ready', 'out_for_delivery'];
const OPEN_MOVES: readonly OrderStatus[] = ['confirmed', 'in_production', 'ready', 'out_for_delivery'];

/**
 * By mover, the moments of the fields it may write (the permission table's `writable` says which). A
 * field the back office writes without a line here (notes, contact…) has no moment of its own.
 */
export const ORDER_FIELD_MOMENTS: Record<Mover, Partial<Record<MomentField, FieldMoment>>> = {
  back_office: {
    cancelReason: { during: [], with: ['cancelled'] },
    // The driver's word from the door: the office reads it, never writes it (the next trip out clears it).
    notReceived: { during: [], with: [] },
    // Collected on the way or at the counter; the till may be settled after delivery.
    cashCollected: { during: ['out_for_delivery', 'delivered'], with: ['delivered'] },
    producedQuantities: { during: ['in_production', 'ready'], with: ['ready'] },
    routePosition: { during: OPEN, with: OPEN_MOVES },
    deliveryAssistantId: { during: OPEN, with: OPEN_MOVES },
  },
  production_assistant: {
    producedQuantities: { during: ['in_production'], with: ['ready'] },
  },
  delivery_assistant: {
    cashCollected: { during: ['out_for_delivery'], with: ['delivered'] },
    routePosition: { during: ['ready', 'out_for_delivery'], with: ['out_for_delivery'] },
    notes: { during: ['ready', 'out_for_delivery'], with: ['out_for_delivery', 'delivered'] },
    notReceived: { during: [], with: ['ready'] },
  },
  company_customer: {
    cancelReason: { during: [], with: ['cancelled'] },
  },
};

/** The moment of a field for a role, or null when the field has none (or the role is no mover). */
export function fieldMomentOf(role: Role, field: string): FieldMoment | null {
  const mover = moverOf(role);
  if (!mover) return null;
  return (ORDER_FIELD_MOMENTS[mover] as Partial<Record<string, FieldMoment>>)[field] ?? null;
}

/**
 * May `role` change `field` on an order that is `from`, in a write that moves it to `to` (null: a
 * write that moves nothing, or a new order, then `from` is its first status)?
 */
export function mayChangeFieldAt(role: Role, field: string, from: OrderStatus, to: OrderStatus | null): boolean {
  const moment = fieldMomentOf(role, field);
  if (!moment) return true;
  return to === null ? moment.during.includes(from) : moment.with.includes(to);
}

/** "while out_for_delivery, or with the move to delivered": when a field may change, for messages. */
export function describeMoment(moment: FieldMoment): string {
  const parts = [
    moment.during.length ? `while ${moment.during.join(' or ')}` : '',
    moment.with.length ? `with the move to ${moment.with.join(' or ')}` : '',
  ].filter(Boolean);
  return parts.join(', or ');
}

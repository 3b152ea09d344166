import { z } from 'zod';
import { CART_MAX_LINES, CART_MAX_QUANTITY, MONEY_MAX } from '../constants';
import { CartContact, ContactRecord, FULFILLMENTS, SESSION_HEADER, SessionId } from './carts';
import { baseRecord, money, recordId, ref, shortText } from './common';
import { address } from './users';

/** Orders (docs/design.md §5): the order book. */
export const ORDER_STATUSES = [
  'pending',
  'confirmed',
  'in_production',
  'ready',
  'out_for_delivery',
  'delivered',
  'cancelled',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const PAYMENT_STATUSES = ['unpaid', 'pending', 'paid', 'failed', 'refunded'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** Every method an order may carry; `credit` is for B2B clients only, `online` goes through the gateway. */
export const ORDER_PAYMENT_METHODS = ['cash', 'transfer', 'online', 'credit'] as const;
export type OrderPaymentMethod = (typeof ORDER_PAYMENT_METHODS)[number];

export const ORDER_CHANNELS = ['web', 'staff', 'b2b'] as const;
export type OrderChannel = (typeof ORDER_CHANNELS)[number];

/** Why a delivery failed at the door ("No recibió"): the driver picks one; `other` says what. */
export const NOT_RECEIVED_REASONS = ['nobody_home', 'wrong_address', 'refused', 'other'] as const;
export type NotReceivedReason = (typeof NOT_RECEIVED_REASONS)[number];
export const NOT_RECEIVED_DETAILS_MAX = 200;

/** The driver's "No recibió": a reason, and for `other` what happened (at most 200 characters). */
export const NotReceivedInput = z
  .object({
    reason: z.enum(NOT_RECEIVED_REASONS),
    details: shortText(NOT_RECEIVED_DETAILS_MAX).default(null),
  })
  .strict()
  .refine((v) => v.reason !== 'other' || Boolean(v.details), {
    path: ['details'],
    message: 'Say what happened',
  });
export type NotReceived = z.infer<typeof NotReceivedInput>;
export const NotReceivedRecord = z.object({ reason: z.enum(NOT_RECEIVED_REASONS), details: z.string().nullable() });

/** A day: `YYYY-MM-DD`, or the instant a GET returned for it (read as the day it falls on in the company's zone). */
export const dayInput = () => z.union([z.iso.date(), z.iso.datetime({ offset: true })]);

export const OrderItemInput = z
  .object({
    productId: recordId(),
    quantity: z
      .number()
      .int('Must be a whole number')
      .min(1, 'Must be at least 1')
      .max(CART_MAX_QUANTITY, `Must be at most ${CART_MAX_QUANTITY}`),
    notes: shortText(300).default(null),
  })
  .strict();

/** What production has made of each product: `{productId: quantity}`. */
export const producedQuantities = z
  .record(recordId(), z.number().int().min(0).max(100_000))
  .refine((r) => Object.keys(r).length <= CART_MAX_LINES, `At most ${CART_MAX_LINES} products`);

/** A refund the admin records: how much (pesos, at least 1) and why. */
export const RefundInput = z
  .object({
    amount: z.number().int('Must be a whole number').min(1, 'Must be at least 1').max(MONEY_MAX),
    reason: z.string().trim().min(1, 'Say why the order is refunded').max(500),
  })
  .strict();
export type RefundInput = z.infer<typeof RefundInput>;

/**
 * The writable fields of an order (staff entry and edits, docs/design.md §5). Never here: `number`, the
 * prices and totals, `history`, `completedAt`, `channel` (all the server's). `status` and
 * `paymentStatus` have no default: left out, they stay as they are (a PUT never moves an order).
 */
export const OrderInput = z
  .object({
    customerId: ref().default(null),
    b2bClientId: ref().default(null),
    contact: CartContact,
    items: z
      .array(OrderItemInput)
      .min(1, 'An order needs at least one line')
      .max(CART_MAX_LINES, `An order has at most ${CART_MAX_LINES} lines`),
    fulfillment: z.enum(FULFILLMENTS).default('delivery'),
    address: address.nullable().default(null),
    dueDate: dayInput(),
    window: z.string().min(1).max(40).nullable().default(null),
    status: z.enum(ORDER_STATUSES).optional(),
    paymentStatus: z.enum(PAYMENT_STATUSES).optional(),
    paymentMethod: z.enum(ORDER_PAYMENT_METHODS).default('cash'),
    deliveryAssistantId: ref().default(null),
    routePosition: z.number().int().min(0).max(10_000).nullable().default(null),
    producedQuantities: producedQuantities.default({}),
    cashCollected: money().nullable().default(null),
    cancelReason: shortText(500).default(null),
    /** Why a paid order was refunded: only with the admin's move of the payment to refunded (docs/design.md §5). */
    refundReason: shortText(500).default(null),
    /**
     * Only `[]`: the admin says the money of every payment owed back was returned (the gateway adds
     * entries, docs/design.md §5). A refund of the order (paid → refunded) empties it too.
     */
    refundsDue: z.array(z.never()).max(0).optional(),
    /**
     * A refund of some or all of what was paid (the admin's): at most what is left to refund (paid less the
     * refunds before it). Written once, never stored as sent: it lands in `refunds`, and the one that
     * leaves nothing to refund moves the payment to refunded with its reason.
     */
    refund: RefundInput.optional(),
    notes: shortText(1000).default(null),
    /**
     * Only with the driver's move out_for_delivery → ready (docs/design.md §5's field moments): why the stop
     * failed. No default: left out, it stays (the server clears it when the order sets off again).
     */
    notReceived: NotReceivedInput.optional(),
  })
  .strict();
export type OrderInput = z.infer<typeof OrderInput>;

export const OrderLine = z.object({
  productId: z.string(),
  /** Copied from the catalogue when the line was ordered. */
  name: z.string(),
  unitPrice: z.number().int(),
  quantity: z.number().int(),
  notes: z.string().nullable(),
  lineTotal: z.number().int(),
});
export type OrderLine = z.infer<typeof OrderLine>;

export const HistoryEntry = z.object({
  at: z.string(),
  /** Who: a user, or the guest who placed a web order (uid null). */
  by: z.object({ uid: z.string().nullable(), name: z.string(), role: z.string() }),
  field: z.string(),
  from: z.unknown(),
  to: z.unknown(),
  /** Why, when the move passed a rule staff may pass: `lead-time` (ordered late), `capacity` (window full). */
  note: z.string().optional(),
  /**
   * What `from` and `to` are called, when they are ids (a driver's, a customer's, a B2B client's name as it
   * was then), so the line names them ("Asignado a Carlos Pérez"). Entries written before it have none.
   */
  names: z.object({ from: z.string().nullable(), to: z.string().nullable() }).optional(),
});
export type HistoryEntry = z.infer<typeof HistoryEntry>;

/** Where an order's delivery point came from (Order.geoSource). */
export const GEO_SOURCES = ['geocoded', 'pinned'] as const;
export type GeoSource = (typeof GEO_SOURCES)[number];

/** Why a payment the gateway approved is money to give back (docs/design.md §5's payment axis). */
export const REFUND_DUE_REASONS = ['after-cancel', 'duplicate'] as const;
export type RefundDueReason = (typeof REFUND_DUE_REASONS)[number];

/**
 * A payment received that the bakery owes back: approved after the order was cancelled, or a second
 * approved transaction of an order already paid. The order is never revived; staff return the money
 * through the gateway's dashboard and the admin clears it.
 */
export const RefundDue = z.object({
  reason: z.enum(REFUND_DUE_REASONS),
  transactionId: z.string(),
  reference: z.string(),
  amountInCents: z.number().int(),
  currency: z.string(),
  at: z.string(),
});
export type RefundDue = z.infer<typeof RefundDue>;

/** A refund recorded on an order: how much, why, when and by whom (each one listed on the order). */
export const Refund = z.object({
  amount: z.number().int(),
  reason: z.string(),
  at: z.string(),
  by: z.object({ uid: z.string().nullable(), name: z.string(), role: z.string() }),
});
export type Refund = z.infer<typeof Refund>;

export const Order = baseRecord.extend({
  number: z.number().int(),
  channel: z.enum(ORDER_CHANNELS),
  customerId: z.string().nullable(),
  b2bClientId: z.string().nullable(),
  /** The standing order that made it (docs/design.md §3), shown as "Recurrente". */
  standingOrderId: z.string().nullable(),
  cartId: z.string().nullable(),
  contact: ContactRecord,
  items: z.array(OrderLine),
  subtotal: z.number().int(),
  discount: z.number().int(),
  deliveryFee: z.number().int(),
  total: z.number().int(),
  fulfillment: z.enum(FULFILLMENTS),
  address: address.nullable(),
  /** The instant the day starts in the company's time zone (docs/design.md §3). */
  dueDate: z.string(),
  window: z.string().nullable(),
  preparationDate: z.string(),
  status: z.enum(ORDER_STATUSES),
  paymentStatus: z.enum(PAYMENT_STATUSES),
  paymentMethod: z.enum(ORDER_PAYMENT_METHODS),
  /**
   * The online payment (docs/design.md §5): the gateway, the current attempt's reference, and once the gateway
   * reported it, its transaction, that transaction's `status` at the gateway and, when the amount or
   * currency was not the attempt's, the `problem` (it never marks the order paid).
   */
  payment: z
    .object({
      gateway: z.string(),
      reference: z.string(),
      transactionId: z.string().nullable(),
      status: z.string().optional(),
      problem: z.string().optional(),
    })
    .nullable(),
  deliveryAssistantId: z.string().nullable(),
  routePosition: z.number().int().nullable(),
  producedQuantities: z.record(z.string(), z.number()),
  cashCollected: z.number().int().nullable(),
  completedAt: z.string().nullable(),
  cancelReason: z.string().nullable(),
  refundReason: z.string().nullable(),
  /** Payments received to give back (empty: none); shown to staff until the admin clears them. */
  refundsDue: z.array(RefundDue),
  /** The refunds recorded, oldest first; their sum is never more than what was paid (`total`). */
  refunds: z.array(Refund),
  notes: z.string().nullable(),
  /** The driver's "No recibió" while the order is back at the office (null once it sets off again). */
  notReceived: NotReceivedRecord.nullable(),
  /**
   * Where the address's point came from: `geocoded` (found from the address), `pinned` (placed by a
   * person: the shopper at checkout or staff); null without a point.
   */
  geoSource: z.enum(GEO_SOURCES).nullable(),
  /** When the geocoder looked the address up (null: not yet); with no point, it was not found. */
  geoCheckedAt: z.string().nullable(),
  history: z.array(HistoryEntry),
});
export type Order = z.infer<typeof Order>;

/** Read-only fields of an order a GET returns; sent back in a write they are ignored. */
export const ORDER_DERIVED = [
  'number',
  'channel',
  'standingOrderId',
  'cartId',
  'subtotal',
  'discount',
  'deliveryFee',
  'total',
  'preparationDate',
  'payment',
  'completedAt',
  'refunds',
  'geoSource',
  'geoCheckedAt',
  'history',
] as const;

/** POST /api/carts/{cartId}/checkout (docs/design.md §3, §5): the cart's lines, with these checkout fields. */
export const CheckoutInput = z
  .object({
    contact: CartContact,
    fulfillment: z.enum(FULFILLMENTS),
    address: address.nullable().default(null),
    dueDate: z.iso.date(),
    window: z.string().min(1).max(40).nullable().default(null),
    /** `online` when the bakery's settings offer it: the answer then carries the gateway's link. */
    paymentMethod: z.enum(['cash', 'transfer', 'online']),
    notes: shortText(1000).default(null),
    /** A guest asks for an account with the contact's e-mail: a link to choose a password is mailed. */
    createAccount: z.boolean().default(false),
    /**
     * A signed-in customer keeps this order's phone and delivery address in their account for the next order
     *; a guest's is ignored.
     */
    remember: z.boolean().default(false),
  })
  .strict();
export type CheckoutInput = z.infer<typeof CheckoutInput>;

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const IdempotencyKey = z
  .string()
  .min(8, 'Must be 8 to 200 characters')
  .max(200, 'Must be 8 to 200 characters')
  .regex(/^[\x21-\x7e]+$/, 'Printable characters only');

/** Checkout's headers: the cart holder's session (a guest's) and the Idempotency-Key it requires. */
export const CheckoutHeaders = z.looseObject({
  [SESSION_HEADER]: SessionId.optional(),
  [IDEMPOTENCY_HEADER]: IdempotencyKey,
});
export type CheckoutHeaders = z.infer<typeof CheckoutHeaders>;

/**
 * GET /api/companies/{companyId}/delivery-days: the days offered from `from` (today when left out) for `days` days.
 * `days` is read from the query's text; a caller gives a number or leaves it out (14).
 */
export const DeliveryDaysQuery = z
  .object({
    from: z.iso.date('Expected a date as YYYY-MM-DD').optional(),
    days: z.coerce.number<number>().int('days must be a whole number').min(1).max(62).default(14),
  })
  .strict();
export type DeliveryDaysQuery = z.input<typeof DeliveryDaysQuery>;

/** A window of a delivery day as `delivery-days` offers it; `remaining` null when it has no capacity. */
export const OfferedWindow = z.object({
  /** Null for a bakery without windows (it delivers all day). */
  id: z.string().nullable(),
  label: z.string(),
  start: z.string(),
  end: z.string(),
  capacity: z.number().int().nullable(),
  remaining: z.number().int().nullable(),
});
export const OfferedDay = z.object({
  date: z.string(),
  /** The instant the day starts in the company's time zone. */
  dueDate: z.string(),
  windows: z.array(OfferedWindow),
});
export type OfferedDay = z.infer<typeof OfferedDay>;

/** What a guest reads through the link of their order (no staff fields). */
export const GUEST_ORDER_FIELDS = [
  'id',
  'companyId',
  'createdAt',
  'updatedAt',
  'number',
  'channel',
  'contact',
  'items',
  'subtotal',
  'discount',
  'deliveryFee',
  'total',
  'fulfillment',
  'address',
  'dueDate',
  'window',
  'status',
  'paymentStatus',
  'paymentMethod',
  'completedAt',
  'cancelReason',
  'notes',
] as const;

/**
 * A web order staff should look at: unpaid, due today or later, and sharing its phone with
 * at least SUSPICIOUS_SAME_PHONE - 1 other unpaid web orders due the same day; `samePhone` counts them
 * all, this one included. `GET /api/companies/{companyId}/suspicious-orders`.
 */
export const SuspiciousOrder = z.object({
  id: z.string(),
  number: z.number().int(),
  dueDate: z.string(),
  samePhone: z.number().int(),
});
export type SuspiciousOrder = z.infer<typeof SuspiciousOrder>;
/** `/api/orders/link/{token}/…`: the guest's link to their order (checkout's `accessToken`). */
export const OrderLinkParams = z.object({ token: z.string().min(1).max(200) });
export type OrderLinkParams = z.infer<typeof OrderLinkParams>;

/** An order as its guest link shows it (GUEST_ORDER_FIELDS: no staff fields). */
export type GuestOrder = Pick<Order, (typeof GUEST_ORDER_FIELDS)[number]>;
export const GuestOrder = Order.pick(
  Object.fromEntries(GUEST_ORDER_FIELDS.map((f) => [f, true])) as { [K in (typeof GUEST_ORDER_FIELDS)[number]]: true },
);

/** A web order just placed (`POST /api/carts/{cartId}/checkout`): its guest view, its link, and an online payment's. */
export const PlacedOrder = GuestOrder.partial().extend({
  accessToken: z.string(),
  payment: z.object({ reference: z.string(), checkoutUrl: z.string() }).optional(),
});

/** What a client sends to check a cart out (CheckoutInput before its defaults apply). */
export type CheckoutBody = z.input<typeof CheckoutInput>;

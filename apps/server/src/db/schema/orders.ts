import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { CartInput, Fulfillment, Order, StandingOrderInput } from '@hornada/domain';
import { ts } from './columns';
import { base, companies, users } from './tenants';

/** Carts, orders, standing orders and the order counter (docs/design.md §3, §4). */

type OrderRecord = z.infer<typeof Order>;

/**
 * Carts (docs/design.md §3, §4): held by a browser session (only the sha256 of its id is kept, so reading the
 * table does not hand out carts) or by the customer it belongs to. Lines keep product ids and
 * quantities only: names and prices come from the catalogue at every read.
 */
export const carts = pgTable(
  'carts',
  {
    ...base,
    /** sha256 (hex) of the X-Session-Id; null once the cart belongs to a customer. */
    sessionHash: text(),
    customerId: text().references(() => users.id),
    items: jsonb().$type<CartInput['items']>().notNull(),
    contact: jsonb().$type<CartInput['contact']>(),
    fulfillment: text().$type<Fulfillment>().notNull().default('delivery'),
    address: jsonb().$type<CartInput['address']>(),
    dueDate: date({ mode: 'string' }),
    window: text(),
    notes: text(),
  },
  (t) => [
    index().on(t.customerId, t.companyId, t.updatedAt),
    // A session's open carts (five a holder, kept by the trigger of migration 0016).
    index().on(t.sessionHash, t.companyId),
    // The hourly cleanup of carts untouched for 30 days: rows arrive in updatedAt order, so a
    // BRIN index finds them at a fraction of a btree's cost on every cart written.
    index().using('brin', t.updatedAt),
  ],
);

/**
 * Orders (docs/design.md §5): written only through the orders resource service (the one door). Lines carry
 * the name and unit price copied at ordering. `dueDate` and `preparationDate` are the instants their
 * days start in the company's time zone, so the engine's date filters and the change feed treat
 * them as every other date. A web order keeps the cart it came from and the Idempotency-Key that
 * placed it (with a hash of the request), so a repeated checkout returns it instead of a second one.
 */
export const orders = pgTable(
  'orders',
  {
    ...base,
    number: integer().notNull(),
    channel: text().$type<OrderRecord['channel']>().notNull(),
    customerId: text(),
    b2bClientId: text(),
    cartId: text(),
    idempotencyKey: text(),
    requestHash: text(),
    contact: jsonb().$type<OrderRecord['contact']>().notNull(),
    items: jsonb().$type<OrderRecord['items']>().notNull(),
    subtotal: integer().notNull(),
    discount: integer().notNull().default(0),
    deliveryFee: integer().notNull(),
    total: integer().notNull(),
    fulfillment: text().$type<Fulfillment>().notNull(),
    address: jsonb().$type<OrderRecord['address']>(),
    dueDate: ts().notNull(),
    window: text(),
    preparationDate: ts().notNull(),
    status: text().$type<OrderRecord['status']>().notNull(),
    paymentStatus: text().$type<OrderRecord['paymentStatus']>().notNull(),
    paymentMethod: text().$type<OrderRecord['paymentMethod']>().notNull(),
    payment: jsonb().$type<OrderRecord['payment']>(),
    deliveryAssistantId: text(),
    routePosition: integer(),
    producedQuantities: jsonb().$type<Record<string, number>>().notNull().default({}),
    cashCollected: integer(),
    completedAt: ts(),
    cancelReason: text(),
    refundReason: text(),
    /** Approved payments the bakery owes back (after a cancellation, or a second one): modules/payments. */
    refundsDue: jsonb().$type<OrderRecord['refundsDue']>().notNull().default([]),
    /** The refunds recorded, partial or whole (order-rules.ts appends them under the row's lock). */
    refunds: jsonb().$type<OrderRecord['refunds']>().notNull().default([]),
    notes: text(),
    /** The driver's "No recibió" while the order is back at the office; cleared when it sets off again. */
    notReceived: jsonb().$type<OrderRecord['notReceived']>(),
    history: jsonb().$type<OrderRecord['history']>().notNull().default([]),
    /** For search (number, name or phone): kept by PostgreSQL, never sent. */
    contactName: text().generatedAlwaysAs(sql`contact->>'name'`),
    contactPhone: text().generatedAlwaysAs(sql`contact->>'phone'`),
    numberText: text().generatedAlwaysAs(sql`number::text`),
    /**
     * Who placed a web order, for the bounds on unpaid orders, never sent: `s:` and the
     * session id's sha256 for a guest, `c:` and the customer's id; and a keyed hash of the network
     * address it came from (never the address itself). Null for staff orders.
     */
    holderKey: text(),
    originKey: text(),
    /** The contact's phone as packages/domain's phoneKey() makes it: digits only, the last ten. */
    phoneKey: text().generatedAlwaysAs(sql`right(regexp_replace(contact->>'phone', '[^0-9]', '', 'g'), 10)`),
    /** The standing order that made it (docs/design.md §3), and the day it was made for (never changes, never sent). */
    standingOrderId: text(),
    standingDay: text(),
    /**
     * Where the address's point came from (modules/delivery/address-placing.ts): `geocoded` by the
     * geocoder from the address, `pinned` by a person (the shopper's or staff's pin); null: no point.
     */
    geoSource: text().$type<OrderRecord['geoSource']>(),
    /** When the geocoder last looked the address up (null: not yet, or the address changed since). */
    geoCheckedAt: ts(),
  },
  (t) => [
    uniqueIndex('orders_company_number_key').on(t.companyId, t.number),
    // The geocoder's queue: delivery addresses not placed nor looked up yet.
    index('orders_geocode_queue')
      .on(t.dueDate)
      .where(
        sql`${t.geoSource} IS NULL AND ${t.geoCheckedAt} IS NULL AND ${t.address} IS NOT NULL AND ${t.deletedAt} IS NULL`,
      ),
    // Once per standing order and day, however many instances run the job (modules/standing-orders).
    uniqueIndex('orders_standing_day_key').on(t.standingOrderId, t.standingDay),
    uniqueIndex('orders_cart_key').on(t.cartId),
    index().on(t.companyId, t.createdAt),
    index().on(t.companyId, t.dueDate, t.window),
    // The production read (docs/design.md §3): a preparation day's orders.
    index().on(t.companyId, t.preparationDate),
    index().on(t.customerId),
    index().on(t.deliveryAssistantId),
  ],
);

type Standing = z.infer<typeof StandingOrderInput>;

/** B2B clients' standing orders (docs/design.md §3): a template the server orders from each day it is due. */
export const standingOrders = pgTable(
  'standing_orders',
  {
    ...base,
    b2bClientId: text().notNull(),
    weekdays: jsonb().$type<Standing['weekdays']>().notNull(),
    items: jsonb().$type<Standing['items']>().notNull(),
    fulfillment: text().$type<Fulfillment>().notNull(),
    window: text(),
    notes: text(),
    startsOn: text().notNull(),
    endsOn: text(),
    skipDates: jsonb().$type<Standing['skipDates']>().notNull().default([]),
    active: boolean().notNull().default(true),
  },
  (t) => [index().on(t.companyId, t.createdAt), index().on(t.b2bClientId)],
);

/** The last order number of each company: bumped in the transaction that inserts the order (no gaps). */
export const orderCounters = pgTable('order_counters', {
  companyId: text()
    .primaryKey()
    .references(() => companies.id),
  last: integer().notNull(),
});

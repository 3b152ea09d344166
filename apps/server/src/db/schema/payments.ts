import { bigint, index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from './columns';
import { companies } from './tenants';
import { orders } from './orders';

/** Online payments (docs/design.md §3, §5): attempts, the gateway's events and transactions, and the sandbox's own. */

/**
 * Online payment attempts (docs/design.md §5): each has its own reference (`{number}-{attempt}-{random}`,
 * unique, never reused), the amount in cents and currency it was started with (what an event must
 * match), and the last state the gateway reported. Written by modules/payments only.
 */
export const paymentAttempts = pgTable(
  'payment_attempts',
  {
    id: text().primaryKey(),
    companyId: text()
      .notNull()
      .references(() => companies.id),
    orderId: text()
      .notNull()
      .references(() => orders.id),
    attempt: integer().notNull(),
    reference: text().notNull(),
    gateway: text().notNull(),
    // Cents of an order up to MONEY_MAX (10^8 pesos) pass an integer's 2^31.
    amountInCents: bigint({ mode: 'number' }).notNull(),
    currency: text().notNull(),
    /** The gateway's last word: PENDING until an event or a look-up says otherwise. */
    status: text().notNull(),
    transactionId: text(),
    createdAt: ts().notNull(),
    updatedAt: ts().notNull(),
  },
  (t) => [
    uniqueIndex('payment_attempts_reference_key').on(t.reference),
    uniqueIndex('payment_attempts_order_attempt_key').on(t.orderId, t.attempt),
    index().on(t.status, t.createdAt),
  ],
);

/**
 * Each (transaction, status) the gateway reported, applied once (docs/design.md §5): the primary key is the
 * guard, claimed in the transaction that applies it, so a retried or concurrent copy waits for the first
 * and then changes nothing. `outcome` says what it did (`applied`, `mismatch`: amount, currency or
 * reference not the attempt's; `stale`: the order had moved past it).
 */
export const paymentEvents = pgTable(
  'payment_events',
  {
    transactionId: text().notNull(),
    status: text().notNull(),
    reference: text().notNull(),
    orderId: text()
      .notNull()
      .references(() => orders.id),
    outcome: text().notNull(),
    receivedAt: ts().notNull(),
  },
  (t) => [primaryKey({ columns: [t.transactionId, t.status] }), index().on(t.orderId)],
);

/**
 * Which reference each gateway transaction id was first seen with (docs/design.md §5): a transaction id
 * belongs to that reference for good, so an event naming it with another reference is refused.
 */
export const paymentTransactions = pgTable('payment_transactions', {
  transactionId: text().primaryKey(),
  reference: text().notNull(),
  firstSeenAt: ts().notNull(),
});

/**
 * The sandbox gateway's transactions (PAYMENT_GATEWAY=sandbox; modules/payment-sandbox): what its hosted
 * checkout decided, and the delivery of its `transaction.updated` event, retried as Wompi does (30 min,
 * 3 h, 24 h) while `eventDueAt` is set. Not tied to orders: the sandbox is the gateway, not the app.
 */
export const paymentSandboxTransactions = pgTable(
  'payment_sandbox_transactions',
  {
    id: text().primaryKey(),
    reference: text().notNull(),
    amountInCents: bigint({ mode: 'number' }).notNull(),
    currency: text().notNull(),
    status: text().notNull(),
    redirectUrl: text().notNull(),
    /** Deliveries of the current status's event so far (reset when the status changes). */
    eventAttempts: integer().notNull().default(0),
    /** When the event is next sent; null once answered 200 or given up. */
    eventDueAt: ts(),
    eventDeliveredAt: ts(),
    createdAt: ts().notNull(),
    updatedAt: ts().notNull(),
  },
  (t) => [index().on(t.eventDueAt), index().on(t.reference)],
);

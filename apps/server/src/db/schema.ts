import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type {
  B2bClientInput,
  StandingOrderInput,
  CartInput,
  Order,
  Fulfillment,
  SettingsInput,
  User,
  productImage,
  recipeItem,
} from '@hornada/domain';

/**
 * Tables of docs/design.md §4. Column names are snake_case in SQL (drizzle `casing`), camelCase here.
 * Every record table carries id, companyId, createdAt, updatedAt, deletedAt.
 */
const ts = (name?: string) =>
  name ? timestamp(name, { withTimezone: true, mode: 'date' }) : timestamp({ withTimezone: true, mode: 'date' });
const dec4 = () => numeric({ precision: 18, scale: 4, mode: 'number' });

const base = {
  id: text().primaryKey(),
  companyId: text()
    .notNull()
    .references(() => companies.id),
  createdAt: ts().notNull(),
  updatedAt: ts().notNull(),
  deletedAt: ts(),
};

export const companies = pgTable('companies', {
  id: text().primaryKey(),
  name: text().notNull(),
  /**
   * The storefront's host label, `{slug}.{the PUBLIC_URL host}` (docs/design.md §4): unique, set when the bakery is
   * created (packages/domain slugify). Null: a company reached only as the market or by its domains.
   */
  slug: text().unique(),
  createdAt: ts().notNull(),
  updatedAt: ts().notNull(),
});

/** One row a company; the document is validated by SettingsInput before it is written. */
export const settings = pgTable('settings', {
  companyId: text()
    .primaryKey()
    .references(() => companies.id),
  data: jsonb().$type<SettingsInput>().notNull(),
  updatedAt: ts().notNull(),
});

export const users = pgTable(
  'users',
  {
    id: text().primaryKey(),
    companyId: text().references(() => companies.id),
    email: text().notNull(),
    name: text().notNull(),
    role: text().$type<User['role']>().notNull(),
    phone: text(),
    addresses: jsonb().$type<User['addresses']>().notNull().default([]),
    disabled: boolean().notNull().default(false),
    emailVerified: boolean().notNull().default(false),
    lastLoginAt: ts(),
    /** argon2id; null for an account that signs in only with Google. */
    passwordHash: text(),
    /**
     * Id tokens issued before this instant are refused (a password change, a sign-out everywhere).
     * Always a whole second: a token's `iat` has second resolution (see identity revokeSessions).
     */
    sessionsValidFrom: ts(),
    /**
     * The user who made this account for its address (a bakery's admin or staff); null when its owner made
     * it. Until `emailVerified`, the account is the creator's bakery's; the owner's proof takes it out of
     * that bakery unless the owner accepts (identity: account-claims.ts).
     */
    createdBy: text().references((): AnyPgColumn => users.id),
    /**
     * When the last invitation to choose a password was sent, while it is pending: cleared once the person
     * chooses a password or signs in (the people screens show "Invitación pendiente" and offer to resend).
     */
    invitedAt: ts(),
    createdAt: ts().notNull(),
    updatedAt: ts().notNull(),
    deletedAt: ts(),
  },
  (t) => [uniqueIndex('users_email_key').on(sql`lower(${t.email})`), index().on(t.companyId)],
);

export const productCollections = pgTable(
  'product_collections',
  {
    ...base,
    name: text().notNull(),
    description: text(),
    image: jsonb().$type<{ path: string; alt: string } | null>(),
    sortOrder: integer().notNull().default(0),
    active: boolean().notNull().default(true),
  },
  (t) => [index().on(t.companyId, t.createdAt)],
);

export const brands = pgTable(
  'brands',
  {
    ...base,
    name: text().notNull(),
    description: text(),
    logo: jsonb().$type<{ path: string; alt: string } | null>(),
  },
  (t) => [index().on(t.companyId, t.createdAt)],
);

export const products = pgTable(
  'products',
  {
    ...base,
    name: text().notNull(),
    description: text(),
    price: integer().notNull(),
    b2bPrice: integer(),
    collectionId: text(),
    brandId: text(),
    recipeId: text(),
    images: jsonb().$type<z.infer<typeof productImage>[]>().notNull().default([]),
    active: boolean().notNull().default(true),
    allergens: jsonb().$type<string[]>().notNull().default([]),
    sortOrder: integer().notNull().default(0),
  },
  (t) => [index().on(t.companyId, t.createdAt), index().on(t.companyId, t.collectionId)],
);

export const ingredients = pgTable(
  'ingredients',
  {
    ...base,
    name: text().notNull(),
    unit: text().notNull(),
    costPerUnit: dec4().notNull().default(0),
    stock: dec4().notNull().default(0),
    minStock: dec4().notNull().default(0),
    supplier: text(),
    /** At or under its minimum (when it has one), for the ingredients screen's filter: kept by PostgreSQL, never sent. */
    lowStock: boolean().generatedAlwaysAs(sql`min_stock > 0 AND stock <= min_stock`),
  },
  (t) => [index().on(t.companyId, t.createdAt)],
);

export const recipes = pgTable(
  'recipes',
  {
    ...base,
    name: text().notNull(),
    productId: text(),
    yield: integer().notNull(),
    items: jsonb().$type<z.infer<typeof recipeItem>[]>().notNull().default([]),
    steps: jsonb().$type<string[]>().notNull().default([]),
    prepMinutes: integer(),
  },
  (t) => [index().on(t.companyId, t.createdAt)],
);

type B2b = z.infer<typeof B2bClientInput>;
export const b2bClients = pgTable(
  'b2b_clients',
  {
    ...base,
    businessName: text().notNull(),
    taxId: text(),
    contactName: text(),
    phone: text(),
    email: text(),
    address: text(),
    discountPercent: numeric({ precision: 5, scale: 2, mode: 'number' }).notNull().default(0),
    prices: jsonb().$type<B2b['prices']>().notNull().default([]),
    paymentTermsDays: integer().notNull().default(0),
    creditLimit: integer().notNull().default(0),
    active: boolean().notNull().default(true),
  },
  (t) => [index().on(t.companyId, t.createdAt)],
);

/**
 * The change log (docs/design.md §3 live): one row per committed transaction and resource, written in the
 * same transaction as the change. `position` follows commit order because the insert takes a
 * transaction-level advisory lock held until commit.
 */
export const changeLog = pgTable(
  'change_log',
  {
    position: bigserial({ mode: 'number' }).primaryKey(),
    companyId: text().notNull(),
    resource: text().notNull(),
    changes: jsonb().$type<{ type: 'added' | 'modified' | 'removed'; doc: Record<string, unknown> }[]>().notNull(),
    createdAt: ts().notNull(),
  },
  (t) => [index().on(t.companyId, t.position), index().on(t.createdAt)],
);

/**
 * Refresh tokens (docs/design.md §1 identity): the cookie holds `<id>.<secret>`, only a hash of the secret is
 * kept. Each use rotates to a new token of the same family; using a spent one revokes the family.
 */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: text().primaryKey(),
    familyId: text().notNull(),
    userId: text()
      .notNull()
      .references(() => users.id),
    secretHash: text().notNull(),
    createdAt: ts().notNull(),
    expiresAt: ts().notNull(),
    usedAt: ts(),
    revokedAt: ts(),
  },
  (t) => [index().on(t.familyId), index().on(t.userId)],
);

/** Failed or counted attempts (sign-in, registration) by key (`email:…`, `ip:…`), for the windows of docs/design.md §2. */
export const authAttempts = pgTable(
  'auth_attempts',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    key: text().notNull(),
    at: ts().notNull(),
  },
  (t) => [index().on(t.key, t.at)],
);

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
 * A company's images (modules/files: uploads, and the demo seed's pictures): which company owns each
 * stored path, and the bytes it takes in the storage (every width), summed for the company's quota.
 */
export const files = pgTable(
  'files',
  {
    companyId: text()
      .notNull()
      .references(() => companies.id),
    path: text().notNull(),
    /** Bytes in the storage: every width together. */
    bytes: integer().notNull(),
    /** The largest width's bytes (the API's `size`). */
    size: integer().notNull(),
    contentType: text().notNull(),
    width: integer().notNull(),
    height: integer().notNull(),
    widths: jsonb().$type<number[]>().notNull(),
    createdAt: ts().notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.path] })],
);
type OrderRecord = z.infer<typeof Order>;
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

/** The last order number of each company: bumped in the transaction that inserts the order (no gaps). */
export const orderCounters = pgTable('order_counters', {
  companyId: text()
    .primaryKey()
    .references(() => companies.id),
  last: integer().notNull(),
});

/**
 * E-mail kept instead of sent when no SMTP_URL is set (docs/design.md §1): password resets and confirmations
 * work offline, and a system_admin reads them at GET /api/outbox.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: text().primaryKey(),
    to: text().notNull(),
    subject: text().notNull(),
    text: text().notNull(),
    html: text().notNull(),
    createdAt: ts().notNull(),
  },
  (t) => [index().on(t.createdAt)],
);

/**
 * Single-use codes mailed or handed to a user (password reset, e-mail verification, the Google
 * sign-in's exchange code): the link holds `<id>.<secret>`, only a hash of the secret is kept.
 */
export const actionTokens = pgTable(
  'action_tokens',
  {
    id: text().primaryKey(),
    userId: text()
      .notNull()
      .references(() => users.id),
    purpose: text().$type<'password-reset' | 'invitation' | 'verify-email' | 'google-code'>().notNull(),
    secretHash: text().notNull(),
    createdAt: ts().notNull(),
    expiresAt: ts().notNull(),
    usedAt: ts(),
  },
  (t) => [index().on(t.userId, t.purpose), index().on(t.expiresAt)],
);

/** Accounts at an external identity provider (Google), keyed on the provider's subject, not the e-mail. */
export const userIdentities = pgTable(
  'user_identities',
  {
    provider: text().notNull(),
    subject: text().notNull(),
    userId: text()
      .notNull()
      .references(() => users.id),
    createdAt: ts().notNull(),
    /** Whether the provider vouched for the e-mail when linked: a password reset unlinks the others. */
    emailVerified: boolean().notNull().default(false),
  },
  (t) => [uniqueIndex().on(t.provider, t.subject), index().on(t.userId)],
);

/**
 * Idempotency-Keys of resource writes (resources/idempotency.ts): one row a caller and key,
 * claimed in the write's own transaction (the primary key makes a concurrent copy wait for it), holding
 * a hash of the request and the exact answer a replay gets. Kept 24 hours.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: text().notNull(),
    key: text().notNull(),
    requestHash: text().notNull(),
    /** 0 until the write's answer is stored, in the same transaction (never seen committed as 0). */
    status: integer().notNull(),
    /** The answer's JSON as sent, byte for byte. */
    response: text(),
    createdAt: ts().notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index().on(t.createdAt)],
);

/**
 * Fixed-window counters of the rate limits (plugins/rate-limit.ts), one row a caller and group, shared by
 * every instance so three instances do not triple a limit. UNLOGGED (hand-written in the migration): a
 * counter lost in a crash only forgives one window.
 */
export const rateWindows = pgTable(
  'rate_windows',
  {
    key: text().primaryKey(),
    startedAt: ts().notNull(),
    count: integer().notNull(),
  },
  (t) => [index().on(t.startedAt)],
);

/**
 * Open change streams (plugins/stream-limits.ts), one row each, so a caller's cap counts its streams on
 * every instance. Each instance stamps `seenAt` on its own rows while it lives; rows of an instance that
 * died stop counting once stale. UNLOGGED, like rate_windows.
 */
export const liveStreams = pgTable(
  'live_streams',
  {
    id: text().primaryKey(),
    holder: text().notNull(),
    instance: text().notNull(),
    seenAt: ts().notNull(),
  },
  (t) => [index().on(t.holder), index().on(t.instance)],
);

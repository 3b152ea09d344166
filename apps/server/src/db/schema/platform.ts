import { bigserial, boolean, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from './columns';
import { users } from './tenants';

/** What the platform keeps beside the records (docs/design.md §1, §2, §3): the change log, sessions, sign-in attempts, mail, one-time links, external identities, idempotency keys, rate windows and live streams. */

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

import { sql } from 'drizzle-orm';
import { type AnyPgColumn, boolean, index, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type { SettingsInput, User } from '@hornada/domain';
import { ts } from './columns';

/** Companies, their settings document and their people (docs/design.md §4); `base`, the columns every record table carries. */

export const base = {
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

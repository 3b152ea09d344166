import { and, count, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import {
  can,
  COMPANY_ROLES,
  grantOf,
  isRole,
  rolesWith,
  toPatchSchema,
  User,
  UserCreateInput,
  UserUpdateInput,
} from '@hornada/domain';
import type { DbOrTx } from '../../db';
import { users } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { assertAcceptablePassword, hashPassword } from '../../lib/passwords';
import type { ResourceDefinition } from '../definition';
import { assertEmailVerified } from '../verified-email';

/** A user row as it may leave the server: no password hash, `uid` beside `id` (docs/product.md §3 session user). */
export function userDoc(row: typeof users.$inferSelect): Record<string, unknown> & { uid: string } {
  const { passwordHash: _hidden, sessionsValidFrom: _ended, createdBy: _creator, ...doc } = row;
  return { uid: row.id, ...doc };
}

/** 409 with its own code, so the web can say "that e-mail already has an account". */
export const EMAIL_IN_USE = () => new AppError(409, 'auth/email-in-use', 'An account with this email already exists');

/** Key space of the advisory lock on an e-mail address (the app's one-key locks live elsewhere). */
const EMAIL_LOCK_SPACE = 727281;

/**
 * Call inside the transaction that inserts the user: the lock, held until commit, makes a second
 * registration of the same address wait and then see the first, so it gets this 409 rather than
 * the unique index's error.
 */
export async function assertEmailFree(db: DbOrTx, address: string): Promise<void> {
  const lower = address.toLowerCase();
  await db.execute(sql`SELECT pg_advisory_xact_lock(${EMAIL_LOCK_SPACE}, hashtext(${lower}))`);
  const [taken] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${lower}`)
    .limit(1);
  if (taken) throw EMAIL_IN_USE();
}

/** Key space of the per-company lock taken while a write may leave a bakery without a manager. */
const MANAGERS_LOCK_SPACE = 727282;

/** The roles that manage a company's people (the permission table's users:update over the company). */
const MANAGER_ROLES = COMPANY_ROLES.filter((r) => grantOf(r, 'users', 'update') === 'company');

const selfChange = () => new AppError(403, 'users/self-change', 'You cannot change your own role or disable yourself');

/**
 * A write that takes an active manager away (demoted, disabled, deleted) must leave another one: else the
 * bakery is locked out of its own people. The lock serialises two admins demoting each other at once.
 */
async function assertAnotherManager(db: DbOrTx, companyId: string, current: Record<string, unknown>) {
  await db.execute(sql`SELECT pg_advisory_xact_lock(${MANAGERS_LOCK_SPACE}, hashtext(${companyId}))`);
  const [row] = await db
    .select({ n: count() })
    .from(users)
    .where(
      and(
        eq(users.companyId, companyId),
        inArray(users.role, MANAGER_ROLES),
        eq(users.disabled, false),
        isNull(users.deletedAt),
        ne(users.id, String(current.id)),
      ),
    );
  if ((row?.n ?? 0) === 0) {
    throw new AppError(422, 'users/last-admin', 'The company would be left without an active admin');
  }
}

/**
 * Users of a company (docs/design.md §4; who may do what is the permission table's `users` entry): admins
 * manage all of them, staff read and register customers. Nobody changes their own role or disables
 * themselves. The identity module adds the after-write hook that ends a disabled or deleted user's
 * sessions.
 */
export const usersResource: ResourceDefinition = {
  name: 'users',
  label: 'User',
  table: users,
  input: UserUpdateInput,
  createInput: UserCreateInput,
  patch: toPatchSchema(UserUpdateInput),
  record: User,
  searchFields: ['name', 'email', 'phone'],
  sortFields: ['createdAt', 'updatedAt', 'name', 'email', 'role', 'lastLoginAt'],
  filterFields: ['role', 'disabled'],
  dateFields: ['createdAt', 'updatedAt', 'lastLoginAt'],
  rows: {
    customers: {
      // A grant of `customers`: the accounts that shop (capabilities.ts orders:own).
      where: (_caller, t) => inArray((t as typeof users).role, [...rolesWith('orders:own')]),
      test: (_caller, doc) => isRole(doc.role) && can(doc.role, 'orders:own'),
    },
  },
  // Never sent: the hash, the instant the user's sessions last ended and who made the account (identity's business).
  hidden: ['passwordHash', 'sessionsValidFrom', 'createdBy'],
  derived: ['email', 'emailVerified', 'lastLoginAt', 'uid', 'invitedAt'],
  present: async (_ctx, _companyId, rows) => rows.map((r) => ({ uid: r.id, ...r })),
  presentReads: [],
  hooks: {
    async beforeWrite(ctx, tx, actor, current, data, companyId) {
      // `invite` is a request, not a column: identity's hook mails the link to a user created without a password.
      const { invite, ...out } = data;
      // Pending from the invitation until the person chooses a password or signs in (Google included).
      if (!current && invite === true && actor.kind === 'user') out.invitedAt = ctx.clock.now();
      const joined = Boolean(data.passwordHash) || typeof data.password === 'string' || Boolean(data.lastLoginAt);
      if (current?.invitedAt && joined) out.invitedAt = null;
      // A user creating users is acting as a bakery: only with a verified e-mail (registration is the system's).
      if (!current && actor.kind === 'user') await assertEmailVerified(tx, actor);
      if (!current && typeof data.email === 'string') await assertEmailFree(tx, data.email);
      // An account a user makes for an address is theirs until its owner proves it (identity: account-claims.ts).
      if (!current && actor.kind === 'user') out.createdBy = actor.uid;
      if (current && actor.kind === 'user' && current.id === actor.uid) {
        if (data.role !== undefined && data.role !== current.role) throw selfChange();
        if (data.disabled === true && !current.disabled) throw selfChange();
      }
      const activeManager =
        current && MANAGER_ROLES.includes(current.role as never) && !current.disabled && !current.deletedAt;
      const removesManager =
        (data.role !== undefined && !MANAGER_ROLES.includes(data.role as never)) || data.disabled === true;
      // The owner taking their address back is never refused for the bakery's sake.
      const claim = actor.kind === 'system' && actor.reason === 'claim';
      if (activeManager && removesManager && companyId && !claim) await assertAnotherManager(tx, companyId, current);
      if (typeof out.password === 'string') {
        assertAcceptablePassword(out.password);
        out.passwordHash = await hashPassword(out.password);
        delete out.password;
      }
      return out;
    },
    async beforeDelete(_ctx, tx, actor, current, companyId) {
      if (actor.kind === 'user' && current.id === actor.uid) throw selfChange();
      const activeManager = MANAGER_ROLES.includes(current.role as never) && !current.disabled;
      // The owner taking their address back is never refused for the bakery's sake.
      const claim = actor.kind === 'system' && actor.reason === 'claim';
      if (activeManager && companyId && !claim) await assertAnotherManager(tx, companyId, current);
    },
  },
};

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, isNull, lte, ne, or, isNotNull } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db';
import { actionTokens } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { newId } from '../../lib/ids';

export type ActionPurpose = (typeof actionTokens.$inferSelect)['purpose'];

/** How long each kind of single-use code lives. */
/**
 * An invitation opens the reset page like a recovery link and lives a week: the invited person may
 * not read their mail within the half hour a recovery link gets. Its own purpose, since choosing a password
 * through it accepts the inviting bakery, which a recovery link does not.
 */
export const INVITATION_TTL_MS = 7 * 24 * 3600_000;

export const ACTION_TTL_MS: Record<ActionPurpose, number> = {
  'password-reset': 30 * 60_000,
  invitation: INVITATION_TTL_MS,
  'verify-email': 30 * 60_000,
  'google-code': 60_000,
};

/** Far above a real code (`id.secret`, about 66 characters): longer ones are not even looked up. */
const MAX_LENGTH = 200;

const digest = (secret: string) => createHash('sha256').update(secret).digest('base64url');

/** A new single-use code for the user; the value handed out is `id.secret`, only the secret's hash is kept. */
export async function issueActionToken(
  db: DbOrTx,
  clock: Clock,
  userId: string,
  purpose: ActionPurpose,
  ttlMs: number = ACTION_TTL_MS[purpose],
): Promise<string> {
  const id = newId();
  const secret = randomBytes(32).toString('base64url');
  const now = clock.now();
  await db.insert(actionTokens).values({
    id,
    userId,
    purpose,
    secretHash: digest(secret),
    createdAt: now,
    expiresAt: new Date(now.getTime() + ttlMs),
  });
  return `${id}.${secret}`;
}

export type ActionOutcome = { ok: true; userId: string } | { ok: false; reason: 'invalid' | 'used' | 'expired' };

/** The row a code names, when its secret and purpose match (locked for update when asked). */
async function find(db: DbOrTx, token: string, purpose: ActionPurpose, lock: boolean) {
  if (typeof token !== 'string' || token.length > MAX_LENGTH) return undefined;
  const [id, secret, extra] = token.split('.');
  if (!id || !secret || extra !== undefined) return undefined;
  const q = db.select().from(actionTokens).where(eq(actionTokens.id, id)).limit(1);
  const [row] = lock ? await q.for('update') : await q;
  if (!row || row.purpose !== purpose) return undefined;
  const a = Buffer.from(row.secretHash);
  const b = Buffer.from(digest(secret));
  return a.length === b.length && timingSafeEqual(a, b) ? row : undefined;
}

/** Whose code this is, without spending it (to know the company whose change log the spend writes to). */
export async function peekActionToken(db: DbOrTx, token: string, purpose: ActionPurpose): Promise<string | null> {
  return (await find(db, token, purpose, false))?.userId ?? null;
}

/**
 * Spends a code inside the caller's transaction: the row is locked, so of two requests with one code
 * exactly one succeeds; the other sees it used. Returns rather than throws, so the caller decides.
 */
export async function spendActionToken(
  db: DbOrTx,
  clock: Clock,
  token: string,
  purpose: ActionPurpose,
): Promise<ActionOutcome> {
  const row = await find(db, token, purpose, true);
  if (!row) return { ok: false, reason: 'invalid' };
  if (row.usedAt) return { ok: false, reason: 'used' };
  const now = clock.now();
  if (row.expiresAt <= now) return { ok: false, reason: 'expired' };
  await db.update(actionTokens).set({ usedAt: now }).where(eq(actionTokens.id, row.id));
  return { ok: true, userId: row.userId };
}

/** Every other live code of the user for the purpose is spent too (a new password voids older reset links). */
export async function spendOthers(db: DbOrTx, clock: Clock, userId: string, purpose: ActionPurpose, keepId?: string) {
  await db
    .update(actionTokens)
    .set({ usedAt: clock.now() })
    .where(
      and(
        eq(actionTokens.userId, userId),
        eq(actionTokens.purpose, purpose),
        isNull(actionTokens.usedAt),
        keepId ? ne(actionTokens.id, keepId) : undefined,
      ),
    );
}

/** Deletes expired and spent codes; returns how many. */
export async function pruneActionTokens(db: Db, clock: Clock): Promise<number> {
  const res = await db
    .delete(actionTokens)
    .where(or(lte(actionTokens.expiresAt, clock.now()), isNotNull(actionTokens.usedAt)));
  return res.rowCount ?? 0;
}

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, isNotNull, isNull, lte, or } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../../db';
import { refreshTokens, users } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { newId } from '../../lib/ids';

export const REFRESH_TTL_MS = 30 * 86_400_000;
export const REFRESH_COOKIE = 'hornada_refresh';

const digest = (secret: string) => createHash('sha256').update(secret).digest('base64url');

type UserRow = typeof users.$inferSelect;

/**
 * Every transaction that issues or revokes refresh tokens locks the user's row first (an UPDATE of
 * the row does so too), then the tokens: revocations and rotations of one user take turns, so a
 * revocation never misses a successor issued meanwhile, and the one lock order rules out deadlocks.
 * NO KEY UPDATE does not block the foreign-key checks of token inserts.
 */
export async function lockUser(tx: Tx, userId: string): Promise<UserRow | undefined> {
  const [row] = await tx.select().from(users).where(eq(users.id, userId)).for('no key update').limit(1);
  return row;
}

/** Issues a refresh token (a new family unless one is given); the cookie value is `id.secret`. */
export async function issueRefreshToken(db: DbOrTx, clock: Clock, userId: string, familyId?: string): Promise<string> {
  const id = newId();
  const secret = randomBytes(32).toString('base64url');
  const now = clock.now();
  await db.insert(refreshTokens).values({
    id,
    familyId: familyId ?? id,
    userId,
    secretHash: digest(secret),
    createdAt: now,
    expiresAt: new Date(now.getTime() + REFRESH_TTL_MS),
  });
  return `${id}.${secret}`;
}

/** The token a cookie names, when its secret matches. */
async function findToken(db: DbOrTx, cookie: string, lock: boolean) {
  const [id, secret] = cookie.split('.');
  if (!id || !secret) return undefined;
  const q = db.select().from(refreshTokens).where(eq(refreshTokens.id, id)).limit(1);
  const [row] = lock ? await q.for('update') : await q;
  if (!row) return undefined;
  const a = Buffer.from(row.secretHash);
  const b = Buffer.from(digest(secret));
  return a.length === b.length && timingSafeEqual(a, b) ? row : undefined;
}

export type RotateResult =
  { ok: true; user: UserRow; familyId: string } | { ok: false; reason: 'invalid' | 'reused' | 'expired' };

/**
 * Spends a refresh token inside the caller's transaction, which then issues the successor: both
 * commit together, under the user's lock. A token used twice means it was stolen (or raced): its
 * whole family is revoked, so the thief's and the owner's sessions both end (OAuth 2.0 Security BCP,
 * §4.14). Returns rather than throws, so that revocation commits.
 */
export async function spendRefreshToken(tx: Tx, clock: Clock, cookie: string): Promise<RotateResult> {
  const peek = await findToken(tx, cookie, false);
  if (!peek) return { ok: false, reason: 'invalid' };
  const user = await lockUser(tx, peek.userId);
  // Read again under the locks: a revocation or rotation may have committed since the peek.
  const row = await findToken(tx, cookie, true);
  if (!row || !user) return { ok: false, reason: 'invalid' };
  const now = clock.now();
  if (row.revokedAt) return { ok: false, reason: 'reused' };
  if (row.usedAt) {
    await revokeFamily(tx, clock, row.familyId);
    return { ok: false, reason: 'reused' };
  }
  if (row.expiresAt <= now) return { ok: false, reason: 'expired' };
  await tx.update(refreshTokens).set({ usedAt: now }).where(eq(refreshTokens.id, row.id));
  return { ok: true, user, familyId: row.familyId };
}

/** Callers hold the user's lock (lockUser or an UPDATE of the user row in the same transaction). */
export async function revokeFamily(tx: DbOrTx, clock: Clock, familyId: string): Promise<void> {
  await tx
    .update(refreshTokens)
    .set({ revokedAt: clock.now() })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

/** Callers hold the user's lock (lockUser or an UPDATE of the user row in the same transaction). */
export async function revokeAllForUser(tx: DbOrTx, clock: Clock, userId: string): Promise<void> {
  await tx
    .update(refreshTokens)
    .set({ revokedAt: clock.now() })
    .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
}

/** Sign-out: revokes the family of the cookie's token (when its secret matches). */
export async function revokeFamilyOf(db: Db, clock: Clock, cookie: string): Promise<void> {
  await db.transaction(async (tx) => {
    const peek = await findToken(tx, cookie, false);
    if (!peek) return;
    await lockUser(tx, peek.userId);
    await revokeFamily(tx, clock, peek.familyId);
  });
}

/**
 * Deletes expired and revoked tokens; returns how many. Spent but live ones stay until they expire:
 * they are what detects reuse.
 */
export async function pruneRefreshTokens(db: Db, clock: Clock): Promise<number> {
  const res = await db
    .delete(refreshTokens)
    .where(or(lte(refreshTokens.expiresAt, clock.now()), isNotNull(refreshTokens.revokedAt)));
  return res.rowCount ?? 0;
}

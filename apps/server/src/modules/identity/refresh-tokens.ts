import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db';
import { refreshTokens } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { newId } from '../../lib/ids';

export const REFRESH_TTL_MS = 30 * 86_400_000;
export const REFRESH_COOKIE = 'hornada_refresh';

const digest = (secret: string) => createHash('sha256').update(secret).digest('base64url');

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

export type RotateResult =
  { ok: true; userId: string; familyId: string } | { ok: false; reason: 'invalid' | 'reused' | 'expired' };

/**
 * Spends a refresh token. A token used twice means it was stolen (or raced): its whole family is
 * revoked, so the thief's and the owner's sessions both end (OAuth 2.0 Security BCP, §4.14).
 */
export async function spendRefreshToken(db: DbOrTx, clock: Clock, cookie: string): Promise<RotateResult> {
  const [id, secret] = cookie.split('.');
  if (!id || !secret) return { ok: false, reason: 'invalid' };
  const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.id, id)).for('update').limit(1);
  if (!row) return { ok: false, reason: 'invalid' };
  const a = Buffer.from(row.secretHash);
  const b = Buffer.from(digest(secret));
  if (a.length !== b.length || !timingSafeEqual(a, b)) return { ok: false, reason: 'invalid' };
  const now = clock.now();
  if (row.revokedAt) return { ok: false, reason: 'reused' };
  if (row.usedAt) {
    await revokeFamily(db, clock, row.familyId);
    return { ok: false, reason: 'reused' };
  }
  if (row.expiresAt <= now) return { ok: false, reason: 'expired' };
  await db.update(refreshTokens).set({ usedAt: now }).where(eq(refreshTokens.id, id));
  return { ok: true, userId: row.userId, familyId: row.familyId };
}

export async function revokeFamily(db: DbOrTx, clock: Clock, familyId: string): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: clock.now() })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

export async function revokeAllForUser(db: DbOrTx, clock: Clock, userId: string): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: clock.now() })
    .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
}

export async function familyOf(db: DbOrTx, cookie: string): Promise<string | null> {
  const [id] = cookie.split('.');
  if (!id) return null;
  const [row] = await db
    .select({ familyId: refreshTokens.familyId })
    .from(refreshTokens)
    .where(eq(refreshTokens.id, id))
    .limit(1);
  return row?.familyId ?? null;
}

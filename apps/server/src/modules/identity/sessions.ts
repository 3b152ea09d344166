import { eq, sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db';
import { users } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { revokeAllForUser } from './refresh-tokens';

type UserRow = typeof users.$inferSelect;

/**
 * Ending every session of a user (password change, sign-out everywhere, disabling): its refresh tokens
 * are revoked and `users.sessionsValidFrom` moves forward, so the id tokens issued before are refused
 * on their next request (plugins/auth.ts) and its open change streams close (live/visibility.ts).
 *
 * An id token's `iat` has whole-second resolution, so the instant is the next whole second after now
 * (and after the previous one: two ends within one second stay apart). Every token issued before the
 * end has an `iat` below it; tokens issued after it are stamped with it at least (idTokenNotBefore).
 */
export function nextSessionsValidFrom(clock: Clock): SQL {
  const nextSecond = new Date((Math.floor(clock.now().getTime() / 1000) + 1) * 1000);
  // GREATEST ignores the NULL of a user whose sessions never ended.
  return sql`GREATEST(${nextSecond.toISOString()}::timestamptz, ${users.sessionsValidFrom} + interval '1 second')`;
}

/**
 * Ends every session of the user inside the caller's transaction (the UPDATE locks the user's row
 * before the tokens, the lock order of refresh-tokens.ts). The caller records the change to 'users'
 * through ctx.write, so each instance's user directory forgets the old state. Undefined: no such user.
 */
export async function endAllSessions(tx: Tx, clock: Clock, userId: string): Promise<UserRow | undefined> {
  const [row] = await tx
    .update(users)
    .set({ sessionsValidFrom: nextSessionsValidFrom(clock), updatedAt: clock.now() })
    .where(eq(users.id, userId))
    .returning();
  if (row) await revokeAllForUser(tx, clock, userId);
  return row;
}

/** The issue time of a new id token: now, or the user's sessionsValidFrom when that is later. */
export function idTokenNotBefore(now: Date, sessionsValidFrom: Date | null): Date {
  return sessionsValidFrom && sessionsValidFrom > now ? sessionsValidFrom : now;
}

/** Whether a token issued at `iat` (seconds) predates the end of the user's sessions. */
export function issuedBeforeSessionsEnded(iat: number | undefined, sessionsValidFrom: Date | null): boolean {
  return sessionsValidFrom !== null && (iat ?? 0) * 1000 < sessionsValidFrom.getTime();
}

import { eq, sql, type SQL } from 'drizzle-orm';
import type { Caller } from '../../context';
import type { DbOrTx } from '../../db';
import { users } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import type { ResourceRegistry } from '../../resources/registry';
import { systemActor } from '../../resources/actor';
import type { WriteScope } from '../../resources/service';
import { AppError } from '../../lib/errors';
import { revokeAllForUser } from './refresh-tokens';

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
 * Ends every session of the caller inside `scope` (sign-out everywhere), through the users service (the
 * system's line `sessions`) so
 * that the change is logged and each instance's user directory forgets the old state. The UPDATE locks
 * the user's row before the tokens, the lock order of refresh-tokens.ts.
 */
export async function endAllSessions(resources: ResourceRegistry, scope: WriteScope, clock: Clock, caller: Caller) {
  const row = await unlessMissing(
    resources.users.update(
      systemActor('sessions'),
      caller.companyId,
      caller.uid,
      { sessionsValidFrom: nextSessionsValidFrom(clock) },
      scope,
    ),
  );
  if (row) await revokeAllForUser(scope.tx, clock, caller.uid);
}

/** A write's result, or null when its record is not there (or no longer meets its condition): a 404. */
export async function unlessMissing<T>(write: Promise<T>): Promise<T | null> {
  try {
    return await write;
  } catch (err) {
    if (err instanceof AppError && err.statusCode === 404) return null;
    throw err;
  }
}

/**
 * The same for a user disabled or deleted by whatever write (the users service's after-write hook, in
 * that write's transaction, whose change to 'users' is already logged).
 */
export async function endSessionsOf(tx: DbOrTx, clock: Clock, userId: string): Promise<void> {
  await tx
    .update(users)
    .set({ sessionsValidFrom: nextSessionsValidFrom(clock) })
    .where(eq(users.id, userId));
  await revokeAllForUser(tx, clock, userId);
}

/** The issue time of a new id token: now, or the user's sessionsValidFrom when that is later. */
export function idTokenNotBefore(now: Date, sessionsValidFrom: Date | null): Date {
  return sessionsValidFrom && sessionsValidFrom > now ? sessionsValidFrom : now;
}

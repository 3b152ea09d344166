import { SHOPPER_ROLE } from '@hornada/domain';
import type { Clock } from '../../lib/clock';
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db';
import { users } from '../../db/schema';
import { systemActor } from '../../resources/actor';
import type { ResourceRegistry } from '../../resources/registry';
import type { WriteScope } from '../../resources/service';
import { revokeAllForUser } from './refresh-tokens';
import { nextSessionsValidFrom } from './sessions';

/**
 * Accounts made for someone else's address. A bakery's admin or staff may create an
 * account for any address, with a password of their choosing: until the address's owner proves it, the
 * account is that bakery's. The first proof (a recovery link, a verification link, a Google sign-in) makes
 * it the owner's: out of the creating bakery, whose admin then reads nothing the owner saves, and without
 * the creator's password, unless the owner accepts the bakery (an invitation's link, or `accept` with the
 * proof).
 */

type UserRow = typeof users.$inferSelect;

/** Made by someone else for this address, whose owner has not proven it yet. */
export function awaitsOwner(user: Pick<UserRow, 'createdBy' | 'emailVerified'>): boolean {
  return user.createdBy !== null && !user.emailVerified;
}

/**
 * The owner proved the address without accepting the creating bakery: the account leaves it, a plain shopper
 * of no bakery (docs/design.md §4: a new Google account's state), enabled again (the bakery's disabling was the
 * bakery's), its e-mail verified; every session ends, and the creator's password goes unless the owner just
 * chose a new one (`keepPassword`). In the caller's transaction.
 */
export async function releaseToOwner(
  resources: ResourceRegistry,
  clock: Clock,
  scope: WriteScope,
  user: Pick<UserRow, 'id' | 'companyId'>,
  keepPassword: boolean,
): Promise<void> {
  await resources.users.update(
    systemActor('claim'),
    user.companyId,
    user.id,
    {
      companyId: null,
      role: SHOPPER_ROLE,
      disabled: false,
      emailVerified: true,
      sessionsValidFrom: nextSessionsValidFrom(clock),
      ...(keepPassword ? {} : { passwordHash: null }),
    },
    scope,
  );
  await revokeAllForUser(scope.tx, clock, user.id);
}

/**
 * A bakery deleted an account it made whose owner never proved the address: the address is freed (the row
 * keeps a placeholder of its own id), else a deleted row would hold it against its owner for good (the
 * e-mail index counts deleted rows). In the deleting transaction (identity's users hook, compose.ts).
 */
export async function releaseAddress(tx: DbOrTx, userId: string): Promise<void> {
  await tx
    .update(users)
    .set({ email: `${userId.toLowerCase()}@cuenta-borrada.invalid` })
    .where(eq(users.id, userId));
}

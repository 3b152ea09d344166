import { eq } from 'drizzle-orm';
import type { Caller } from '../context';
import type { DbOrTx } from '../db';
import { users } from '../db/schema';
import { AppError } from '../lib/errors';

/**
 * Acting as a bakery (creating one, creating users, uploading files served from the marketplace's
 * origin) needs an e-mail its owner has proven: anyone can register any address.
 * Read from the database, not the token. A caller with no user row (the server's own) is not a person
 * registering anything, and passes.
 */
export async function assertEmailVerified(db: DbOrTx, caller: Caller): Promise<void> {
  const [row] = await db
    .select({ emailVerified: users.emailVerified })
    .from(users)
    .where(eq(users.id, caller.uid))
    .limit(1);
  if (row && !row.emailVerified) {
    throw new AppError(403, 'auth/email-not-verified', 'Verify your e-mail address first');
  }
}

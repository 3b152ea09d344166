import { and, count, eq, gt, lt, max, min } from 'drizzle-orm';
import type { Db } from '../../db';
import { authAttempts } from '../../db/schema';
import type { Clock } from '../../lib/clock';

/**
 * Counted attempts in PostgreSQL, so every instance sees the same numbers. Keys: `signin-email:…`
 * (failures per lower-cased e-mail, whether or not the account exists), `signin-ip:…` (attempts per
 * address), `register-ip:…`.
 */
export class Attempts {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async record(key: string): Promise<void> {
    await this.db.insert(authAttempts).values({ key, at: this.clock.now() });
  }

  async recent(key: string, windowMs: number): Promise<{ count: number; first: Date | null; last: Date | null }> {
    const since = new Date(this.clock.now().getTime() - windowMs);
    const [row] = await this.db
      .select({ n: count(), first: min(authAttempts.at), last: max(authAttempts.at) })
      .from(authAttempts)
      .where(and(eq(authAttempts.key, key), gt(authAttempts.at, since)));
    return { count: row?.n ?? 0, first: row?.first ?? null, last: row?.last ?? null };
  }

  async clear(key: string): Promise<void> {
    await this.db.delete(authAttempts).where(eq(authAttempts.key, key));
  }

  async prune(olderThanMs: number): Promise<void> {
    await this.db.delete(authAttempts).where(lt(authAttempts.at, new Date(this.clock.now().getTime() - olderThanMs)));
  }
}

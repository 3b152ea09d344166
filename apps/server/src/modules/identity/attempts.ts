import { and, count, eq, gt, inArray, lt, max, min, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db';
import { authAttempts } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { AppError } from '../../lib/errors';

/** Sign-in failures per account and attempts per address are counted over 15 minutes (docs/design.md §2). */
export const SIGNIN_WINDOW_MS = 15 * 60_000;
/** Registrations per address are counted over an hour (docs/design.md §2). */
export const REGISTER_WINDOW_MS = 60 * 60_000;
/** Rows older than the longest window count for nothing and may go. */
export const ATTEMPT_RETENTION_MS = Math.max(SIGNIN_WINDOW_MS, REGISTER_WINDOW_MS);

/** Password-reset requests and verification resends per address are counted over an hour (docs/design.md §2). */
export const RECOVERY_WINDOW_MS = 60 * 60_000;

/** First key of the two-key advisory locks taken here (the one-key space is the app's other locks). */
const ATTEMPT_LOCK_SPACE = 727280;

export interface Recent {
  count: number;
  first: Date | null;
  last: Date | null;
}

/**
 * One limit: the attempts under `key` in the last `windowMs`, and how long the next one must wait
 * given them (0: it may go ahead now).
 */
export interface Gate {
  key: string;
  windowMs: number;
  wait(recent: Recent, nowMs: number): number;
}

/** A fixed number of attempts per key in a window; the next one waits for the oldest to age out. */
export function countGate(key: string, limit: number, windowMs: number): Gate {
  return {
    key,
    windowMs,
    wait: (r, now) => (r.count >= limit && r.first ? r.first.getTime() + windowMs - now : 0),
  };
}

/** 429 with Retry-After in whole seconds. */
export function rateLimited(retryAfterMs: number): AppError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new AppError(429, 'rate_limited', `Too many attempts, try again in ${seconds} s`, undefined, {
    'retry-after': String(seconds),
  });
}

export type Admission = { ok: true; ids: Map<string, number> } | { ok: false; retryAfterMs: number };

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

  /**
   * Checks every gate and, when all pass, records one attempt under each, under an advisory lock per
   * key held until commit: parallel requests take turns, so each one counts those before it and no
   * more than a limit's worth get through. A refused attempt records nothing.
   */
  async admit(gates: readonly Gate[]): Promise<Admission> {
    // One global order of locking, so two requests locking the same keys never deadlock.
    const sorted = [...gates].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return this.db.transaction(async (tx) => {
      for (const g of sorted) {
        await tx.execute(sql`SELECT pg_advisory_xact_lock(${ATTEMPT_LOCK_SPACE}, hashtext(${g.key}))`);
      }
      const now = this.clock.now();
      let retryAfterMs = 0;
      for (const g of sorted) {
        retryAfterMs = Math.max(retryAfterMs, g.wait(await this.recent(g.key, g.windowMs, tx), now.getTime()));
      }
      if (retryAfterMs > 0) return { ok: false, retryAfterMs };
      const rows = await tx
        .insert(authAttempts)
        .values(sorted.map((g) => ({ key: g.key, at: now })))
        .returning({ id: authAttempts.id, key: authAttempts.key });
      return { ok: true, ids: new Map(rows.map((r) => [r.key, r.id])) };
    });
  }

  /** Admits the attempt or throws 429 (rateLimited); the ids recorded, by key. */
  async admitOrThrow(gates: readonly Gate[]): Promise<Map<string, number>> {
    const admission = await this.admit(gates);
    if (!admission.ok) throw rateLimited(admission.retryAfterMs);
    return admission.ids;
  }

  async recent(key: string, windowMs: number, db: DbOrTx = this.db): Promise<Recent> {
    const since = new Date(this.clock.now().getTime() - windowMs);
    const [row] = await db
      .select({ n: count(), first: min(authAttempts.at), last: max(authAttempts.at) })
      .from(authAttempts)
      .where(and(eq(authAttempts.key, key), gt(authAttempts.at, since)));
    return { count: row?.n ?? 0, first: row?.first ?? null, last: row?.last ?? null };
  }

  /** Takes back attempts recorded provisionally that turned out not to count. */
  async remove(ids: readonly number[]): Promise<void> {
    if (ids.length > 0) await this.db.delete(authAttempts).where(inArray(authAttempts.id, [...ids]));
  }

  async clear(key: string): Promise<void> {
    await this.db.delete(authAttempts).where(eq(authAttempts.key, key));
  }

  /** Deletes rows no window reaches any more; returns how many. */
  async prune(): Promise<number> {
    const cutoff = new Date(this.clock.now().getTime() - ATTEMPT_RETENTION_MS);
    const res = await this.db.delete(authAttempts).where(lt(authAttempts.at, cutoff));
    return res.rowCount ?? 0;
  }
}

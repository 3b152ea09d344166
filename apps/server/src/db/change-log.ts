import { sql } from 'drizzle-orm';
import type { Db, Tx } from './index';
import type { Clock } from '../lib/clock';

export type ChangeType = 'added' | 'modified' | 'removed';
export interface Change {
  type: ChangeType;
  doc: Record<string, unknown>;
}

/** Channel of the one NOTIFY a committed transaction sends; its payload is the company id. */
export const CHANGES_CHANNEL = 'hornada_changes';
/** Key of the advisory lock that orders log positions by commit (docs/design.md §3). */
const LOG_LOCK = 727275;

/** What a transaction changed, grouped by resource: one log row and one event per resource. */
export class ChangeSet {
  readonly byResource = new Map<string, Change[]>();
  add(resource: string, type: ChangeType, doc: Record<string, unknown>): void {
    const list = this.byResource.get(resource) ?? [];
    list.push({ type, doc });
    this.byResource.set(resource, list);
  }
  get size(): number {
    return this.byResource.size;
  }
}

/** Work a transaction's hooks leave for after its commit (a mail about a row that now exists), by transaction. */
const afterCommit = new WeakMap<object, (() => void)[]>();

/**
 * Runs `fn` once the write transaction `tx` has committed (never if it rolls back). For side effects outside
 * the database that must not announce a row nobody will ever see.
 */
export function onCommit(tx: object, fn: () => void): void {
  const list = afterCommit.get(tx) ?? [];
  list.push(fn);
  afterCommit.set(tx, list);
}

export interface WriteOptions {
  /**
   * Test seam: runs after the log insert and the NOTIFY, before COMMIT, while the log lock is held.
   * Tests pause here to build the commit-order hazard the lock prevents; production code never sets it.
   */
  beforeCommit?: () => Promise<void>;
}

export type WriteFn = <T>(
  /** The company of the log rows, or a function giving it once `fn` has run (checkout learns it there). */
  companyId: string | (() => string),
  fn: (tx: Tx, changes: ChangeSet) => Promise<T>,
  options?: WriteOptions,
) => Promise<T>;

/**
 * The one place every write goes through: the change, its log rows and the notification commit
 * together or not at all. The advisory lock is taken last, just before the log insert, and held
 * until commit, so a position is never visible before a smaller one is.
 */
export function createWriter(
  db: Db,
  clock: Clock,
  onCommitted: (companyId: string, changes: ChangeSet, positions: readonly number[]) => void,
): WriteFn {
  return async (companyId, fn, options) => {
    // Set inside the transaction callback, which TypeScript cannot follow: typed by assertion.
    let committed = null as { changes: ChangeSet; positions: number[] } | null;
    let company = '';
    let txOf: object | null = null;
    const result = await db.transaction(async (tx) => {
      txOf = tx;
      const changes = new ChangeSet();
      const value = await fn(tx, changes);
      if (changes.size > 0) {
        company = typeof companyId === 'string' ? companyId : companyId();
        // The lock, the log rows and the NOTIFY in one round trip (migration 0009): the lock is held
        // until commit, and every writer waits for it.
        const list = [...changes.byResource];
        const { rows } = await tx.execute<{ position: string }>(
          sql`SELECT hornada_log_changes(${LOG_LOCK}, ${CHANGES_CHANNEL}, ${company}, ${sql.param(list.map(([r]) => r))}::text[], ${sql.param(list.map(([, c]) => JSON.stringify(c)))}::jsonb[], ${clock.now()}) AS position`,
        );
        await options?.beforeCommit?.();
        committed = { changes, positions: rows.map((r) => Number(r.position)) };
      }
      return value;
    });
    // This instance forgets cached reads at once, so a read after the 2xx sees the write.
    if (committed) onCommitted(company, committed.changes, committed.positions);
    const pending = txOf ? afterCommit.get(txOf) : undefined;
    for (const fn of pending ?? []) fn();
    return result;
  };
}

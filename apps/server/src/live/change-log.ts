import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../db';
import { changeLog } from '../db/schema';
import type { Clock } from '../lib/clock';

export type ChangeType = 'added' | 'modified' | 'removed';
export interface Change {
  type: ChangeType;
  doc: Record<string, unknown>;
}

/** Channel of the one NOTIFY a committed transaction sends; its payload is the company id. */
export const CHANGES_CHANNEL = 'hornada_changes';
/** Key of the advisory lock that orders log positions by commit (design §3). */
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

export interface WriteOptions {
  /**
   * Test seam: runs after the log insert and the NOTIFY, before COMMIT, while the log lock is held.
   * Tests pause here to build the commit-order hazard the lock prevents; production code never sets it.
   */
  beforeCommit?: () => Promise<void>;
}

export type WriteFn = <T>(
  companyId: string,
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
    const result = await db.transaction(async (tx) => {
      const changes = new ChangeSet();
      const value = await fn(tx, changes);
      if (changes.size > 0) {
        await tx.execute(sql`SELECT pg_advisory_xact_lock(${LOG_LOCK})`);
        const now = clock.now();
        const rows = await tx
          .insert(changeLog)
          .values(
            [...changes.byResource].map(([resource, list]) => ({ companyId, resource, changes: list, createdAt: now })),
          )
          .returning({ position: changeLog.position });
        await tx.execute(sql`SELECT pg_notify(${CHANGES_CHANNEL}, ${companyId})`);
        await options?.beforeCommit?.();
        committed = { changes, positions: rows.map((r) => r.position) };
      }
      return value;
    });
    // This instance forgets cached reads at once, so a read after the 2xx sees the write.
    if (committed) onCommitted(companyId, committed.changes, committed.positions);
    return result;
  };
}

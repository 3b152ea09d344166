import type { Resource } from '../api/resource-service';
import { reviveDates } from '../api/revive-dates';

/** One change of a live event (docs/design.md §3): `{type, doc}`. */
export interface LiveChange {
  type: 'added' | 'modified' | 'removed';
  doc: Resource & Record<string, unknown>;
}

/** Spec §4/§9: 'added' items are appended only when the batch has fewer than this many changes. */
export const ADDED_BATCH_LIMIT = 3;

function isSimple(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/** A received document as the list keeps it: date fields as Date objects (docs/product.md §9) and its companyId (docs/product.md §3). */
export function receivedItem<T extends Resource>(doc: LiveChange['doc'], companyId: string): T {
  return reviveDates({ ...doc, companyId }) as unknown as T;
}

/**
 * Spec §4 'modified': copies into `item` the simple fields (string, number, boolean) of `doc` that differ,
 * never `id`. Returns `item` itself when nothing differs. Pass the document through `receivedItem` first, so
 * its date fields are Dates (not simple) rather than strings.
 */
export function applyModified<T extends Resource>(item: T, doc: object): T {
  const current = item as unknown as Record<string, unknown>;
  let next: Record<string, unknown> | null = null;
  for (const [key, value] of Object.entries(doc)) {
    if (key === 'id' || !isSimple(value) || current[key] === value) continue;
    next ??= { ...current };
    next[key] = value;
  }
  return next ? (next as unknown as T) : item;
}

/**
 * Applies one batch of live changes to a list (docs/product.md §4 "Realtime updates", docs/design.md §3):
 * - 'added' appends the item only when no item has its id and the batch has fewer than 3 changes;
 * - 'modified' updates the matching item's simple fields that differ, never its id;
 * - 'removed' takes the item out (the original left deleted items on screen);
 * - every received item gets `companyId`.
 * Returns the same array when nothing changed.
 */
export function applyChangesToList<T extends Resource>(
  items: readonly T[],
  changes: readonly LiveChange[],
  companyId: string,
): T[] {
  let list = items as T[];
  let changed = false;
  const mayAdd = changes.length < ADDED_BATCH_LIMIT;
  for (const change of changes) {
    const id = change.doc?.id;
    if (!id) continue;
    const index = list.findIndex((item) => item.id === id);
    if (change.type === 'added') {
      if (!mayAdd || index !== -1) continue;
      list = [...list, receivedItem<T>(change.doc, companyId)];
      changed = true;
    } else if (change.type === 'modified') {
      const existing = list[index];
      if (existing === undefined) continue;
      const updated = applyModified(existing, receivedItem(change.doc, companyId));
      if (updated === existing) continue;
      list = list.map((item, i) => (i === index ? updated : item));
      changed = true;
    } else if (change.type === 'removed') {
      if (index === -1) continue;
      list = list.filter((item) => item.id !== id);
      changed = true;
    }
  }
  return changed ? list : (items as T[]);
}

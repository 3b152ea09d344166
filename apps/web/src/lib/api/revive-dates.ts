import { DATE_FIELDS } from '@hornada/domain/constants';

const DATE_FIELD_SET: ReadonlySet<string> = new Set(DATE_FIELDS);

/**
 * Turns the date fields of docs/product.md §9 from ISO strings into Date objects; other fields and values that are not
 * dates are left as they came. Returns a new object.
 */
export function reviveDates<T extends object>(record: T): T {
  const out = { ...record } as Record<string, unknown>;
  for (const key of Object.keys(out)) {
    const value = out[key];
    if (DATE_FIELD_SET.has(key) && typeof value === 'string') {
      const time = Date.parse(value);
      if (!Number.isNaN(time)) out[key] = new Date(time);
    }
  }
  return out as T;
}

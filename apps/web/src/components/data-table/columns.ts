/**
 * Which columns a table shows (pure). On a phone only the columns that matter most show by default; a person
 * may choose others, and the choice is remembered per table and per kind of screen.
 */

export interface ColumnChoice {
  id: string;
  /** Hidden by default on a phone (it still can be chosen). */
  hideOnPhone?: boolean;
  /** Always shown (the row's name, its actions): not offered in the chooser. */
  fixed?: boolean;
}

export type Visibility = Record<string, boolean>;

/** Screens narrower than this are phones (Tailwind's `sm`). */
export const PHONE_MAX_WIDTH = 639;

export function defaultVisibility(columns: readonly ColumnChoice[], phone: boolean): Visibility {
  return Object.fromEntries(columns.map((c) => [c.id, c.fixed ? true : !(phone && c.hideOnPhone)]));
}

/** The stored choice over the defaults: unknown ids are ignored, fixed columns always show. */
export function mergeVisibility(columns: readonly ColumnChoice[], phone: boolean, stored: unknown): Visibility {
  const visibility = defaultVisibility(columns, phone);
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return visibility;
  for (const column of columns) {
    const value = (stored as Record<string, unknown>)[column.id];
    if (!column.fixed && typeof value === 'boolean') visibility[column.id] = value;
  }
  return visibility;
}

export const visibilityKey = (tableId: string, phone: boolean): string =>
  `hornada-columns:${tableId}:${phone ? 'phone' : 'wide'}`;

/** Reads a stored choice; anything unreadable is the defaults. */
export function readVisibility(
  storage: Pick<Storage, 'getItem'> | null,
  tableId: string,
  columns: readonly ColumnChoice[],
  phone: boolean,
): Visibility {
  let stored: unknown = null;
  try {
    const text = storage?.getItem(visibilityKey(tableId, phone));
    stored = text ? JSON.parse(text) : null;
  } catch {
    stored = null;
  }
  return mergeVisibility(columns, phone, stored);
}

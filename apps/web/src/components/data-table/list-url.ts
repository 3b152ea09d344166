import type { ListParams } from '../../lib/api/resource-store';

/**
 * A table's view kept in the URL (the list store's params and the filters), so that a reload or a shared link
 * opens the same page, order, search and filters. Pure: the screens read it with useSearchParams.
 *
 * Keys: `q` (search), `sort` (`field` or `-field`), `page`, `per_page`, and each declared filter by its name.
 * Values equal to the table's defaults are left out, so a fresh list has a clean URL.
 */

/** The sizes of page a person may choose (the API allows up to 1,000). */
export const PER_PAGE_OPTIONS = [10, 25, 50, 100] as const;

export interface ListView extends ListParams {
  /** Equality filters by field name; an empty string means "no filter". */
  filters: Record<string, string>;
}

export interface ListViewConfig {
  /** The fields the server may sort on (its resource definition's sortFields). */
  sortFields: readonly string[];
  /** The filters the table offers (field names the server filters on). */
  filterKeys?: readonly string[];
  /** The table's own defaults; the list store's (createdAt, newest first, 10 a page) otherwise. */
  defaults?: Partial<ListParams>;
}

const DEFAULTS: ListParams = { search: '', sortBy: 'createdAt', sortDesc: true, page: 1, perPage: 10 };

/** The defaults of one table, with every field filled. */
export function viewDefaults(config: ListViewConfig): ListView {
  const base = { ...DEFAULTS, ...config.defaults };
  const filters: Record<string, string> = {};
  for (const key of config.filterKeys ?? []) filters[key] = '';
  return { ...base, filters };
}

/** Search longer than this is cut (the server rejects nothing for it, but a URL should stay readable). */
export const SEARCH_MAX = 200;
/** A page beyond this is read as the last page the server has; it also bounds what a URL can ask for. */
const PAGE_MAX = 100_000;

function positiveInt(value: string | null, max: number): number | null {
  if (value === null || !/^\d{1,9}$/.test(value)) return null;
  const n = Number(value);
  return n >= 1 && n <= max ? n : null;
}

/** Reads a view from the query string; anything unknown or out of range falls back to the table's default. */
export function readListView(query: URLSearchParams, config: ListViewConfig): ListView {
  const view = viewDefaults(config);
  const search = query.get('q');
  if (search !== null) view.search = search.slice(0, SEARCH_MAX);
  const sort = query.get('sort');
  if (sort) {
    const desc = sort.startsWith('-');
    const field = desc ? sort.slice(1) : sort;
    if (config.sortFields.includes(field)) {
      view.sortBy = field;
      view.sortDesc = desc;
    }
  }
  view.page = positiveInt(query.get('page'), PAGE_MAX) ?? view.page;
  const perPage = positiveInt(query.get('per_page'), 1000);
  if (perPage !== null && (PER_PAGE_OPTIONS as readonly number[]).includes(perPage)) view.perPage = perPage;
  for (const key of config.filterKeys ?? []) {
    const value = query.get(key);
    if (value !== null) view.filters[key] = value.slice(0, SEARCH_MAX);
  }
  return view;
}

/**
 * Writes a view into a query string: only what differs from the defaults. Other parameters of `base` (not the
 * table's) are kept.
 */
export function writeListView(view: ListView, config: ListViewConfig, base?: URLSearchParams): URLSearchParams {
  const defaults = viewDefaults(config);
  const out = new URLSearchParams(base);
  for (const key of ['q', 'sort', 'page', 'per_page', ...(config.filterKeys ?? [])]) out.delete(key);
  const search = view.search.trim();
  if (search) out.set('q', search);
  if (view.sortBy !== defaults.sortBy || view.sortDesc !== defaults.sortDesc) {
    out.set('sort', `${view.sortDesc ? '-' : ''}${view.sortBy}`);
  }
  if (view.page !== defaults.page) out.set('page', String(view.page));
  if (view.perPage !== defaults.perPage) out.set('per_page', String(view.perPage));
  for (const key of config.filterKeys ?? []) {
    const value = view.filters[key] ?? '';
    if (value !== '') out.set(key, value);
  }
  return out;
}

/**
 * The next view after a change: a new search, filter, sort or page size goes back to page 1 (the old page
 * number means nothing in the new list); a page change keeps the rest.
 */
export function changeView(view: ListView, change: Partial<ListView>): ListView {
  const next: ListView = { ...view, ...change, filters: { ...view.filters, ...change.filters } };
  const resetsPage =
    (change.search !== undefined && change.search !== view.search) ||
    (change.sortBy !== undefined && change.sortBy !== view.sortBy) ||
    (change.sortDesc !== undefined && change.sortDesc !== view.sortDesc) ||
    (change.perPage !== undefined && change.perPage !== view.perPage) ||
    Object.entries(change.filters ?? {}).some(([key, value]) => view.filters[key] !== value);
  if (resetsPage && change.page === undefined) next.page = 1;
  return next;
}

/** The next sort when a column's header is pressed: a new column sorts ascending, the same column flips. */
export function toggleSort(view: ListView, field: string): Pick<ListView, 'sortBy' | 'sortDesc'> {
  if (view.sortBy !== field) return { sortBy: field, sortDesc: false };
  return { sortBy: field, sortDesc: !view.sortDesc };
}

/** The filters as the list store sends them: empty ones left out. */
export function activeFilters(view: ListView): Record<string, string> {
  return Object.fromEntries(Object.entries(view.filters).filter(([, value]) => value !== ''));
}

/** How many pages a total makes (at least one, so "page 1 of 1" reads right on an empty list). */
export function pageCount(total: number, perPage: number): number {
  return Math.max(1, Math.ceil(total / Math.max(1, perPage)));
}

/** "1–10 de 34" for the table's footer; "0 resultados" when empty. */
export function rangeLabel(page: number, perPage: number, total: number): string {
  if (total <= 0) return '0 resultados';
  const from = Math.min(total, (page - 1) * perPage + 1);
  const to = Math.min(total, page * perPage);
  const count = new Intl.NumberFormat('es-CO').format(total);
  return `${from}–${to} de ${count}`;
}

/** Whether a search or a filter narrows the list (the empty state then offers to clear them). */
export function isNarrowed(view: ListView): boolean {
  return view.search.trim() !== '' || Object.values(view.filters).some((value) => value !== '');
}

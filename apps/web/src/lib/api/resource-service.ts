import { DEFAULT_TIME_ZONE } from '@hornada/domain/constants';
import { reviveDates } from './revive-dates';

// In a module of its own: the storefront's live lists use it without loading the resource service.
export { reviveDates };

/** Query-string parameters as the API reads them (docs/design.md §3): every value already a string. */
export type QueryParams = Record<string, string>;

/** What a list call answers (docs/product.md §3 "List response", read by the HTTP client from its envelope). */
export interface ListResult<T> {
  items: T[];
  total: number;
  page: number;
  perPage: number;
}

/**
 * The part of the HTTP client a resource service needs. Paths are relative to the API base (`/api`); each call
 * resolves with the `data` of the response envelope and rejects with the client's error (docs/product.md §8).
 */
export interface Http {
  get<T>(path: string, query?: QueryParams): Promise<T>;
  list<T>(path: string, query?: QueryParams): Promise<ListResult<T>>;
  post<T>(path: string, body: unknown): Promise<T>;
  put<T>(path: string, body: unknown): Promise<T>;
  patch<T>(path: string, body: unknown): Promise<T>;
  delete<T>(path: string): Promise<T>;
}

/** Every record has an id (docs/product.md §3 "Generic resource"). */
export interface Resource {
  id: string;
}

/** A value an equality filter or an option takes; an array means "any of" (sent comma-separated). */
export type FilterValue = string | number | boolean | null | undefined | readonly (string | number | boolean)[];

/** Days are `YYYY-MM-DD` strings; a Date is read as its calendar day in the company's time zone. */
export interface DateRange {
  dateField: string;
  startDate?: string | Date | null;
  endDate?: string | Date | null;
}

export type Filters = { dateRange?: DateRange | null } & { [key: string]: FilterValue | DateRange };

/** The query object of docs/product.md §3. */
export interface ListQuery {
  pagination?: { page?: number; perPage?: number };
  sort?: { field?: string; direction?: 'asc' | 'desc' };
  search?: string;
  filters?: Filters;
  options?: Record<string, FilterValue>;
}

/** Spec §3/§9: the query object's defaults (the list store has its own, page size 10 and descending). */
export const DEFAULT_LIST_QUERY = {
  pagination: { page: 1, perPage: 1000 },
  sort: { field: 'createdAt', direction: 'asc' },
} as const;

/** One entry of a bulk patch (docs/product.md §7): the record's id and the fields to change. */
export interface BulkUpdate<T> {
  id: string;
  data: Partial<T>;
}

export interface ResourceService<T extends Resource> {
  readonly resourceName: string;
  list(query?: ListQuery): Promise<ListResult<T>>;
  get(id: string): Promise<T>;
  create(data: Partial<T>): Promise<T>;
  update(id: string, data: Partial<T>): Promise<T>;
  patch(id: string, data: Partial<T>): Promise<T>;
  bulkPatch(updates: readonly BulkUpdate<T>[]): Promise<T[]>;
  remove(id: string): Promise<void>;
}

export interface ResourceServiceOptions {
  /** The company whose records these are: a fixed id, or read at each call (it may change after sign-in). */
  companyId: string | (() => string | null | undefined);
  /** The time zone a Date in a date range is read in; the company's, America/Bogota by default. */
  timeZone?: string;
}

/** The spec's client-side checks (docs/product.md §5), word for word. */
export const RESOURCE_MESSAGES = {
  idRequired: 'ID is required',
  dataRequired: 'Data is required',
  dataRequiredForCreate: 'Data is required for create',
  dataRequiredForUpdate: 'Data is required for update',
  updatesRequired: 'Updates array is required',
  companyRequired: 'Company ID is required',
} as const;

function isPresent(value: FilterValue): value is string | number | boolean | readonly (string | number | boolean)[] {
  if (value === null || value === undefined || value === '') return false;
  return !Array.isArray(value) || value.length > 0;
}

function paramValue(value: string | number | boolean | readonly (string | number | boolean)[]): string {
  return Array.isArray(value) ? value.map(String).join(',') : String(value);
}

function isDateRange(value: FilterValue | DateRange): value is DateRange {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function dayKey(day: string | Date, timeZone: string): string {
  if (typeof day === 'string') return day;
  // en-CA writes the day as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(day);
}

/**
 * Maps the query object of docs/product.md §3 to the list parameters of docs/design.md §3: `page`, `per_page`, `sort` (`field`
 * or `-field`), `search`, `date_field` + `start_date` + `end_date`, any other filter or option as a plain
 * parameter (arrays comma-separated: any of). Empty values are left out.
 */
export function toListParams(query: ListQuery = {}, timeZone: string = DEFAULT_TIME_ZONE): QueryParams {
  const page = query.pagination?.page ?? DEFAULT_LIST_QUERY.pagination.page;
  const perPage = query.pagination?.perPage ?? DEFAULT_LIST_QUERY.pagination.perPage;
  const field = query.sort?.field || DEFAULT_LIST_QUERY.sort.field;
  const direction = query.sort?.direction ?? DEFAULT_LIST_QUERY.sort.direction;
  const params: QueryParams = {
    page: String(page),
    per_page: String(perPage),
    sort: direction === 'desc' ? `-${field}` : field,
  };
  const search = query.search?.trim();
  if (search) params.search = search;
  for (const [key, value] of Object.entries(query.filters ?? {})) {
    if (key === 'dateRange') continue;
    if (isDateRange(value)) continue;
    if (isPresent(value)) params[key] = paramValue(value);
  }
  const range = query.filters?.dateRange;
  if (range?.dateField && (range.startDate || range.endDate)) {
    params.date_field = range.dateField;
    if (range.startDate) params.start_date = dayKey(range.startDate, timeZone);
    if (range.endDate) params.end_date = dayKey(range.endDate, timeZone);
  }
  for (const [key, value] of Object.entries(query.options ?? {})) {
    if (isPresent(value)) params[key] = paramValue(value);
  }
  return params;
}

function isData(data: unknown): boolean {
  return typeof data === 'object' && data !== null;
}

/**
 * The client of one resource under `/companies/{companyId}/{resourceName}` (docs/product.md §7): checks its arguments
 * before calling (docs/product.md §5) and hands back records with their date fields as Date objects (docs/product.md §9).
 */
export function createResourceService<T extends Resource>(
  resourceName: string,
  http: Http,
  options: ResourceServiceOptions,
): ResourceService<T> {
  const timeZone = options.timeZone ?? DEFAULT_TIME_ZONE;

  function basePath(): string {
    const companyId = typeof options.companyId === 'function' ? options.companyId() : options.companyId;
    if (!companyId) throw new Error(RESOURCE_MESSAGES.companyRequired);
    return `/companies/${encodeURIComponent(companyId)}/${resourceName}`;
  }

  function itemPath(id: string): string {
    if (!id) throw new Error(RESOURCE_MESSAGES.idRequired);
    return `${basePath()}/${encodeURIComponent(id)}`;
  }

  return {
    resourceName,

    async list(query) {
      const result = await http.list<T>(basePath(), toListParams(query, timeZone));
      return { ...result, items: result.items.map(reviveDates) };
    },

    async get(id) {
      return reviveDates(await http.get<T>(itemPath(id)));
    },

    async create(data) {
      if (!isData(data)) throw new Error(RESOURCE_MESSAGES.dataRequiredForCreate);
      return reviveDates(await http.post<T>(basePath(), data));
    },

    async update(id, data) {
      const path = itemPath(id);
      if (!isData(data)) throw new Error(RESOURCE_MESSAGES.dataRequiredForUpdate);
      return reviveDates(await http.put<T>(path, data));
    },

    async patch(id, data) {
      const path = itemPath(id);
      if (!isData(data)) throw new Error(RESOURCE_MESSAGES.dataRequired);
      return reviveDates(await http.patch<T>(path, data));
    },

    async bulkPatch(updates) {
      if (!Array.isArray(updates)) throw new Error(RESOURCE_MESSAGES.updatesRequired);
      for (const update of updates) {
        if (!update?.id) throw new Error(RESOURCE_MESSAGES.idRequired);
        if (!isData(update.data)) throw new Error(RESOURCE_MESSAGES.dataRequired);
      }
      const records = await http.patch<T[]>(`${basePath()}/bulk-update`, { updates });
      return records.map(reviveDates);
    },

    async remove(id) {
      await http.delete<unknown>(itemPath(id));
    },
  };
}

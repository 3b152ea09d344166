import { compareBytes, normaliseKey } from '@hornada/domain';
import type { Http, ListResult, QueryParams } from './resource-service';

/** A stored record as the API sends it: JSON, dates as ISO strings. */
export type JsonRecord = { id: string } & Record<string, unknown>;

export interface FakeCall {
  method: 'GET' | 'LIST' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: QueryParams;
  body?: unknown;
}

/** Text the list matches a search against, as the products resource does (its name and description). */
const SEARCH_FIELDS = ['name', 'description'];

/**
 * The list order of the server's resource engine: text by its normalised key compared bytewise, numbers
 * and booleans by value, missing values last (PostgreSQL's NULLS LAST ascending, first descending);
 * ties by id, ascending whatever the direction.
 */
function compareField(a: unknown, b: unknown): number {
  const empty = (v: unknown) => v === null || v === undefined;
  if (empty(a) || empty(b)) return empty(a) === empty(b) ? 0 : empty(a) ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return compareBytes(normaliseKey(String(a)), normaliseKey(String(b)));
}

/**
 * An in-memory API for tests: collections under `/companies/{companyId}/{resource}` answering as docs/design.md §3
 * says (lists sorted by `sort`, paged, equality filters, a search folding case and accents; soft delete;
 * bulk update), with every call recorded and a way to make the next call fail. Its list answers what the
 * server's does for the same records: apps/server/test/api/fake-list-contract.test.ts holds it to that.
 */
export class FakeHttp implements Http {
  readonly calls: FakeCall[] = [];
  private readonly collections = new Map<string, JsonRecord[]>();
  private nextId = 1;
  private clock = Date.parse('2026-11-22T05:00:00.000Z');
  private failure: Error | null = null;

  seed(collectionPath: string, records: JsonRecord[]): void {
    this.collections.set(
      collectionPath,
      records.map((r) => ({ ...r })),
    );
  }

  records(collectionPath: string): JsonRecord[] {
    return this.collections.get(collectionPath) ?? [];
  }

  failNext(error: Error): void {
    this.failure = error;
  }

  private takeFailure(): void {
    const failure = this.failure;
    this.failure = null;
    if (failure) throw failure;
  }

  private now(): string {
    this.clock += 1000;
    return new Date(this.clock).toISOString();
  }

  private split(path: string): { collection: JsonRecord[]; collectionPath: string; id?: string } {
    const match = /^(\/companies\/[^/]+\/[^/]+)(?:\/([^/]+))?$/.exec(path);
    if (!match?.[1]) throw new Error(`FakeHttp: unknown path ${path}`);
    const collectionPath = match[1];
    let collection = this.collections.get(collectionPath);
    if (!collection) {
      collection = [];
      this.collections.set(collectionPath, collection);
    }
    return { collection, collectionPath, id: match[2] ? decodeURIComponent(match[2]) : undefined };
  }

  private find(path: string): JsonRecord {
    const { collection, id } = this.split(path);
    const record = collection.find((r) => r.id === id && !r.deletedAt);
    if (!record) throw Object.assign(new Error('Not found'), { status: 404 });
    return record;
  }

  async list<T>(path: string, query: QueryParams = {}): Promise<ListResult<T>> {
    this.calls.push({ method: 'LIST', path, query });
    this.takeFailure();
    const { collection } = this.split(path);
    const { page = '1', per_page = '10', sort = '-createdAt', search, ...filters } = query;
    delete filters.date_field;
    delete filters.start_date;
    delete filters.end_date;
    const desc = sort.startsWith('-');
    const field = desc ? sort.slice(1) : sort;
    const needle = search === undefined ? '' : normaliseKey(search.trim());
    const rows = collection
      .filter((r) => !r.deletedAt)
      .filter(
        (r) => !needle || SEARCH_FIELDS.some((f) => typeof r[f] === 'string' && normaliseKey(r[f]).includes(needle)),
      )
      .filter((r) => Object.entries(filters).every(([key, value]) => value.split(',').includes(String(r[key]))))
      .sort((a, b) => compareField(a[field], b[field]) * (desc ? -1 : 1) || compareBytes(a.id, b.id));
    const p = Number(page);
    const n = Number(per_page);
    return {
      items: rows.slice((p - 1) * n, p * n).map((r) => ({ ...r }) as unknown as T),
      total: rows.length,
      page: p,
      perPage: n,
    };
  }

  async get<T>(path: string, query?: QueryParams): Promise<T> {
    this.calls.push({ method: 'GET', path, query });
    this.takeFailure();
    return { ...this.find(path) } as unknown as T;
  }

  async post<T>(path: string, body: unknown): Promise<T> {
    this.calls.push({ method: 'POST', path, body });
    this.takeFailure();
    const { collection } = this.split(path);
    const at = this.now();
    const record: JsonRecord = {
      ...(body as Record<string, unknown>),
      id: `r${this.nextId++}`,
      createdAt: at,
      updatedAt: at,
      deletedAt: null,
    };
    collection.push(record);
    return { ...record } as unknown as T;
  }

  async put<T>(path: string, body: unknown): Promise<T> {
    this.calls.push({ method: 'PUT', path, body });
    this.takeFailure();
    const record = this.find(path);
    const { id, createdAt, companyId } = record;
    for (const key of Object.keys(record)) delete record[key];
    Object.assign(record, body, { id, createdAt, companyId, updatedAt: this.now(), deletedAt: null });
    return { ...record } as unknown as T;
  }

  async patch<T>(path: string, body: unknown): Promise<T> {
    this.calls.push({ method: 'PATCH', path, body });
    this.takeFailure();
    if (path.endsWith('/bulk-update')) {
      const { updates } = body as { updates: { id: string; data: Record<string, unknown> }[] };
      const base = path.slice(0, -'/bulk-update'.length);
      const targets = updates.map((u) => this.find(`${base}/${encodeURIComponent(u.id)}`));
      const at = this.now();
      return targets.map((record, i) => ({
        ...Object.assign(record, updates[i]?.data, { id: record.id, updatedAt: at }),
      })) as unknown as T;
    }
    const record = this.find(path);
    Object.assign(record, body, { id: record.id, updatedAt: this.now() });
    return { ...record } as unknown as T;
  }

  async delete<T>(path: string): Promise<T> {
    this.calls.push({ method: 'DELETE', path });
    this.takeFailure();
    const record = this.find(path);
    record.deletedAt = this.now();
    return { ...record } as unknown as T;
  }
}

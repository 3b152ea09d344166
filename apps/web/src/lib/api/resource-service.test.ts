import { describe, expect, it } from 'vitest';
import { FakeHttp } from './resource-service.fake';
import { createResourceService, reviveDates, toListParams, type BulkUpdate } from './resource-service';

interface Product {
  id: string;
  name: string;
  price: number;
  collectionId?: string;
  createdAt?: Date;
  updatedAt?: Date;
  deletedAt?: Date | null;
}

const BASE = '/companies/c1/products';

function setup() {
  const http = new FakeHttp();
  const service = createResourceService<Product>('products', http, { companyId: 'c1' });
  return { http, service };
}

/** Lets a test pass what TypeScript would refuse, as a JavaScript caller could. */
function loose<T>(value: unknown): T {
  return value as T;
}

describe('toListParams (docs/product.md §3 query object → docs/design.md §3 list parameters)', () => {
  it('defaults to page 1, 1000 a page, createdAt ascending', () => {
    expect(toListParams()).toEqual({ page: '1', per_page: '1000', sort: 'createdAt' });
    expect(toListParams({})).toEqual({ page: '1', per_page: '1000', sort: 'createdAt' });
  });

  it('maps pagination, a descending sort and the search', () => {
    expect(
      toListParams({
        pagination: { page: 3, perPage: 25 },
        sort: { field: 'name', direction: 'desc' },
        search: '  pan de bono ',
      }),
    ).toEqual({ page: '3', per_page: '25', sort: '-name', search: 'pan de bono' });
    expect(toListParams({ sort: { field: 'price', direction: 'asc' } }).sort).toBe('price');
    expect(toListParams({ sort: { direction: 'desc' } }).sort).toBe('-createdAt');
  });

  it('sends equality filters as plain params, arrays comma-separated, and leaves empty ones out', () => {
    const params = toListParams({
      filters: { collectionId: 'col1', status: ['pending', 'ready'], active: true, brandId: '', x: null, y: [] },
    });
    expect(params).toEqual({
      page: '1',
      per_page: '1000',
      sort: 'createdAt',
      collectionId: 'col1',
      status: 'pending,ready',
      active: 'true',
    });
  });

  it('maps the date range to date_field, start_date and end_date', () => {
    expect(
      toListParams({
        filters: { dateRange: { dateField: 'dueDate', startDate: '2026-11-01', endDate: '2026-11-30' } },
      }),
    ).toMatchObject({ date_field: 'dueDate', start_date: '2026-11-01', end_date: '2026-11-30' });
    const openEnded = toListParams({ filters: { dateRange: { dateField: 'createdAt', startDate: '2026-11-01' } } });
    expect(openEnded).toMatchObject({ date_field: 'createdAt', start_date: '2026-11-01' });
    expect(openEnded).not.toHaveProperty('end_date');
    expect(toListParams({ filters: { dateRange: { dateField: 'createdAt' } } })).not.toHaveProperty('date_field');
  });

  it("reads a Date in the range as its day in the company's time zone", () => {
    // 03:00 UTC on 23 Nov is still 22 Nov in Bogotá (UTC-5).
    const late = new Date('2026-11-23T03:00:00.000Z');
    expect(toListParams({ filters: { dateRange: { dateField: 'dueDate', startDate: late } } }).start_date).toBe(
      '2026-11-22',
    );
    expect(toListParams({ filters: { dateRange: { dateField: 'dueDate', endDate: late } } }, 'UTC').end_date).toBe(
      '2026-11-23',
    );
  });

  it('sends options as plain params', () => {
    expect(toListParams({ options: { include: ['collection', 'brand'], withStock: false } })).toMatchObject({
      include: 'collection,brand',
      withStock: 'false',
    });
  });
});

describe('reviveDates (docs/product.md §9)', () => {
  it('turns every date field of §9 into a Date and leaves the rest alone', () => {
    const iso = '2026-11-22T05:00:00.000Z';
    const out = reviveDates({
      id: 'a',
      name: '2026-11-22T05:00:00.000Z',
      createdAt: iso,
      updatedAt: iso,
      dueDate: iso,
      preparationDate: iso,
      lastLoginAt: iso,
      deletedAt: null,
      completedAt: iso,
      note: 'x',
    });
    for (const key of ['createdAt', 'updatedAt', 'dueDate', 'preparationDate', 'lastLoginAt', 'completedAt'] as const) {
      expect(out[key]).toBeInstanceOf(Date);
      expect((out[key] as unknown as Date).toISOString()).toBe(iso);
    }
    expect(out.deletedAt).toBeNull();
    expect(out.name).toBe(iso);
    expect(out.note).toBe('x');
  });

  it('leaves a date field that is not a valid date as it came', () => {
    expect(reviveDates({ id: 'a', createdAt: 'mañana' }).createdAt).toBe('mañana');
  });
});

describe('createResourceService', () => {
  it('lists under /companies/{companyId}/{resource} with the mapped params and Date fields', async () => {
    const { http, service } = setup();
    http.seed(BASE, [
      { id: 'b', name: 'Pan', price: 1000, createdAt: '2026-11-02T00:00:00.000Z', collectionId: 'k1' },
      { id: 'a', name: 'Torta', price: 4500, createdAt: '2026-11-01T00:00:00.000Z', collectionId: 'k2' },
    ]);
    const result = await service.list();
    expect(http.calls.at(-1)).toEqual({
      method: 'LIST',
      path: BASE,
      query: { page: '1', per_page: '1000', sort: 'createdAt' },
    });
    expect(result.items.map((p) => p.id)).toEqual(['a', 'b']);
    expect(result.items[0]?.createdAt).toEqual(new Date('2026-11-01T00:00:00.000Z'));
    expect(result).toMatchObject({ total: 2, page: 1, perPage: 1000 });

    const filtered = await service.list({ filters: { collectionId: ['k2', 'k3'] } });
    expect(filtered.items.map((p) => p.id)).toEqual(['a']);
  });

  it('reads the company id at each call when given a function', async () => {
    const http = new FakeHttp();
    let company: string | null = null;
    const service = createResourceService<Product>('products', http, { companyId: () => company });
    await expect(service.list()).rejects.toThrow('Company ID is required');
    company = 'c 2';
    await service.list();
    expect(http.calls.at(-1)?.path).toBe('/companies/c%202/products');
  });

  it('gets one record by id, with its dates as Date objects', async () => {
    const { http, service } = setup();
    http.seed(BASE, [{ id: 'a/1', name: 'Pan', price: 1000, updatedAt: '2026-11-22T05:00:00.000Z' }]);
    const product = await service.get('a/1');
    expect(http.calls.at(-1)).toMatchObject({ method: 'GET', path: `${BASE}/a%2F1` });
    expect(product.name).toBe('Pan');
    expect(product.updatedAt).toBeInstanceOf(Date);
  });

  it('creates, replaces, patches and deletes through POST, PUT, PATCH and DELETE', async () => {
    const { http, service } = setup();
    const created = await service.create({ name: 'Pan', price: 1000 });
    expect(http.calls.at(-1)).toEqual({ method: 'POST', path: BASE, body: { name: 'Pan', price: 1000 } });
    expect(created.id).toBeTruthy();
    expect(created.createdAt).toBeInstanceOf(Date);

    const replaced = await service.update(created.id, { name: 'Pan grande', price: 2000 });
    expect(http.calls.at(-1)).toMatchObject({ method: 'PUT', path: `${BASE}/${created.id}` });
    expect(replaced).toMatchObject({ id: created.id, name: 'Pan grande', price: 2000 });

    const patched = await service.patch(created.id, { price: 2500 });
    expect(http.calls.at(-1)).toEqual({ method: 'PATCH', path: `${BASE}/${created.id}`, body: { price: 2500 } });
    expect(patched).toMatchObject({ name: 'Pan grande', price: 2500 });

    await expect(service.remove(created.id)).resolves.toBeUndefined();
    expect(http.calls.at(-1)).toEqual({ method: 'DELETE', path: `${BASE}/${created.id}` });
    expect((await service.list()).items).toEqual([]);
  });

  it('bulk-patches through PATCH {path}/bulk-update with {updates}', async () => {
    const { http, service } = setup();
    http.seed(BASE, [
      { id: 'a', name: 'Pan', price: 1000 },
      { id: 'b', name: 'Torta', price: 4500 },
    ]);
    const updates: BulkUpdate<Product>[] = [
      { id: 'a', data: { price: 1100 } },
      { id: 'b', data: { name: 'Torta negra' } },
    ];
    const records = await service.bulkPatch(updates);
    expect(http.calls.at(-1)).toEqual({ method: 'PATCH', path: `${BASE}/bulk-update`, body: { updates } });
    expect(records.map((r) => [r.id, r.name, r.price])).toEqual([
      ['a', 'Pan', 1100],
      ['b', 'Torta negra', 4500],
    ]);
    expect(records[0]?.updatedAt).toBeInstanceOf(Date);
  });

  describe('checks before calling (docs/product.md §5), word for word, and no request sent', () => {
    const cases: [string, (s: ReturnType<typeof setup>['service']) => Promise<unknown>, string][] = [
      ['get without id', (s) => s.get(''), 'ID is required'],
      ['update without id', (s) => s.update('', { name: 'x' }), 'ID is required'],
      ['patch without id', (s) => s.patch('', { name: 'x' }), 'ID is required'],
      ['remove without id', (s) => s.remove(''), 'ID is required'],
      ['remove with undefined id', (s) => s.remove(loose<string>(undefined)), 'ID is required'],
      ['create without data', (s) => s.create(loose<Partial<Product>>(null)), 'Data is required for create'],
      ['create with a string', (s) => s.create(loose<Partial<Product>>('x')), 'Data is required for create'],
      ['update without data', (s) => s.update('a', loose<Partial<Product>>(undefined)), 'Data is required for update'],
      ['patch without data', (s) => s.patch('a', loose<Partial<Product>>(null)), 'Data is required'],
      [
        'bulk patch without array',
        (s) => s.bulkPatch(loose<BulkUpdate<Product>[]>(undefined)),
        'Updates array is required',
      ],
      [
        'bulk patch with an object',
        (s) => s.bulkPatch(loose<BulkUpdate<Product>[]>({ id: 'a', data: {} })),
        'Updates array is required',
      ],
      ['bulk patch entry without id', (s) => s.bulkPatch([{ id: '', data: { price: 1 } }]), 'ID is required'],
      [
        'bulk patch entry without data',
        (s) => s.bulkPatch([{ id: 'a', data: loose<Partial<Product>>(null) }]),
        'Data is required',
      ],
    ];
    it.each(cases)('%s', async (_name, call, message) => {
      const { http, service } = setup();
      const error = await call(service).then(
        () => null,
        (err: unknown) => err,
      );
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toBe(message);
      expect(http.calls).toEqual([]);
    });
  });

  it('passes the client error through unchanged', async () => {
    const { http, service } = setup();
    const failure = new Error('Server error');
    http.failNext(failure);
    await expect(service.list()).rejects.toBe(failure);
  });
});

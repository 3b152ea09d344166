import { describe, expect, it } from 'vitest';
import { FakeHttp, type JsonRecord } from './resource-service.fake';
import { createResourceService, type ResourceService } from './resource-service';
import { createResourceStore, DEFAULT_LIST_PARAMS } from './resource-store';

interface Product {
  id: string;
  name: string;
  price: number;
  active?: boolean;
  companyId?: string;
  createdAt?: Date;
  updatedAt?: Date;
}

const BASE = '/companies/c1/products';

const SEED: JsonRecord[] = [
  { id: 'a', name: 'Pan', price: 1000, companyId: 'c1', createdAt: '2026-11-01T10:00:00.000Z' },
  { id: 'b', name: 'Torta', price: 4500, companyId: 'c1', createdAt: '2026-11-02T10:00:00.000Z' },
  { id: 'c', name: 'Buñuelo', price: 800, companyId: 'c1', createdAt: '2026-11-03T10:00:00.000Z' },
];

function setup(seed: JsonRecord[] = SEED) {
  const http = new FakeHttp();
  http.seed(BASE, seed);
  const service = createResourceService<Product>('products', http, { companyId: 'c1' });
  const store = createResourceStore(service);
  return { http, service, store };
}

async function loaded(seed: JsonRecord[] = SEED) {
  const ctx = setup(seed);
  await ctx.store.getState().fetchList();
  return ctx;
}

const ids = (items: readonly { id: string }[]) => items.map((i) => i.id);

describe('createResourceStore', () => {
  it('refuses to be made without a service', () => {
    expect(() => createResourceStore(undefined as unknown as ResourceService<Product>)).toThrow('Service is required');
  });

  it('starts empty with the list defaults of docs/product.md §9', () => {
    const { store } = setup();
    expect(store.getState()).toMatchObject({
      items: [],
      currentItem: null,
      loading: false,
      error: null,
      subscribed: false,
      total: 0,
      params: { search: '', sortBy: 'createdAt', sortDesc: true, page: 1, perPage: 10 },
    });
  });
});

describe('fetchList', () => {
  it('loads the first 10, newest first, with Dates, the total, and loading while it runs', async () => {
    const { http, store } = setup();
    const pending = store.getState().fetchList();
    expect(store.getState().loading).toBe(true);
    const items = await pending;
    expect(http.calls.at(-1)).toEqual({
      method: 'LIST',
      path: BASE,
      query: { page: '1', per_page: '10', sort: '-createdAt' },
    });
    expect(ids(items)).toEqual(['c', 'b', 'a']);
    const state = store.getState();
    expect(state.items).toBe(items);
    expect(state.total).toBe(3);
    expect(state.loading).toBe(false);
    expect(state.items[0]?.createdAt).toEqual(new Date('2026-11-03T10:00:00.000Z'));
  });

  it('merges the params it is given into the stored ones and sends them, with filters', async () => {
    const { http, store } = setup();
    await store.getState().fetchList({ search: 'pan', sortBy: 'name', sortDesc: false, perPage: 2 });
    expect(http.calls.at(-1)?.query).toEqual({ page: '1', per_page: '2', sort: 'name', search: 'pan' });
    expect(store.getState().params).toEqual({ search: 'pan', sortBy: 'name', sortDesc: false, page: 1, perPage: 2 });
    expect(ids(store.getState().items)).toEqual(['a']);

    await store.getState().fetchList({ search: '', page: 2 }, { price: [800, 4500] });
    expect(http.calls.at(-1)?.query).toEqual({ page: '2', per_page: '2', sort: 'name', price: '800,4500' });
  });

  it('uses params set with setParams', async () => {
    const { http, store } = setup();
    store.getState().setParams({ page: 3 });
    store.getState().setParams({ perPage: 25 });
    expect(store.getState().params).toEqual({ ...DEFAULT_LIST_PARAMS, page: 3, perPage: 25 });
    await store.getState().fetchList();
    expect(http.calls.at(-1)?.query).toMatchObject({ page: '3', per_page: '25' });
  });
});

describe('failures set the error and rethrow it', () => {
  it('on a failed request, and clear it on the next success', async () => {
    const { http, store } = await loaded();
    const failure = new Error('Server error');
    http.failNext(failure);
    await expect(store.getState().fetchOne('a')).rejects.toBe(failure);
    expect(store.getState()).toMatchObject({ error: failure, loading: false });
    await store.getState().fetchOne('a');
    expect(store.getState().error).toBeNull();
  });

  it.each([
    ['fetchOne', (s: ReturnType<typeof setup>['store']) => s.getState().fetchOne(''), 'ID is required'],
    [
      'create',
      (s: ReturnType<typeof setup>['store']) => s.getState().create(null as unknown as Partial<Product>),
      'Data is required for create',
    ],
    [
      'update',
      (s: ReturnType<typeof setup>['store']) => s.getState().update('a', null as unknown as Partial<Product>),
      'Data is required for update',
    ],
    [
      'patch',
      (s: ReturnType<typeof setup>['store']) => s.getState().patch('a', null as unknown as Partial<Product>),
      'Data is required',
    ],
    ['remove', (s: ReturnType<typeof setup>['store']) => s.getState().remove(''), 'ID is required'],
    [
      'bulkPatch',
      (s: ReturnType<typeof setup>['store']) => s.getState().bulkPatch(null as unknown as []),
      'Updates array is required',
    ],
  ])('on the client check of %s', async (_name, call, message) => {
    const { http, store } = setup();
    await expect(call(store)).rejects.toThrow(message);
    expect(store.getState().error?.message).toBe(message);
    expect(store.getState().loading).toBe(false);
    expect(http.calls).toEqual([]);
  });

  it('keeps the list as it was when a write fails', async () => {
    const { http, store } = await loaded();
    const before = store.getState().items;
    http.failNext(new Error('Request failed'));
    await expect(store.getState().remove('a')).rejects.toThrow('Request failed');
    expect(store.getState().items).toBe(before);
  });
});

describe('single-record operations', () => {
  it('fetchOne sets the current item', async () => {
    const { store } = setup();
    const product = await store.getState().fetchOne('b');
    expect(product.name).toBe('Torta');
    expect(store.getState().currentItem).toEqual(product);
    expect(product.createdAt).toBeInstanceOf(Date);
  });

  it('create appends the new record and counts it', async () => {
    const { store } = await loaded();
    const created = await store.getState().create({ name: 'Almojábana', price: 1500 });
    expect(created.createdAt).toBeInstanceOf(Date);
    expect(ids(store.getState().items)).toEqual(['c', 'b', 'a', created.id]);
    expect(store.getState().total).toBe(4);
  });

  it('update replaces the item in the list and the current item', async () => {
    const { store } = await loaded();
    await store.getState().fetchOne('b');
    const others = store.getState().items.filter((i) => i.id !== 'b');
    const updated = await store.getState().update('b', { name: 'Torta negra', price: 5000 });
    const state = store.getState();
    expect(state.items.find((i) => i.id === 'b')).toBe(updated);
    expect(state.items.filter((i) => i.id !== 'b')).toEqual(others);
    expect(ids(state.items)).toEqual(['c', 'b', 'a']);
    expect(state.currentItem).toBe(updated);
    expect(updated).toMatchObject({ name: 'Torta negra', price: 5000 });
  });

  it('patch replaces the item in the list and the current item', async () => {
    const { store } = await loaded();
    await store.getState().fetchOne('a');
    const patched = await store.getState().patch('a', { price: 1100 });
    expect(patched).toMatchObject({ id: 'a', name: 'Pan', price: 1100 });
    expect(store.getState().items.find((i) => i.id === 'a')).toBe(patched);
    expect(store.getState().currentItem).toBe(patched);
  });

  it('patch leaves a different current item alone', async () => {
    const { store } = await loaded();
    const current = await store.getState().fetchOne('c');
    await store.getState().patch('a', { price: 1100 });
    expect(store.getState().currentItem).toBe(current);
  });

  it('bulkPatch merges the given fields into the matching items and the current item', async () => {
    const { store } = await loaded();
    await store.getState().fetchOne('a');
    const untouched = store.getState().items.find((i) => i.id === 'b');
    await store.getState().bulkPatch([
      { id: 'a', data: { price: 1200 } },
      { id: 'c', data: { active: false } },
    ]);
    const state = store.getState();
    expect(state.items.find((i) => i.id === 'a')).toMatchObject({ name: 'Pan', price: 1200 });
    expect(state.items.find((i) => i.id === 'c')).toMatchObject({ name: 'Buñuelo', price: 800, active: false });
    expect(state.items.find((i) => i.id === 'b')).toBe(untouched);
    expect(state.currentItem).toMatchObject({ id: 'a', name: 'Pan', price: 1200 });
  });

  it('remove takes the item out and clears the current item when it is the same', async () => {
    const { store } = await loaded();
    await store.getState().fetchOne('a');
    await store.getState().remove('a');
    expect(ids(store.getState().items)).toEqual(['c', 'b']);
    expect(store.getState().total).toBe(2);
    expect(store.getState().currentItem).toBeNull();
  });

  it('remove keeps a different current item', async () => {
    const { store } = await loaded();
    const current = await store.getState().fetchOne('b');
    await store.getState().remove('a');
    expect(store.getState().currentItem).toBe(current);
  });
});

describe('reset', () => {
  it('empties items and current item, clears loading and error, and restores the default params', async () => {
    const { http, store } = await loaded();
    await store.getState().fetchOne('a');
    await store.getState().fetchList({ search: 'pan', page: 2, sortDesc: false });
    http.failNext(new Error('Server error'));
    await expect(store.getState().fetchList()).rejects.toThrow();
    store.getState().reset();
    expect(store.getState()).toMatchObject({
      items: [],
      currentItem: null,
      loading: false,
      error: null,
      total: 0,
      params: DEFAULT_LIST_PARAMS,
    });
  });
});

describe('live changes through applyChanges', () => {
  it('applies the live rules to the list, the total and the current item', async () => {
    const { store } = await loaded();
    await store.getState().fetchOne('b');
    store.getState().setSubscribed(true);
    expect(store.getState().subscribed).toBe(true);

    store.getState().applyChanges(
      [
        { type: 'added', doc: { id: 'n', name: 'Almojábana', price: 1500, createdAt: '2026-11-22T05:00:00.000Z' } },
        { type: 'modified', doc: { id: 'b', name: 'Torta negra', price: 5000 } },
      ],
      'c1',
    );
    let state = store.getState();
    expect(ids(state.items)).toEqual(['c', 'b', 'a', 'n']);
    expect(state.items.at(-1)).toMatchObject({ companyId: 'c1', createdAt: new Date('2026-11-22T05:00:00.000Z') });
    expect(state.total).toBe(4);
    expect(state.currentItem).toMatchObject({ id: 'b', name: 'Torta negra', price: 5000 });

    store.getState().applyChanges([{ type: 'removed', doc: { id: 'b' } }], 'c1');
    state = store.getState();
    expect(ids(state.items)).toEqual(['c', 'a', 'n']);
    expect(state.total).toBe(3);
    expect(state.currentItem).toBeNull();
  });

  it('does not notify subscribers when a batch changes nothing', async () => {
    const { store } = await loaded();
    let notified = 0;
    store.subscribe(() => notified++);
    store.getState().applyChanges(
      [
        { type: 'added', doc: { id: 'x', name: 'X' } },
        { type: 'added', doc: { id: 'y', name: 'Y' } },
        { type: 'added', doc: { id: 'z', name: 'Z' } },
      ],
      'c1',
    );
    expect(notified).toBe(0);
    expect(ids(store.getState().items)).toEqual(['c', 'b', 'a']);
  });
});

import { createStore, type StoreApi } from 'zustand/vanilla';
import { applyChangesToList, applyModified, receivedItem, type LiveChange } from '../live/live-rules';
import type { BulkUpdate, Filters, Resource, ResourceService } from './resource-service';

/** The list store's query params (docs/product.md §3 "Resource list state"). */
export interface ListParams {
  search: string;
  sortBy: string;
  sortDesc: boolean;
  page: number;
  perPage: number;
}

/** Spec §9: page size 10, page 1, createdAt descending (the query object's defaults differ on purpose). */
export const DEFAULT_LIST_PARAMS: Readonly<ListParams> = Object.freeze({
  search: '',
  sortBy: 'createdAt',
  sortDesc: true,
  page: 1,
  perPage: 10,
});

/** Spec §5: "A service must be given to the resource store." */
export const SERVICE_REQUIRED_MESSAGE = 'Service is required';

export interface ResourceState<T extends Resource> {
  items: T[];
  currentItem: T | null;
  loading: boolean;
  error: Error | null;
  /** Whether the list follows the live stream (the stream itself is wired by the live subscription). */
  subscribed: boolean;
  params: ListParams;
  total: number;

  /** Loads a page with the stored params, after merging `params` into them; `filters` go along unchanged. */
  fetchList(params?: Partial<ListParams>, filters?: Filters): Promise<T[]>;
  fetchOne(id: string): Promise<T>;
  create(data: Partial<T>): Promise<T>;
  update(id: string, data: Partial<T>): Promise<T>;
  patch(id: string, data: Partial<T>): Promise<T>;
  bulkPatch(updates: readonly BulkUpdate<T>[]): Promise<T[]>;
  remove(id: string): Promise<void>;
  setParams(params: Partial<ListParams>): void;
  setSubscribed(subscribed: boolean): void;
  /** Applies one batch of the live stream to the list (live-rules.ts). */
  applyChanges(changes: readonly LiveChange[], companyId: string): void;
  reset(): void;
}

export type ResourceStore<T extends Resource> = StoreApi<ResourceState<T>>;

function toError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}

function replaceById<T extends Resource>(items: readonly T[], record: T): T[] {
  return items.map((item) => (item.id === record.id ? record : item));
}

/**
 * The list store of one resource (docs/product.md §3/§4), a vanilla zustand store: `useStore(store, selector)` reads it
 * in React. Every operation clears the error, sets `loading` while it runs, and on failure stores the error
 * and rethrows it.
 */
export function createResourceStore<T extends Resource>(service: ResourceService<T>): ResourceStore<T> {
  if (!service) throw new Error(SERVICE_REQUIRED_MESSAGE);

  return createStore<ResourceState<T>>()((set, get) => {
    async function run<R>(operation: () => Promise<R>, onSuccess: (result: R) => void): Promise<R> {
      set({ loading: true, error: null });
      try {
        const result = await operation();
        onSuccess(result);
        set({ loading: false });
        return result;
      } catch (err) {
        const error = toError(err);
        set({ loading: false, error });
        throw error;
      }
    }

    return {
      items: [],
      currentItem: null,
      loading: false,
      error: null,
      subscribed: false,
      params: { ...DEFAULT_LIST_PARAMS },
      total: 0,

      fetchList(params = {}, filters) {
        const next = { ...get().params, ...params };
        set({ params: next });
        return run(
          () =>
            service.list({
              pagination: { page: next.page, perPage: next.perPage },
              sort: { field: next.sortBy, direction: next.sortDesc ? 'desc' : 'asc' },
              search: next.search,
              filters,
            }),
          (result) => set({ items: result.items, total: result.total }),
        ).then((result) => result.items);
      },

      fetchOne(id) {
        return run(
          () => service.get(id),
          (record) => set({ currentItem: record }),
        );
      },

      create(data) {
        return run(
          () => service.create(data),
          (record) =>
            set((state) =>
              state.items.some((item) => item.id === record.id)
                ? { items: replaceById(state.items, record) }
                : { items: [...state.items, record], total: state.total + 1 },
            ),
        );
      },

      update(id, data) {
        return run(
          () => service.update(id, data),
          (record) => set((state) => replaceEverywhere(state, record)),
        );
      },

      patch(id, data) {
        return run(
          () => service.patch(id, data),
          (record) => set((state) => replaceEverywhere(state, record)),
        );
      },

      bulkPatch(updates) {
        return run(
          () => service.bulkPatch(updates),
          (records) =>
            set((state) => {
              // The given fields merge into the matching items; the server's answer, when it has the record, wins.
              const merge = (item: T): T => {
                const update = updates.find((u) => u.id === item.id);
                if (!update) return item;
                const fromServer = records.find((r) => r.id === item.id);
                return { ...item, ...update.data, ...fromServer, id: item.id };
              };
              return {
                items: state.items.map(merge),
                currentItem: state.currentItem ? merge(state.currentItem) : null,
              };
            }),
        );
      },

      remove(id) {
        return run(
          () => service.remove(id),
          () =>
            set((state) => {
              const items = state.items.filter((item) => item.id !== id);
              return {
                items,
                total: Math.max(0, state.total - (state.items.length - items.length)),
                currentItem: state.currentItem?.id === id ? null : state.currentItem,
              };
            }),
        );
      },

      setParams(params) {
        set((state) => ({ params: { ...state.params, ...params } }));
      },

      setSubscribed(subscribed) {
        set({ subscribed });
      },

      applyChanges(changes, companyId) {
        set((state) => {
          const items = applyChangesToList(state.items, changes, companyId);
          let currentItem = state.currentItem;
          for (const change of changes) {
            if (!currentItem || change.doc?.id !== currentItem.id) continue;
            if (change.type === 'removed') currentItem = null;
            else if (change.type === 'modified')
              currentItem = applyModified(currentItem, receivedItem<T>(change.doc, companyId));
          }
          if (items === state.items && currentItem === state.currentItem) return state;
          return {
            items,
            currentItem,
            total: Math.max(0, state.total + items.length - state.items.length),
          };
        });
      },

      reset() {
        set({
          items: [],
          currentItem: null,
          loading: false,
          error: null,
          params: { ...DEFAULT_LIST_PARAMS },
          total: 0,
        });
      },
    };
  });
}

function replaceEverywhere<T extends Resource>(
  state: ResourceState<T>,
  record: T,
): Pick<ResourceState<T>, 'items' | 'currentItem'> {
  return {
    items: replaceById(state.items, record),
    currentItem: state.currentItem?.id === record.id ? record : state.currentItem,
  };
}

import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import { getLiveStream } from '../../lib/live/live-stream';
import type { Filters, Resource, ResourceService } from '../../lib/api/resource-service';
import type { ResourceStore } from '../../lib/api/resource-store';
import {
  activeFilters,
  changeView,
  pageCount,
  readListView,
  writeListView,
  type ListView,
  type ListViewConfig,
} from './list-url';
import { useCompanyId, useResourceStore } from './resource-client';

/** How long live changes gather before the page is read again (a bulk change is one reload). */
const LIVE_RELOAD_DELAY_MS = 250;

export interface ResourceTable<T extends Resource> {
  items: T[];
  total: number;
  /** True while the first page of a view loads (the table shows its skeleton or dims its rows). */
  loading: boolean;
  error: Error | null;
  view: ListView;
  /**
   * Changes the view (the URL): a new search, sort, filter or page size goes back to page 1. Each change is a
   * history entry (Back undoes it) except typing in the search box, or when `replace` is asked.
   */
  setView(change: Partial<ListView>, options?: { replace?: boolean }): void;
  /** Reads the current page again. */
  reload(): void;
  companyId: string | null;
  service: ResourceService<T> | null;
  store: ResourceStore<T> | null;
}

const EMPTY: never[] = [];

/**
 * A server-side list for a table: the view comes from the URL (list-url.ts), the page is read through the
 * resource's list store, and the shared live stream keeps it current (a change to a shown row applies at
 * once; then the page is read again, quietly, so added, removed and reordered rows land where the server
 * puts them). `config` must be stable (a module constant).
 */
export function useResourceTable<T extends Resource>(
  resource: string,
  config: ListViewConfig,
  /** Filters the screen always applies (not in the URL): the staff screen's roles, a date range. Stable. */
  fixed?: Filters,
): ResourceTable<T> {
  const [searchParams, setSearchParams] = useSearchParams();
  const query = searchParams.toString();
  const view = useMemo(() => readListView(new URLSearchParams(query), config), [query, config]);
  const companyId = useCompanyId();
  const pair = useResourceStore<T>(resource, companyId);
  const store = pair?.store ?? null;
  const service = pair?.service ?? null;
  const seq = useRef(0);

  const load = useCallback(
    async (quiet: boolean) => {
      if (!store || !service) return;
      const mine = ++seq.current;
      const params = {
        search: view.search,
        sortBy: view.sortBy,
        sortDesc: view.sortDesc,
        page: view.page,
        perPage: view.perPage,
      };
      store.getState().setParams(params);
      if (!quiet) store.setState({ loading: true, error: null });
      try {
        const result = await service.list({
          pagination: { page: params.page, perPage: params.perPage },
          sort: { field: params.sortBy, direction: params.sortDesc ? 'desc' : 'asc' },
          search: params.search,
          filters: { ...fixed, ...activeFilters(view) },
        });
        // Only the latest request writes: an older answer arriving late would show the wrong page.
        if (mine !== seq.current) return;
        store.setState({ items: result.items, total: result.total, loading: false, error: null });
      } catch (err) {
        if (mine !== seq.current) return;
        store.setState({ loading: false, error: err instanceof Error ? err : new Error(String(err)) });
      }
    },
    [store, service, view, fixed],
  );

  useEffect(() => {
    void load(false);
  }, [load]);

  // Follow the shared stream: modified rows change at once; the page is then read again.
  const loadRef = useRef(load);
  loadRef.current = load;
  useEffect(() => {
    if (!store || !companyId) return;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const reloadSoon = () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => void loadRef.current(true), LIVE_RELOAD_DELAY_MS);
    };
    const unsubscribe = getLiveStream().subscribe(companyId, resource, {
      onChanges: (changes) => {
        store.getState().applyChanges(changes, companyId);
        reloadSoon();
      },
      onReset: reloadSoon,
    });
    store.getState().setSubscribed(true);
    return () => {
      if (timer) clearTimeout(timer);
      unsubscribe();
      store.getState().setSubscribed(false);
    };
  }, [store, companyId, resource]);

  const setView = useCallback(
    (change: Partial<ListView>, options?: { replace?: boolean }) => {
      const next = changeView(view, change);
      const typing = change.search !== undefined && Object.keys(change).length === 1;
      // Typing replaces the entry (Back should not walk through every letter); other changes add one.
      setSearchParams((current) => writeListView(next, config, current), { replace: options?.replace ?? typing });
    },
    [view, config, setSearchParams],
  );

  const items = useStore(store ?? fallbackStore, (s) => s.items) as T[];
  const total = useStore(store ?? fallbackStore, (s) => s.total);
  const loading = useStore(store ?? fallbackStore, (s) => s.loading);
  const error = useStore(store ?? fallbackStore, (s) => s.error);

  // A page past the end (rows deleted, or an old link): show the last page instead.
  const pages = pageCount(total, view.perPage);
  useEffect(() => {
    if (!loading && !error && total > 0 && view.page > pages) setView({ page: pages }, { replace: true });
  }, [loading, error, total, view.page, pages, setView]);

  const reload = useCallback(() => void load(false), [load]);
  return {
    items: store ? items : EMPTY,
    total,
    loading: loading || !store,
    error,
    view,
    setView,
    reload,
    companyId,
    service,
    store,
  };
}

/** Read before a company is known: an empty list that never changes. */
const fallbackStore = createStore(() => ({ items: EMPTY, total: 0, loading: true, error: null as Error | null }));

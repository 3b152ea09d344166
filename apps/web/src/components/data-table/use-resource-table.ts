import { useCallback, useEffect, useMemo } from 'react';
import { useSearchParams, type Params } from 'react-router';
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import type { ResourceName } from '@hornada/domain/policy';
import { readForScreen, type ScreenRead } from '../../lib/api/screen-read';
import type { Filters, Resource, ResourceService } from '../../lib/api/resource-service';
import { createResourceStore, type ResourceStore } from '../../lib/api/resource-store';
import { getLiveStream } from '../../lib/live/live-stream';
import { useScreenData } from '../../lib/live/use-screen-data';
import { useScreenLoading } from '../../lib/use-screen-loading';
import {
  activeFilters,
  changeView,
  pageCount,
  readListView,
  writeListView,
  type ListView,
  type ListViewConfig,
} from './list-url';
import { resourceService, useCompanyId } from './resource-client';

/** A table screen's list: which resource, its view's rules, and what it always filters on. A module constant. */
export interface TableDef {
  resource: ResourceName;
  config: ListViewConfig;
  /** Filters the screen always applies (not in the URL): the staff screen's roles, a date range up to now. */
  fixed?: () => Filters;
  /** Other resources whose changes the screen's loader reads again for (a client's balance follows orders). */
  follows?: readonly ResourceName[];
}

/** One page of a table, as its loader read it. */
export interface TablePage<T> {
  items: T[];
  total: number;
}

/** What a table screen's loader answers: the page, and whatever else the screen reads with it. */
export interface TableData<T> {
  page: TablePage<T>;
}

/** The page of `table` the address asks for (its view in the query: list-url.ts), read for `companyId`. */
export async function readTablePage<T extends Resource>(
  table: TableDef,
  request: Request,
  companyId: string,
  /** The view to read, when the screen completes the address's (the orders' default days). */
  view: ListView = readListView(new URL(request.url).searchParams, table.config),
): Promise<TablePage<T>> {
  const result = await resourceService<T>(table.resource, companyId).list({
    pagination: { page: view.page, perPage: view.perPage },
    sort: { field: view.sortBy, direction: view.sortDesc ? 'desc' : 'asc' },
    search: view.search,
    filters: { ...table.fixed?.(), ...activeFilters(view) },
  });
  return { items: result.items, total: result.total };
}

/** The loader of a screen whose page is all it reads. */
export function tableLoader<T extends Resource>(table: TableDef) {
  return ({ request }: { request: Request }): Promise<ScreenRead<TableData<T>>> =>
    readForScreen(async (companyId) => ({ page: await readTablePage<T>(table, request, companyId) }));
}

type TableLoader<D> = (args: { request: Request; params: Params }) => Promise<ScreenRead<D>>;
type RowOf<D extends TableData<Resource>> = D['page']['items'][number];

export interface ResourceTable<T extends Resource, D = TableData<T>> {
  items: T[];
  total: number;
  /** True while another view of the list is read (the table dims its rows, or shows its skeleton if empty). */
  loading: boolean;
  /** What to say when the page could not be read (the table offers to try again). */
  error: string | null;
  /** The loader's whole answer (what the screen reads beside the page), null when the read failed. */
  data: D | null;
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
  /** The list store (docs/product.md §4) holding the page shown: a write here or a change elsewhere shows at once. */
  store: ResourceStore<T> | null;
}

const EMPTY: never[] = [];

/**
 * A server-side list for a table (docs/web.md "Data"): the view comes from the URL (list-url.ts) and the
 * screen's loader reads that page; the page is held in a list store, where a row deleted or saved on this screen
 * and a row changed elsewhere (the live stream) change at once, and the loader then reads the page again,
 * quietly, so added, removed and reordered rows land where the server puts them.
 */
export function useResourceTable<D extends TableData<Resource>>(
  table: TableDef,
  loader: TableLoader<D>,
  /** Query parameters the loader does not read (useScreenData). */
  options: { ignore?: readonly string[] } = {},
): ResourceTable<RowOf<D>, D> {
  type T = RowOf<D>;
  const { resource, config } = table;
  const [searchParams, setSearchParams] = useSearchParams();
  const query = searchParams.toString();
  const view = useMemo(() => readListView(new URLSearchParams(query), config), [query, config]);
  const companyId = useCompanyId();
  const follows = useMemo(() => [resource, ...(table.follows ?? [])], [resource, table.follows]);
  const { data: read, reload } = useScreenData(loader, companyId, follows, options.ignore);
  const service = useMemo(() => (companyId ? resourceService<T>(resource, companyId) : null), [resource, companyId]);
  const data = read.state === 'ready' ? read.data : null;

  // Each answer starts a store of its own: nothing of an older page can linger in it.
  const store = useMemo(() => {
    if (!service) return null;
    const created = createResourceStore<T>(service);
    if (data) created.setState({ items: data.page.items as T[], total: data.page.total });
    return created;
  }, [service, data]);

  // A row changed elsewhere changes at once; useScreenData then reads the page again.
  useEffect(() => {
    if (!store || !companyId) return;
    return getLiveStream().subscribe(companyId, resource, {
      onChanges: (changes) => store.getState().applyChanges(changes, companyId),
      onReset: () => undefined, // useScreenData reads the page again
    });
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
  const loading = useScreenLoading();
  const error = read.state === 'failed' ? read.message : null;

  // A page past the end (rows deleted, or an old link): show the last page instead.
  const pages = pageCount(total, view.perPage);
  useEffect(() => {
    if (!loading && !error && total > 0 && view.page > pages) setView({ page: pages }, { replace: true });
  }, [loading, error, total, view.page, pages, setView]);

  return {
    items: store ? items : EMPTY,
    total,
    loading: loading || !store,
    error,
    data,
    view,
    setView,
    reload,
    companyId,
    service,
    store,
  };
}

/** Read before a company is known: an empty list that never changes. */
const fallbackStore = createStore(() => ({ items: EMPTY, total: 0 }));

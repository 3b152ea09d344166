import {
  flexRender,
  getCoreRowModel,
  useReactTable,
  type ColumnDef,
  type RowData,
  type VisibilityState,
} from '@tanstack/react-table';
import { ArrowDown, ArrowUp, ArrowUpDown, ChevronLeft, ChevronRight, Columns3, Search, X } from 'lucide-react';
import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { useNavigation } from 'react-router';
import type { Resource } from '../../lib/api/resource-service';
import { EmptyState } from '../empty-state';
import { secondaryButtonClass, iconButtonClass } from '../ui/button';
import {
  DropdownMenu,
  DropdownMenuCheckboxItem,
  DropdownMenuContent,
  DropdownMenuLabel,
  DropdownMenuTrigger,
} from '../ui/dropdown-menu';
import { PHONE_MAX_WIDTH, readVisibility, visibilityKey, type ColumnChoice } from './columns';
import { isNarrowed, pageCount, PER_PAGE_OPTIONS, rangeLabel, toggleSort } from './list-url';
import type { ResourceTable } from './use-resource-table';

declare module '@tanstack/react-table' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the names TanStack's declaration uses
  interface ColumnMeta<TData extends RowData, TValue> {
    /** The API's sort field: the header becomes a sort button. */
    sortField?: string;
    /** Hidden by default on a phone. */
    hideOnPhone?: boolean;
    /** Always shown; not in the column chooser. */
    fixed?: boolean;
    /** Numbers and money line up on the right. */
    align?: 'right';
    /** The chooser's label when the header is not plain text. */
    label?: string;
  }
}

export interface TableFilter {
  /** The API's filter field (also the URL key). */
  key: string;
  label: string;
  options: readonly { value: string; label: string }[];
}

export interface DataTableProps<T extends Resource> {
  /** Stable id: the remembered column choice is kept under it. */
  id: string;
  /** What the table lists, read by screen readers ("Productos"). */
  label: string;
  table: ResourceTable<T>;
  columns: ColumnDef<T>[];
  searchLabel?: string;
  searchPlaceholder?: string;
  filters?: readonly TableFilter[];
  /** Shown when there are no records at all (not when a search finds none). */
  empty: ReactNode;
}

const SEARCH_DELAY_MS = 300;
const SKELETON_ROWS = 5;

/** Whether the screen is phone-sized (the kit's breakpoint): lists and panels that change shape there. */
export function usePhone(): boolean {
  const query = `(max-width: ${PHONE_MAX_WIDTH}px)`;
  const [phone, setPhone] = useState(() => typeof window !== 'undefined' && window.matchMedia(query).matches);
  useEffect(() => {
    const list = window.matchMedia(query);
    const onChange = () => setPhone(list.matches);
    list.addEventListener('change', onChange);
    return () => list.removeEventListener('change', onChange);
  }, [query]);
  return phone;
}

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

function columnId<T>(column: ColumnDef<T>): string {
  return column.id ?? ('accessorKey' in column ? String(column.accessorKey) : '');
}

function columnLabel<T>(column: ColumnDef<T>): string {
  return column.meta?.label ?? (typeof column.header === 'string' ? column.header : columnId(column));
}

/**
 * The back office's table (TanStack Table for the rows and columns; the server searches, sorts and pages):
 * search box, filters, sortable headers, pagination, a column chooser, a loading skeleton and empty states.
 * Its view lives in the URL (useResourceTable).
 */
export function DataTable<T extends Resource>({
  id,
  label,
  table,
  columns,
  searchLabel = 'Buscar',
  searchPlaceholder = 'Buscar…',
  filters = [],
  empty,
}: DataTableProps<T>) {
  const { view, setView, items, total, loading, error } = table;
  const phone = usePhone();
  const choices: ColumnChoice[] = useMemo(
    () => columns.map((c) => ({ id: columnId(c), hideOnPhone: c.meta?.hideOnPhone, fixed: c.meta?.fixed })),
    [columns],
  );
  const [visibility, setVisibility] = useState<VisibilityState>(() => readVisibility(storage(), id, choices, phone));
  useEffect(() => setVisibility(readVisibility(storage(), id, choices, phone)), [id, choices, phone]);
  const chooseColumn = (columnKey: string, shown: boolean) => {
    const next = { ...visibility, [columnKey]: shown };
    setVisibility(next);
    try {
      storage()?.setItem(visibilityKey(id, phone), JSON.stringify(next));
    } catch {
      // A full or blocked storage only forgets the choice.
    }
  };

  const rt = useReactTable({
    data: items,
    columns: useStableColumns(columns),
    getCoreRowModel: getCoreRowModel(),
    getRowId: (row) => row.id,
    manualPagination: true,
    manualSorting: true,
    manualFiltering: true,
    state: { columnVisibility: visibility },
  });

  const pages = pageCount(total, view.perPage);
  const narrowed = isNarrowed(view);
  const showSkeleton = loading && items.length === 0;
  const uid = useId();

  return (
    <div className="space-y-3">
      <div className="grid gap-2 sm:flex sm:flex-wrap sm:items-end">
        <SearchBox
          id={`${uid}-search`}
          label={searchLabel}
          placeholder={searchPlaceholder}
          value={view.search}
          onChange={(search) => setView({ search })}
        />
        <div className="grid grid-cols-2 items-end gap-2 sm:contents">
          {filters.map((filter) => (
            <div key={filter.key} className="min-w-0 sm:w-44">
              <label htmlFor={`${uid}-${filter.key}`} className="block text-sm font-medium text-stone-700">
                {filter.label}
              </label>
              <select
                id={`${uid}-${filter.key}`}
                value={view.filters[filter.key] ?? ''}
                onChange={(event) => setView({ filters: { [filter.key]: event.target.value } })}
                className="mt-1 block w-full rounded-lg border border-stone-300 bg-white px-3 py-2 text-stone-900 shadow-sm focus:border-amber-700 focus:outline-none focus:ring-2 focus:ring-amber-700/30"
              >
                <option value="">Todos</option>
                {filter.options.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </select>
            </div>
          ))}
          <DropdownMenu>
            <DropdownMenuTrigger className={`${secondaryButtonClass} sm:ml-auto`}>
              <Columns3 className="size-4" aria-hidden="true" />
              Columnas
            </DropdownMenuTrigger>
            <DropdownMenuContent label="Columnas visibles">
              <DropdownMenuLabel>Columnas visibles</DropdownMenuLabel>
              {columns
                .filter((c) => !c.meta?.fixed)
                .map((c) => {
                  const key = columnId(c);
                  return (
                    <DropdownMenuCheckboxItem
                      key={key}
                      checked={visibility[key] !== false}
                      onCheckedChange={(shown) => chooseColumn(key, shown)}
                    >
                      {columnLabel(c)}
                    </DropdownMenuCheckboxItem>
                  );
                })}
            </DropdownMenuContent>
          </DropdownMenu>
        </div>
      </div>

      {error ? (
        <div role="alert" className="flex flex-wrap items-center gap-3 rounded-lg border border-red-200 bg-red-50 p-3">
          <p className="text-red-900">{error}</p>
          <button type="button" className={secondaryButtonClass} onClick={table.reload}>
            Intentar de nuevo
          </button>
        </div>
      ) : null}

      {!loading && !error && total === 0 ? (
        narrowed ? (
          <EmptyState
            title="No encontramos resultados."
            action={
              <button
                type="button"
                className={secondaryButtonClass}
                onClick={() =>
                  setView({
                    search: '',
                    filters: Object.fromEntries(Object.keys(view.filters).map((k) => [k, ''])),
                  })
                }
              >
                Quitar búsqueda y filtros
              </button>
            }
          >
            <p>Prueba con otras palabras o quita los filtros.</p>
          </EmptyState>
        ) : (
          empty
        )
      ) : (
        <div className="relative overflow-x-auto rounded-xl border border-stone-200 bg-white shadow-sm">
          <table aria-label={label} aria-busy={loading || undefined} className="w-full text-left text-sm">
            <thead className="border-b border-stone-200 bg-stone-50 text-stone-700">
              {rt.getHeaderGroups().map((group) => (
                <tr key={group.id}>
                  {group.headers.map((header) => {
                    const meta = header.column.columnDef.meta;
                    const sortField = meta?.sortField;
                    const sorted = sortField && view.sortBy === sortField ? (view.sortDesc ? 'desc' : 'asc') : null;
                    const content = header.isPlaceholder
                      ? null
                      : flexRender(header.column.columnDef.header, header.getContext());
                    return (
                      <th
                        key={header.id}
                        scope="col"
                        aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}
                        className={`whitespace-nowrap px-3 py-2 font-semibold ${meta?.align === 'right' ? 'text-right' : ''}`}
                      >
                        {sortField ? (
                          <button
                            type="button"
                            onClick={() => setView(toggleSort(view, sortField))}
                            className="inline-flex items-center gap-1 rounded hover:text-stone-950 focus-visible:outline-2 focus-visible:outline-amber-900"
                          >
                            {content}
                            {sorted === 'asc' ? (
                              <ArrowUp className="size-4" aria-hidden="true" />
                            ) : sorted === 'desc' ? (
                              <ArrowDown className="size-4" aria-hidden="true" />
                            ) : (
                              <ArrowUpDown className="size-4 text-stone-400" aria-hidden="true" />
                            )}
                          </button>
                        ) : (
                          content
                        )}
                      </th>
                    );
                  })}
                </tr>
              ))}
            </thead>
            <tbody className={`divide-y divide-stone-100 ${loading && !showSkeleton ? 'opacity-60' : ''}`}>
              {showSkeleton
                ? Array.from({ length: SKELETON_ROWS }, (_, row) => (
                    <tr key={row}>
                      {rt.getVisibleLeafColumns().map((column) => (
                        <td key={column.id} className="px-3 py-3">
                          <span className="block h-4 w-full max-w-40 animate-pulse rounded bg-stone-200 motion-reduce:animate-none" />
                        </td>
                      ))}
                    </tr>
                  ))
                : rt.getRowModel().rows.map((row) => (
                    <tr key={row.id} className="hover:bg-amber-50/40">
                      {row.getVisibleCells().map((cell) => (
                        <td
                          key={cell.id}
                          className={`px-3 py-2.5 align-middle ${cell.column.columnDef.meta?.align === 'right' ? 'text-right tabular-nums' : ''}`}
                        >
                          {flexRender(cell.column.columnDef.cell, cell.getContext())}
                        </td>
                      ))}
                    </tr>
                  ))}
            </tbody>
          </table>
          {showSkeleton ? (
            <p role="status" className="sr-only">
              Cargando…
            </p>
          ) : null}
        </div>
      )}

      {total > 0 ? (
        <nav
          aria-label="Paginación"
          className="flex flex-wrap items-center justify-between gap-3 text-sm text-stone-700"
        >
          <p aria-live="polite">{rangeLabel(view.page, view.perPage, total)}</p>
          <div className="flex items-center gap-2">
            <label htmlFor={`${uid}-per-page`}>Por página</label>
            <select
              id={`${uid}-per-page`}
              value={view.perPage}
              onChange={(event) => setView({ perPage: Number(event.target.value) })}
              className="rounded-lg border border-stone-300 bg-white px-2 py-1.5"
            >
              {PER_PAGE_OPTIONS.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
            <button
              type="button"
              className={iconButtonClass}
              aria-label="Página anterior"
              disabled={view.page <= 1}
              onClick={() => setView({ page: view.page - 1 })}
            >
              <ChevronLeft className="size-5" aria-hidden="true" />
            </button>
            <span>
              Página {Math.min(view.page, pages)} de {pages}
            </span>
            <button
              type="button"
              className={iconButtonClass}
              aria-label="Página siguiente"
              disabled={view.page >= pages}
              onClick={() => setView({ page: view.page + 1 })}
            >
              <ChevronRight className="size-5" aria-hidden="true" />
            </button>
          </div>
        </nav>
      ) : null}
    </div>
  );
}

/**
 * TanStack renders a cell function as a component: a screen that builds its columns on each render would give
 * React a new component type each time, remounting every cell (and losing its state, such as an open delete
 * dialog, when a live update re-renders the list). The columns handed to the table keep one function each,
 * which calls the screen's latest one.
 */
function useStableColumns<T>(columns: ColumnDef<T>[]): ColumnDef<T>[] {
  const latest = useRef(columns);
  latest.current = columns;
  const key = columns.map(columnId).join('|');
  // Rebuilt only when the ids change (the set of columns); their renderers are read from `latest`.
  const stable = useRef<{ key: string; columns: ColumnDef<T>[] } | null>(null);
  if (stable.current?.key !== key) {
    stable.current = {
      key,
      columns: columns.map((column, index) => {
        const current = () => latest.current[index] ?? column;
        return {
          ...column,
          id: columnId(column),
          header: (ctx) => {
            const header = current().header;
            return typeof header === 'function' ? header(ctx) : (header ?? null);
          },
          cell: (ctx) => {
            const cell = current().cell;
            if (typeof cell === 'function') return cell(ctx);
            // A column without a renderer shows its value as text, as TanStack's own default cell does.
            return cell ?? (ctx.renderValue() as { toString?(): string } | null)?.toString?.() ?? null;
          },
        } as ColumnDef<T>;
      }),
    };
  }
  return stable.current.columns;
}

/** The search box: the URL follows what is typed after a short pause (and the box follows the URL). */
export function SearchBox({
  id,
  label,
  placeholder,
  value,
  onChange,
}: {
  id: string;
  label: string;
  placeholder: string;
  value: string;
  onChange(value: string): void;
}) {
  const [text, setText] = useState(value);
  const [from, setFrom] = useState(value);
  const navigating = useNavigation().state !== 'idle';
  // The search last handed to `onChange`: when it comes back as `value` (through the URL, a moment later)
  // the box keeps what was typed since, rather than cutting the typing back to it.
  const [sent, setSent] = useState<string | null>(null);
  // The latest handler, so that a re-render (a live update) does not restart the pause.
  const handler = useRef(onChange);
  handler.current = onChange;
  if (from !== value) {
    setFrom(value);
    if (value === sent) setSent(null);
    else setText(value);
  }
  useEffect(() => {
    if (text === value) return;
    // A link clicked during the pause (a result typed for and opened at once) starts a navigation that runs
    // its route's loader before this box is gone: the search written meanwhile would replace it with the
    // list's URL. So nothing is written while a navigation is under way; one that keeps the list (a page, a
    // filter) starts the pause again once it is done.
    if (navigating) return;
    const timer = setTimeout(() => {
      setSent(text);
      handler.current(text);
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, value, navigating]);
  return (
    <div className="min-w-0 sm:flex-1 sm:basis-56">
      <label htmlFor={id} className="block text-sm font-medium text-stone-700">
        {label}
      </label>
      <div className="relative mt-1">
        <Search
          className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-stone-500"
          aria-hidden="true"
        />
        <input
          id={id}
          type="search"
          value={text}
          placeholder={placeholder}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key !== 'Enter') return;
            setSent(text);
            onChange(text);
          }}
          className="block w-full rounded-lg border border-stone-300 bg-white py-2 pl-9 pr-9 text-stone-900 shadow-sm placeholder:text-stone-500 focus:border-amber-700 focus:outline-none focus:ring-2 focus:ring-amber-700/30 [&::-webkit-search-cancel-button]:hidden"
        />
        {text ? (
          <button
            type="button"
            aria-label="Borrar búsqueda"
            onClick={() => {
              setText('');
              onChange('');
            }}
            className="absolute right-1 top-1/2 flex size-8 -translate-y-1/2 items-center justify-center rounded text-stone-600 hover:text-stone-900"
          >
            <X className="size-4" aria-hidden="true" />
          </button>
        ) : null}
      </div>
    </div>
  );
}

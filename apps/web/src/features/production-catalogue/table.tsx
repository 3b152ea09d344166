import { ArrowDown, ArrowUp, ArrowUpDown, Search } from 'lucide-react';
import { useRef, useState, type ReactNode } from 'react';
import { useNavigation, useSearchParams } from 'react-router';
import { inputClass } from '../../components/auth-card';

export interface SortState<K extends string> {
  key: K;
  direction: 'asc' | 'desc';
}

/** The sort a list's URL asks for (`sort=field` or `sort=-field`), when it names one of `keys`. */
export function readSort<K extends string>(params: URLSearchParams, keys: readonly K[], fallback: SortState<K>) {
  const raw = params.get('sort') ?? '';
  const key = raw.replace(/^-/, '');
  if (!(keys as readonly string[]).includes(key)) return fallback;
  return { key: key as K, direction: raw.startsWith('-') ? 'desc' : 'asc' } satisfies SortState<K>;
}

/**
 * A list's view kept in the URL (a reload or a shared link opens the same view): the search, the sort and
 * any filter. Each change replaces the history entry rather than adding one a keystroke. The screen reads
 * its own copy, changed at once: the URL follows after a navigation (the guard's loader runs), and an input
 * bound straight to it would drop keystrokes typed meanwhile. Back and forward bring the URL's view back.
 */
export function useUrlView<K extends string>(keys: readonly K[], fallback: SortState<K>) {
  const [params, setParams] = useSearchParams();
  const navigation = useNavigation();
  const [view, setView] = useState(() => new URLSearchParams(params));
  const written = useRef<string | null>(null);
  const urlKey = params.toString();
  const [seen, setSeen] = useState(urlKey);
  if (urlKey !== seen) {
    setSeen(urlKey);
    if (urlKey !== written.current && navigation.state === 'idle') setView(new URLSearchParams(params));
  }
  const set = (name: string, value: string | null) => {
    const out = new URLSearchParams(view);
    if (value) out.set(name, value);
    else out.delete(name);
    written.current = out.toString();
    setView(out);
    setParams(out, { replace: true });
  };
  return {
    params: view,
    search: view.get('search') ?? '',
    sort: readSort(view, keys, fallback),
    set,
    setSort: (s: SortState<K>) => set('sort', `${s.direction === 'desc' ? '-' : ''}${s.key}`),
  };
}

/** A column header that sorts by its column: a button, with the order announced through aria-sort. */
export function SortHeader<K extends string>({
  label,
  column,
  sort,
  onSort,
  numeric,
  className = '',
}: {
  label: ReactNode;
  column: K;
  sort: SortState<K>;
  onSort: (next: SortState<K>) => void;
  numeric?: boolean;
  className?: string;
}) {
  const active = sort.key === column;
  const Icon = !active ? ArrowUpDown : sort.direction === 'asc' ? ArrowUp : ArrowDown;
  return (
    <th
      scope="col"
      aria-sort={active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'}
      className={`px-1 py-1 font-semibold ${numeric ? 'text-right' : ''} ${className}`}
    >
      <button
        type="button"
        onClick={() => onSort({ key: column, direction: active && sort.direction === 'asc' ? 'desc' : 'asc' })}
        className={`inline-flex items-center gap-1 whitespace-nowrap rounded-md px-2 py-1.5 hover:bg-stone-200/60 focus-visible:outline-2 focus-visible:outline-amber-700 ${numeric ? 'flex-row-reverse' : ''}`}
      >
        {label}
        <Icon className={`size-3.5 ${active ? 'text-stone-900' : 'text-stone-400'}`} aria-hidden="true" />
      </button>
    </th>
  );
}

export function SearchBox({
  id,
  label,
  value,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <div className="w-full max-w-sm">
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <div className="relative">
        <Search
          className="pointer-events-none absolute left-3 top-1/2 mt-0.5 size-4 -translate-y-1/2 text-stone-500"
          aria-hidden="true"
        />
        <input
          id={id}
          type="search"
          value={value}
          placeholder={label}
          onChange={(e) => onChange(e.target.value)}
          className={`${inputClass} pl-9`}
        />
      </div>
    </div>
  );
}

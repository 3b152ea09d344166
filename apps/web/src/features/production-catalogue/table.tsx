import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import {
  changeView,
  readListView,
  toggleSort,
  writeListView,
  type ListView,
  type ListViewConfig,
} from '../../components/data-table/list-url';

/**
 * A list sorted and searched in the browser (its figures are derived, so the server cannot sort by them) with
 * its view kept in the URL the way the kit's tables keep theirs (list-url.ts: `q`, `sort`), so a reload or a
 * shared link opens the same view. `config` must be stable (a module constant).
 */
export function useListView(config: ListViewConfig) {
  const [params, setParams] = useSearchParams();
  const view = readListView(params, config);
  const setView = (change: Partial<ListView>) =>
    setParams(writeListView(changeView(view, change), config, params), { replace: true });
  return { view, setView };
}

/** A column header that sorts by its column: a button, with the order announced through aria-sort. */
export function SortHeader({
  label,
  column,
  view,
  setView,
  numeric,
  className = '',
}: {
  label: ReactNode;
  column: string;
  view: ListView;
  setView: (change: Partial<ListView>) => void;
  numeric?: boolean;
  className?: string;
}) {
  const active = view.sortBy === column;
  const Icon = !active ? ArrowUpDown : view.sortDesc ? ArrowDown : ArrowUp;
  return (
    <th
      scope="col"
      aria-sort={active ? (view.sortDesc ? 'descending' : 'ascending') : 'none'}
      className={`px-1 py-1 font-semibold ${numeric ? 'text-right' : ''} ${className}`}
    >
      <button
        type="button"
        onClick={() => setView(toggleSort(view, column))}
        className={`inline-flex items-center gap-1 whitespace-nowrap rounded-md px-2 py-1.5 hover:bg-stone-200/60 focus-visible:outline-2 focus-visible:outline-amber-700 ${numeric ? 'flex-row-reverse' : ''}`}
      >
        {/* One element: a reversed row (numeric columns) must not reverse the label's own words. */}
        <span>{label}</span>
        <Icon className={`size-3.5 ${active ? 'text-stone-900' : 'text-stone-400'}`} aria-hidden="true" />
      </button>
    </th>
  );
}

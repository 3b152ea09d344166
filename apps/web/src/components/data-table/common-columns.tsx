import type { ColumnDef } from '@tanstack/react-table';
import { Plus } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { Resource } from '../../lib/api/resource-service';
import { AreaPage } from '../area-page';
import { EmptyState } from '../empty-state';
import { buttonClass } from '../ui/button';
import { DataTable, type DataTableProps } from './data-table';
import { RowActions } from './row-actions';
import type { ResourceTable } from './use-resource-table';

/** The columns and the page most lists share: the record's name as a link, its actions, the list screen. */

/** The row's name as the link to its edit screen, with something before it (a thumbnail). Always shown. */
export function nameColumn<T extends Resource>(options: {
  header: string;
  sortField?: string;
  text(row: T): string;
  to(row: T): string;
  leading?(row: T): ReactNode;
}): ColumnDef<T> {
  return {
    id: 'name',
    header: options.header,
    meta: { sortField: options.sortField, fixed: true },
    cell: ({ row }) => (
      <Link
        to={options.to(row.original)}
        className="flex min-w-44 items-center gap-3 font-medium text-stone-900 hover:underline sm:min-w-56"
      >
        {options.leading?.(row.original)}
        <span>{options.text(row.original)}</span>
      </Link>
    ),
  };
}

/** Edit and delete (after a confirmation); the list is read again after a delete. Always shown. */
export function actionsColumn<T extends Resource>(
  table: ResourceTable<T>,
  options: { noun: string; name(row: T): string; editTo(row: T): string },
): ColumnDef<T> {
  return {
    id: 'actions',
    header: () => <span className="sr-only">Acciones</span>,
    meta: { fixed: true, label: 'Acciones' },
    cell: ({ row }) => (
      <RowActions
        name={options.name(row.original)}
        noun={options.noun}
        editTo={options.editTo(row.original)}
        onDelete={async () => {
          // The row goes at once (the list store); the page is then read again to fill its place.
          await table.store?.getState().remove(row.original.id);
          table.reload();
        }}
      />
    ),
  };
}

export interface ResourceListPageProps<T extends Resource> extends Omit<DataTableProps<T>, 'empty' | 'label'> {
  title: string;
  createTo: string;
  createLabel: string;
  /** The empty state when there is nothing at all yet: a title and a line on what to do. */
  emptyTitle: string;
  emptyText: ReactNode;
}

/** A list screen: its title with the create button, and the table (whose empty state offers the same button). */
export function ResourceListPage<T extends Resource>({
  title,
  createTo,
  createLabel,
  emptyTitle,
  emptyText,
  ...table
}: ResourceListPageProps<T>) {
  const create = (
    <Link to={createTo} className={buttonClass}>
      <Plus className="size-4" aria-hidden="true" />
      {createLabel}
    </Link>
  );
  return (
    <AreaPage title={title} actions={create}>
      <DataTable
        {...table}
        label={title}
        empty={
          <EmptyState title={emptyTitle} action={create}>
            <p>{emptyText}</p>
          </EmptyState>
        }
      />
    </AreaPage>
  );
}

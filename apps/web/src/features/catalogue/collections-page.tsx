import type { ProductCollection } from '@hornada/domain/schemas/catalogue';
import type { ColumnDef } from '@tanstack/react-table';
import { ArrowDown, ArrowUp, Plus } from 'lucide-react';
import { Link } from 'react-router';
import { AreaPage } from '../../components/area-page';
import { DataTable } from '../../components/data-table/data-table';
import { isNarrowed, type ListViewConfig } from '../../components/data-table/list-url';
import { RowActions } from '../../components/data-table/row-actions';
import { useResourceTable, type ResourceTable } from '../../components/data-table/use-resource-table';
import { EmptyState } from '../../components/empty-state';
import { buttonClass, iconButtonClass } from '../../components/ui/button';
import { ApiError } from '../../lib/http';
import { toastStore } from '../../lib/toast-store';
import { paths } from '../../config/paths';
import { ACTIVE_FILTER } from './catalogue-options';
import { ActiveChip } from './active-chip';
import { moveAndRenumber } from './reorder';
import { Thumb } from './images';

/** The shop shows collections by their order: so does this list, unless asked otherwise. */
const CONFIG: ListViewConfig = {
  sortFields: ['createdAt', 'updatedAt', 'name', 'sortOrder'],
  filterKeys: ['active'],
  defaults: { sortBy: 'sortOrder', sortDesc: false },
};

function columns(table: ResourceTable<ProductCollection>): ColumnDef<ProductCollection>[] {
  return [
    {
      id: 'name',
      header: 'Colección',
      meta: { sortField: 'name', fixed: true },
      cell: ({ row }) => (
        <Link
          to={paths.dashboard.productCollectionUpdate(row.original.id)}
          className="flex items-center gap-3 font-medium text-stone-900 hover:underline"
        >
          <Thumb image={row.original.image} />
          <span>{row.original.name}</span>
        </Link>
      ),
    },
    {
      id: 'active',
      header: 'Estado',
      meta: { hideOnPhone: true },
      cell: ({ row }) => <ActiveChip active={row.original.active} />,
    },
    {
      id: 'sortOrder',
      header: 'Orden',
      meta: { sortField: 'sortOrder', align: 'right' },
      cell: ({ row }) =>
        reorderable(table) ? <OrderButtons table={table} collection={row.original} /> : row.original.sortOrder,
    },
    {
      id: 'description',
      header: 'Descripción',
      meta: { hideOnPhone: true },
      cell: ({ row }) => <span className="line-clamp-2 max-w-md text-stone-700">{row.original.description}</span>,
    },
    {
      id: 'actions',
      header: () => <span className="sr-only">Acciones</span>,
      meta: { fixed: true, label: 'Acciones' },
      cell: ({ row }) => (
        <RowActions
          name={row.original.name}
          noun="la colección"
          editTo={paths.dashboard.productCollectionUpdate(row.original.id)}
          onDelete={async () => {
            await table.store?.getState().remove(row.original.id);
            table.reload();
          }}
        />
      ),
    },
  ];
}

/** Moving rows makes sense only in the shop's own order, over the whole list. */
const reorderable = (table: ResourceTable<ProductCollection>) =>
  table.view.sortBy === 'sortOrder' && !table.view.sortDesc && !isNarrowed(table.view);

/** Up and down: the collection changes places with its neighbour in the shop (every collection renumbered). */
function OrderButtons({
  table,
  collection,
}: {
  table: ResourceTable<ProductCollection>;
  collection: ProductCollection;
}) {
  const index = (table.view.page - 1) * table.view.perPage + table.items.findIndex((c) => c.id === collection.id);
  const move = async (by: -1 | 1) => {
    if (!table.service) return;
    try {
      const all = await table.service.list({
        pagination: { page: 1, perPage: 1000 },
        sort: { field: 'sortOrder', direction: 'asc' },
      });
      const updates = moveAndRenumber(all.items, collection.id, by);
      if (updates.length) await table.service.bulkPatch(updates);
      table.reload();
    } catch (err) {
      toastStore.getState().show({
        type: 'error',
        message: err instanceof ApiError ? err.userMessage : 'No pudimos cambiar el orden. Intenta de nuevo.',
      });
    }
  };
  return (
    <span className="inline-flex items-center gap-1">
      <span className="w-6 text-right tabular-nums">{collection.sortOrder}</span>
      <button
        type="button"
        className={iconButtonClass}
        aria-label={`Subir «${collection.name}»`}
        disabled={index <= 0}
        onClick={() => void move(-1)}
      >
        <ArrowUp className="size-4" aria-hidden="true" />
      </button>
      <button
        type="button"
        className={iconButtonClass}
        aria-label={`Bajar «${collection.name}»`}
        disabled={index >= table.total - 1}
        onClick={() => void move(1)}
      >
        <ArrowDown className="size-4" aria-hidden="true" />
      </button>
    </span>
  );
}

/** Dashboard › Colecciones: the sections of the shop, in their order. */
export function Component() {
  const table = useResourceTable<ProductCollection>('productCollections', CONFIG);
  const create = (
    <Link to={paths.dashboard.productCollectionCreate} className={buttonClass}>
      <Plus className="size-4" aria-hidden="true" />
      Nueva colección
    </Link>
  );
  return (
    <AreaPage title="Colecciones" actions={create}>
      <DataTable
        id="product-collections"
        label="Colecciones"
        table={table}
        columns={columns(table)}
        searchLabel="Buscar colecciones"
        searchPlaceholder="Nombre o descripción"
        filters={[ACTIVE_FILTER]}
        empty={
          <EmptyState title="Aún no hay colecciones." action={create}>
            <p>Cada colección es una sección de la tienda, por ejemplo «Panes» o «Tortas».</p>
          </EmptyState>
        }
      />
    </AreaPage>
  );
}

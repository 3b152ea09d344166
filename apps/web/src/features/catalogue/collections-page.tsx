import type { ProductCollection } from '@hornada/domain/schemas/catalogue';
import type { ColumnDef } from '@tanstack/react-table';
import { ArrowDown, ArrowUp } from 'lucide-react';
import { actionsColumn, nameColumn, ResourceListPage } from '../../components/data-table/common-columns';
import { isNarrowed, type ListViewConfig } from '../../components/data-table/list-url';
import {
  tableLoader,
  useResourceTable,
  type ResourceTable,
  type TableDef,
} from '../../components/data-table/use-resource-table';
import { iconButtonClass } from '../../components/ui/button';
import { ApiError } from '../../lib/api/http';
import { toastStore } from '../../lib/toast-store';
import { paths } from '../../config/paths';
import { ACTIVE_FILTER } from './catalogue-options';
import { activeColumn } from '../../components/active-chip';
import { moveAndRenumber } from './reorder';
import { Thumb } from '../../components/forms/image-fields';

/** The shop shows collections by their order: so does this list, unless asked otherwise. */
const CONFIG: ListViewConfig = {
  sortFields: ['createdAt', 'updatedAt', 'name', 'sortOrder'],
  filterKeys: ['active'],
  defaults: { sortBy: 'sortOrder', sortDesc: false },
};
const TABLE: TableDef = { resource: 'productCollections', config: CONFIG };

/** The page the address asks for. */
export const loader = tableLoader<ProductCollection>(TABLE);

const editTo = (c: ProductCollection) => paths.dashboard.productCollectionUpdate(c.id);

function columns(table: ResourceTable<ProductCollection>): ColumnDef<ProductCollection>[] {
  return [
    nameColumn<ProductCollection>({
      header: 'Colección',
      sortField: 'name',
      text: (c) => c.name,
      to: editTo,
      leading: (c) => <Thumb image={c.image} />,
    }),
    activeColumn<ProductCollection>(),
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
    actionsColumn(table, { noun: 'la colección', name: (c) => c.name, editTo }),
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
  const table = useResourceTable(TABLE, loader);
  return (
    <ResourceListPage
      id="product-collections"
      title="Colecciones"
      createTo={paths.dashboard.productCollectionCreate}
      createLabel="Nueva colección"
      table={table}
      columns={columns(table)}
      searchLabel="Buscar colecciones"
      searchPlaceholder="Nombre o descripción"
      filters={[ACTIVE_FILTER]}
      emptyTitle="Aún no hay colecciones."
      emptyText="Cada colección es una sección de la tienda, por ejemplo «Panes» o «Tortas»."
    />
  );
}

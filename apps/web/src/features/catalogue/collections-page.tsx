import type { ProductCollection } from '@hornada/domain/schemas/catalogue';
import type { ColumnDef } from '@tanstack/react-table';
import { Plus } from 'lucide-react';
import { Link } from 'react-router';
import { AreaPage } from '../../components/area-page';
import { DataTable } from '../../components/data-table/data-table';
import type { ListViewConfig } from '../../components/data-table/list-url';
import { RowActions } from '../../components/data-table/row-actions';
import { useResourceTable, type ResourceTable } from '../../components/data-table/use-resource-table';
import { EmptyState } from '../../components/empty-state';
import { buttonClass } from '../../components/ui/button';
import { paths } from '../../config/paths';
import { ACTIVE_FILTER } from './catalogue-options';
import { ActiveChip } from './active-chip';
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
      cell: ({ row }) => <ActiveChip active={row.original.active} />,
    },
    {
      id: 'sortOrder',
      header: 'Orden',
      meta: { sortField: 'sortOrder', align: 'right' },
      cell: ({ row }) => row.original.sortOrder,
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

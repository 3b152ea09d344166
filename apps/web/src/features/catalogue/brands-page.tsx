import type { Brand } from '@hornada/domain/schemas/catalogue';
import { formatDay } from '@hornada/domain/format';
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
import { Thumb } from './images';

const CONFIG: ListViewConfig = {
  sortFields: ['createdAt', 'updatedAt', 'name'],
  defaults: { sortBy: 'name', sortDesc: false },
};

function columns(table: ResourceTable<Brand>): ColumnDef<Brand>[] {
  return [
    {
      id: 'name',
      header: 'Marca',
      meta: { sortField: 'name', fixed: true },
      cell: ({ row }) => (
        <Link
          to={paths.dashboard.brandUpdate(row.original.id)}
          className="flex items-center gap-3 font-medium text-stone-900 hover:underline"
        >
          <Thumb image={row.original.logo} />
          <span>{row.original.name}</span>
        </Link>
      ),
    },
    {
      id: 'description',
      header: 'Descripción',
      meta: { hideOnPhone: true },
      cell: ({ row }) => <span className="line-clamp-2 max-w-md text-stone-700">{row.original.description}</span>,
    },
    {
      id: 'updatedAt',
      header: 'Última edición',
      meta: { sortField: 'updatedAt', hideOnPhone: true },
      cell: ({ row }) => <span className="whitespace-nowrap">{formatDay(row.original.updatedAt)}</span>,
    },
    {
      id: 'actions',
      header: () => <span className="sr-only">Acciones</span>,
      meta: { fixed: true, label: 'Acciones' },
      cell: ({ row }) => (
        <RowActions
          name={row.original.name}
          noun="la marca"
          editTo={paths.dashboard.brandUpdate(row.original.id)}
          onDelete={async () => {
            await table.store?.getState().remove(row.original.id);
            table.reload();
          }}
        />
      ),
    },
  ];
}

/** Dashboard › Marcas: the bakery's brands (its own lines, the ones it resells). */
export function Component() {
  const table = useResourceTable<Brand>('brands', CONFIG);
  const create = (
    <Link to={paths.dashboard.brandCreate} className={buttonClass}>
      <Plus className="size-4" aria-hidden="true" />
      Nueva marca
    </Link>
  );
  return (
    <AreaPage title="Marcas" actions={create}>
      <DataTable
        id="brands"
        label="Marcas"
        table={table}
        columns={columns(table)}
        searchLabel="Buscar marcas"
        searchPlaceholder="Nombre o descripción"
        empty={
          <EmptyState title="Aún no hay marcas." action={create}>
            <p>Las marcas agrupan tus productos en la tienda, por ejemplo tu línea artesanal.</p>
          </EmptyState>
        }
      />
    </AreaPage>
  );
}

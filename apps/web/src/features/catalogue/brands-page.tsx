import type { Brand } from '@hornada/domain/schemas/catalogue';
import { formatDay } from '@hornada/domain/format';
import type { ColumnDef } from '@tanstack/react-table';
import { actionsColumn, nameColumn, ResourceListPage } from '../../components/data-table/common-columns';
import type { ListViewConfig } from '../../components/data-table/list-url';
import {
  tableLoader,
  useResourceTable,
  type ResourceTable,
  type TableDef,
} from '../../components/data-table/use-resource-table';
import { paths } from '../../config/paths';
import { Thumb } from '../../components/forms/image-fields';

const CONFIG: ListViewConfig = {
  sortFields: ['createdAt', 'updatedAt', 'name'],
  defaults: { sortBy: 'name', sortDesc: false },
};
const TABLE: TableDef = { resource: 'brands', config: CONFIG };

/** The page of brands the address asks for. */
export const loader = tableLoader<Brand>(TABLE);

const editTo = (brand: Brand) => paths.dashboard.brandUpdate(brand.id);

function columns(table: ResourceTable<Brand>): ColumnDef<Brand>[] {
  return [
    nameColumn<Brand>({
      header: 'Marca',
      sortField: 'name',
      text: (b) => b.name,
      to: editTo,
      leading: (b) => <Thumb image={b.logo} />,
    }),
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
    actionsColumn(table, { noun: 'la marca', name: (b) => b.name, editTo }),
  ];
}

/** Dashboard › Marcas: the bakery's brands (its own lines, the ones it resells). */
export function Component() {
  const table = useResourceTable(TABLE, loader);
  return (
    <ResourceListPage
      id="brands"
      title="Marcas"
      createTo={paths.dashboard.brandCreate}
      createLabel="Nueva marca"
      table={table}
      columns={columns(table)}
      searchLabel="Buscar marcas"
      searchPlaceholder="Nombre o descripción"
      emptyTitle="Aún no hay marcas."
      emptyText="Las marcas agrupan tus productos en la tienda, por ejemplo tu línea artesanal."
    />
  );
}

import type { Product } from '@hornada/domain/schemas/catalogue';
import { formatDay, formatMoney } from '@hornada/domain/format';
import type { ColumnDef } from '@tanstack/react-table';
import { actionsColumn, nameColumn, ResourceListPage } from '../../components/data-table/common-columns';
import type { TableFilter } from '../../components/data-table/data-table';
import type { ListViewConfig } from '../../components/data-table/list-url';
import {
  readTablePage,
  useResourceTable,
  type ResourceTable,
  type TableDef,
} from '../../components/data-table/use-resource-table';
import { readForScreen } from '../../lib/api/screen-read';
import { paths } from '../../config/paths';
import { activeColumn } from '../../components/active-chip';
import { ACTIVE_FILTER, optionLabel, readOptions, type Option } from './catalogue-options';
import { Thumb } from '../../components/forms/image-fields';

const CONFIG: ListViewConfig = {
  sortFields: ['createdAt', 'updatedAt', 'name', 'price', 'sortOrder'],
  filterKeys: ['active', 'collectionId', 'brandId'],
};
// A renamed collection or brand shows in its filter and cells.
const TABLE: TableDef = { resource: 'products', config: CONFIG, follows: ['productCollections', 'brands'] };

/** The page of products the address asks for, and the collections and brands its filters offer. */
export const loader = ({ request }: { request: Request }) =>
  readForScreen(async (companyId) => {
    const [page, collections, brands] = await Promise.all([
      readTablePage<Product>(TABLE, request, companyId),
      readOptions('productCollections', companyId),
      readOptions('brands', companyId),
    ]);
    return { page, collections, brands };
  });

const editTo = (product: Product) => paths.dashboard.productUpdate(product.id);

function columns(table: ResourceTable<Product>, collections: readonly Option[]): ColumnDef<Product>[] {
  return [
    nameColumn<Product>({
      header: 'Producto',
      sortField: 'name',
      text: (p) => p.name,
      to: editTo,
      leading: (p) => <Thumb image={p.images[0]} />,
    }),
    {
      id: 'price',
      header: 'Precio',
      meta: { sortField: 'price', align: 'right' },
      cell: ({ row }) => formatMoney(row.original.price),
    },
    {
      id: 'b2bPrice',
      header: 'Precio mayorista',
      meta: { hideOnPhone: true, align: 'right' },
      cell: ({ row }) => (row.original.b2bPrice === null ? '—' : formatMoney(row.original.b2bPrice)),
    },
    {
      id: 'collection',
      header: 'Colección',
      meta: { hideOnPhone: true },
      cell: ({ row }) => optionLabel(collections, row.original.collectionId) || '—',
    },
    activeColumn<Product>(),
    {
      id: 'sortOrder',
      header: 'Orden',
      meta: { sortField: 'sortOrder', hideOnPhone: true, align: 'right' },
      cell: ({ row }) => row.original.sortOrder,
    },
    {
      id: 'updatedAt',
      header: 'Última edición',
      meta: { sortField: 'updatedAt', hideOnPhone: true },
      cell: ({ row }) => <span className="whitespace-nowrap">{formatDay(row.original.updatedAt)}</span>,
    },
    actionsColumn(table, { noun: 'el producto', name: (p) => p.name, editTo }),
  ];
}

/** Dashboard › Productos: the catalogue, searched, sorted, filtered and paged by the server; live. */
export function Component() {
  const table = useResourceTable(TABLE, loader);
  const { collections = [], brands = [] } = table.data ?? {};
  const filters: TableFilter[] = [
    ACTIVE_FILTER,
    { key: 'collectionId', label: 'Colección', options: collections },
    { key: 'brandId', label: 'Marca', options: brands },
  ];
  return (
    <ResourceListPage
      id="products"
      title="Productos"
      createTo={paths.dashboard.productCreate}
      createLabel="Nuevo producto"
      table={table}
      columns={columns(table, collections)}
      searchLabel="Buscar productos"
      searchPlaceholder="Nombre o descripción"
      filters={filters}
      emptyTitle="Aún no hay productos."
      emptyText="Crea tu primer producto con su precio y una foto: aparecerá en la tienda al guardarlo."
    />
  );
}

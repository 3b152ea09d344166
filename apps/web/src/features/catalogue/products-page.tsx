import type { Product } from '@hornada/domain/schemas/catalogue';
import { formatDay, formatMoney } from '@hornada/domain/format';
import type { ColumnDef } from '@tanstack/react-table';
import { Plus } from 'lucide-react';
import { Link } from 'react-router';
import { AreaPage } from '../../components/area-page';
import { DataTable, type TableFilter } from '../../components/data-table/data-table';
import type { ListViewConfig } from '../../components/data-table/list-url';
import { RowActions } from '../../components/data-table/row-actions';
import { useResourceTable, type ResourceTable } from '../../components/data-table/use-resource-table';
import { EmptyState } from '../../components/empty-state';
import { buttonClass } from '../../components/ui/button';
import { paths } from '../../config/paths';
import { ActiveChip } from './active-chip';
import { ACTIVE_FILTER, optionLabel, useOptions, type Option } from './catalogue-options';
import { Thumb } from './images';

const CONFIG: ListViewConfig = {
  sortFields: ['createdAt', 'updatedAt', 'name', 'price', 'sortOrder'],
  filterKeys: ['active', 'collectionId', 'brandId'],
};

function columns(table: ResourceTable<Product>, collections: readonly Option[]): ColumnDef<Product>[] {
  return [
    {
      id: 'name',
      header: 'Producto',
      meta: { sortField: 'name', fixed: true },
      cell: ({ row }) => (
        <Link
          to={paths.dashboard.productUpdate(row.original.id)}
          className="flex min-w-44 items-center sm:min-w-56 gap-3 font-medium text-stone-900 hover:underline"
        >
          <Thumb image={row.original.images[0]} />
          <span>{row.original.name}</span>
        </Link>
      ),
    },
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
    {
      id: 'active',
      header: 'Estado',
      meta: { hideOnPhone: true },
      cell: ({ row }) => <ActiveChip active={row.original.active} />,
    },
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
    {
      id: 'actions',
      header: () => <span className="sr-only">Acciones</span>,
      meta: { fixed: true, label: 'Acciones' },
      cell: ({ row }) => (
        <RowActions
          name={row.original.name}
          noun="el producto"
          editTo={paths.dashboard.productUpdate(row.original.id)}
          onDelete={async () => {
            await table.store?.getState().remove(row.original.id);
            table.reload();
          }}
        />
      ),
    },
  ];
}

/** Dashboard › Productos: the catalogue, searched, sorted, filtered and paged by the server; live. */
export function Component() {
  const table = useResourceTable<Product>('products', CONFIG);
  const collections = useOptions('productCollections', table.companyId);
  const brands = useOptions('brands', table.companyId);
  const filters: TableFilter[] = [
    ACTIVE_FILTER,
    { key: 'collectionId', label: 'Colección', options: collections },
    { key: 'brandId', label: 'Marca', options: brands },
  ];
  const create = (
    <Link to={paths.dashboard.productCreate} className={buttonClass}>
      <Plus className="size-4" aria-hidden="true" />
      Nuevo producto
    </Link>
  );
  return (
    <AreaPage title="Productos" actions={create}>
      <DataTable
        id="products"
        label="Productos"
        table={table}
        columns={columns(table, collections)}
        searchLabel="Buscar productos"
        searchPlaceholder="Nombre o descripción"
        filters={filters}
        empty={
          <EmptyState title="Aún no hay productos." action={create}>
            <p>Crea tu primer producto con su precio y una foto: aparecerá en la tienda al guardarlo.</p>
          </EmptyState>
        }
      />
    </AreaPage>
  );
}

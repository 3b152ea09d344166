import { UNITS } from '@hornada/domain/constants';
import { formatAmount } from '@hornada/domain/format';
import type { ColumnDef } from '@tanstack/react-table';
import { AlertTriangle, Plus } from 'lucide-react';
import { Link } from 'react-router';
import { AreaPage } from '../../components/area-page';
import { DataTable, type TableFilter } from '../../components/data-table/data-table';
import type { ListViewConfig } from '../../components/data-table/list-url';
import { actionsColumn } from '../../components/data-table/common-columns';
import {
  tableLoader,
  useResourceTable,
  type ResourceTable,
  type TableDef,
} from '../../components/data-table/use-resource-table';
import { EmptyState } from '../../components/empty-state';
import { buttonClass } from '../../components/ui/button';
import { paths } from '../../config/paths';
import { UNIT_LABELS, UNIT_NAMES, type Ingredient } from './api';
import { unitCost } from './ui';

/** Low stock: at or under its minimum, when it has one. */
export const isLowStock = (i: Pick<Ingredient, 'stock' | 'minStock'>): boolean =>
  i.minStock > 0 && i.stock <= i.minStock;

/** The server's sort and filter fields for ingredients (apps/server/src/resources/definitions/ingredients.ts). */
const CONFIG: ListViewConfig = {
  sortFields: ['createdAt', 'updatedAt', 'name', 'costPerUnit', 'stock', 'supplier'],
  filterKeys: ['unit', 'lowStock'],
  defaults: { sortBy: 'name', sortDesc: false },
};
const TABLE: TableDef = { resource: 'ingredients', config: CONFIG };

/** The page the address asks for. */
export const loader = tableLoader<Ingredient>(TABLE);

const FILTERS: readonly TableFilter[] = [
  { key: 'unit', label: 'Unidad', options: UNITS.map((u) => ({ value: u, label: UNIT_NAMES[u] })) },
  // The server's `lowStock`: at or under the minimum, the same rule as isLowStock (what to buy).
  { key: 'lowStock', label: 'Existencias', options: [{ value: 'true', label: 'Bajo el mínimo' }] },
];

function columns(table: ResourceTable<Ingredient>): ColumnDef<Ingredient>[] {
  return [
    {
      id: 'name',
      header: 'Ingrediente',
      meta: { sortField: 'name', fixed: true },
      cell: ({ row }) => (
        <Link
          to={paths.dashboard.ingredientUpdate(row.original.id)}
          className="font-medium text-stone-900 hover:underline"
        >
          {row.original.name}
        </Link>
      ),
    },
    {
      id: 'costPerUnit',
      header: 'Costo',
      meta: { sortField: 'costPerUnit', align: 'right' },
      cell: ({ row }) => (
        <span className="whitespace-nowrap tabular-nums">
          {unitCost(row.original.costPerUnit)}{' '}
          <span className="text-stone-600">/ {UNIT_LABELS[row.original.unit]}</span>
        </span>
      ),
    },
    {
      id: 'stock',
      header: 'Existencias',
      meta: { sortField: 'stock', align: 'right', fixed: true },
      cell: ({ row }) => {
        const i = row.original;
        const low = isLowStock(i);
        return (
          <span className="whitespace-nowrap tabular-nums" data-testid="ingredient-stock">
            <span className={low ? 'font-semibold text-red-800' : ''}>{formatAmount(i.stock, i.unit)}</span>
            {low ? (
              <span className="mt-1 flex items-center justify-end gap-1 text-xs font-medium text-red-800">
                <AlertTriangle className="size-3.5" aria-hidden="true" />
                Existencias bajas
              </span>
            ) : null}
          </span>
        );
      },
    },
    {
      id: 'minStock',
      header: 'Mínimo',
      meta: { align: 'right', hideOnPhone: true },
      cell: ({ row }) => (
        <span className="whitespace-nowrap tabular-nums text-stone-700">
          {formatAmount(row.original.minStock, row.original.unit)}
        </span>
      ),
    },
    {
      id: 'supplier',
      header: 'Proveedor',
      meta: { sortField: 'supplier', hideOnPhone: true },
      cell: ({ row }) => row.original.supplier ?? '—',
    },
    actionsColumn(table, {
      noun: 'el ingrediente',
      name: (i) => i.name,
      editTo: (i) => paths.dashboard.ingredientUpdate(i.id),
    }),
  ];
}

/**
 * Dashboard › Ingredientes (docs/design.md §6): cost per unit, stock against its minimum (low stock marked),
 * supplier. The server searches (name, supplier), sorts, filters by unit and by low stock, and pages; the view stays in the
 * URL and the list follows the shared stream.
 */
export function Component() {
  const table = useResourceTable(TABLE, loader);
  const create = (
    <Link to={paths.dashboard.ingredientCreate} className={buttonClass}>
      <Plus className="size-4" aria-hidden="true" />
      Nuevo ingrediente
    </Link>
  );
  return (
    <AreaPage title="Ingredientes" actions={create}>
      <DataTable
        id="ingredients"
        label="Ingredientes"
        table={table}
        columns={columns(table)}
        searchLabel="Buscar ingredientes"
        searchPlaceholder="Nombre o proveedor"
        filters={FILTERS}
        empty={
          <EmptyState title="Aún no hay ingredientes." action={create}>
            <p>Registra tus ingredientes con su costo para calcular el costo de cada receta.</p>
          </EmptyState>
        }
      />
    </AreaPage>
  );
}

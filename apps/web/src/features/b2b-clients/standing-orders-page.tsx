import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { activeColumn } from '../../components/active-chip';
import { AreaPage } from '../../components/area-page';
import { DataTable, type TableFilter } from '../../components/data-table/data-table';
import type { ListViewConfig } from '../../components/data-table/list-url';
import { readTablePage, useResourceTable, type TableDef } from '../../components/data-table/use-resource-table';
import { records } from '../../lib/api/endpoints';
import { readForScreen } from '../../lib/api/screen-read';
import { b2bApi } from './api';
import { b2bLinks } from './links';
import { dayText, WEEKDAYS } from './standing-orders-section';
import type { StandingOrder } from './standing-api';

const CONFIG: ListViewConfig = {
  sortFields: ['createdAt', 'updatedAt', 'startsOn'],
  filterKeys: ['active'],
  defaults: { sortBy: 'createdAt', sortDesc: true },
};
// A client or a product renamed shows in the rows.
const TABLE: TableDef = { resource: 'standingOrders', config: CONFIG, follows: ['b2bClients', 'products'] };

/**
 * The page of standing orders the address asks for, with the names of the clients and products they name (a
 * name that cannot be read shows as "Cliente" or "Producto": the list still shows).
 */
export const loader = ({ request }: { request: Request }) =>
  readForScreen(async (companyId) => {
    const [page, clients, products] = await Promise.all([
      readTablePage<StandingOrder>(TABLE, request, companyId),
      records(companyId, 'b2bClients')
        .every({ sort: 'businessName' }, request.signal)
        .then((list) => new Map(list.map((c) => [c.id, c.businessName])))
        .catch(() => new Map<string, string>()),
      b2bApi
        .products(companyId, request.signal)
        .then((list) => new Map(list.map((p) => [p.id, p.name])))
        .catch(() => new Map<string, string>()),
    ]);
    return { page, clients, products };
  });

const NO_NAMES = new Map<string, string>();

const ACTIVE_FILTER: TableFilter = {
  key: 'active',
  label: 'Estado',
  options: [
    { value: 'true', label: 'Activos' },
    { value: 'false', label: 'Pausados' },
  ],
};

/** Dashboard › Pedidos recurrentes: every client's standing orders, each linking to its client's page. */
export function Component() {
  const table = useResourceTable(TABLE, loader);
  const clients = table.data?.clients ?? NO_NAMES;
  const products = table.data?.products ?? NO_NAMES;
  const columns = useMemo<ColumnDef<StandingOrder>[]>(
    () => [
      {
        id: 'client',
        header: 'Cliente',
        meta: { fixed: true },
        cell: ({ row }) => (
          <Link to={b2bLinks.client(row.original.b2bClientId)} className="font-medium text-stone-900 hover:underline">
            {clients.get(row.original.b2bClientId) ?? 'Cliente'}
          </Link>
        ),
      },
      {
        id: 'weekdays',
        header: 'Días',
        cell: ({ row }) =>
          WEEKDAYS.filter(([d]) => row.original.weekdays.includes(d))
            .map(([, label]) => label.slice(0, 3))
            .join(', '),
      },
      {
        id: 'items',
        header: 'Productos',
        meta: { hideOnPhone: true },
        cell: ({ row }) =>
          row.original.items.map((i) => `${i.quantity} × ${products.get(i.productId) ?? 'Producto'}`).join(' · '),
      },
      {
        id: 'startsOn',
        header: 'Desde',
        meta: { sortField: 'startsOn', hideOnPhone: true },
        cell: ({ row }) => (
          <span className="whitespace-nowrap">
            {dayText(row.original.startsOn)}
            {row.original.endsOn ? ` – ${dayText(row.original.endsOn)}` : ''}
          </span>
        ),
      },
      activeColumn<StandingOrder>(),
    ],
    [clients, products],
  );
  return (
    <AreaPage title="Pedidos recurrentes">
      <DataTable
        id="standing-orders"
        label="Pedidos recurrentes"
        table={table}
        columns={columns}
        searchLabel="Buscar en las notas"
        searchPlaceholder="Notas del pedido recurrente"
        filters={[ACTIVE_FILTER]}
        empty={
          <p className="text-stone-700">
            Aún no hay pedidos recurrentes. Créalos en la página de cada{' '}
            <Link to={b2bLinks.list} className="text-amber-900 underline">
              cliente mayorista
            </Link>
            .
          </p>
        }
      />
    </AreaPage>
  );
}

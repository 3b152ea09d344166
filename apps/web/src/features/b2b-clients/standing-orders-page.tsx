import { MAX_PER_PAGE } from '@hornada/domain/constants';
import type { ColumnDef } from '@tanstack/react-table';
import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { activeColumn } from '../../components/active-chip';
import { AreaPage } from '../../components/area-page';
import { DataTable, type TableFilter } from '../../components/data-table/data-table';
import type { ListViewConfig } from '../../components/data-table/list-url';
import { useResourceTable } from '../../components/data-table/use-resource-table';
import { http } from '../../lib/api/http';
import { companyPath } from '../../lib/api/paths';
import { b2bApi, type B2bClient, type Product } from './api';
import { b2bLinks } from './links';
import { dayText, WEEKDAYS } from './standing-orders-section';
import type { StandingOrder } from './standing-api';

const CONFIG: ListViewConfig = {
  sortFields: ['createdAt', 'updatedAt', 'startsOn'],
  filterKeys: ['active'],
  defaults: { sortBy: 'createdAt', sortDesc: true },
};

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
  const table = useResourceTable<StandingOrder>('standingOrders', CONFIG);
  const [clients, setClients] = useState<Map<string, string>>(new Map());
  const [products, setProducts] = useState<Map<string, string>>(new Map());
  const companyId = table.companyId;
  useEffect(() => {
    if (!companyId) return;
    const controller = new AbortController();
    http
      .list<B2bClient>(companyPath(companyId, 'b2bClients'), {
        query: { per_page: MAX_PER_PAGE, sort: 'businessName' },
        signal: controller.signal,
      })
      .then(
        (r) => setClients(new Map(r.items.map((c) => [c.id, c.businessName]))),
        () => undefined,
      );
    b2bApi.products(companyId, controller.signal).then(
      (list: Product[]) => setProducts(new Map(list.map((p) => [p.id, p.name]))),
      () => undefined,
    );
    return () => controller.abort();
  }, [companyId]);
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

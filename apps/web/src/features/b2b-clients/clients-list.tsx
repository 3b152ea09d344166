import { formatMoney } from '@hornada/domain/format';
import type { ColumnDef } from '@tanstack/react-table';
import { activeColumn } from '../../components/active-chip';
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
import { b2bApi, type B2bClient } from './api';
import { b2bLinks } from './links';

const CONFIG: ListViewConfig = {
  sortFields: ['createdAt', 'updatedAt', 'businessName', 'paymentTermsDays'],
  filterKeys: ['active'],
  defaults: { sortBy: 'businessName', sortDesc: false },
};
// What a client owes changes with its orders.
const TABLE: TableDef = { resource: 'b2bClients', config: CONFIG, follows: ['orders'] };

/**
 * The page of clients the address asks for, with the balances owed (null when they cannot be read: the list
 * still shows, its balances as "…").
 */
export const clientsLoader = ({ request }: { request: Request }) =>
  readForScreen(async (companyId) => {
    const [page, balances] = await Promise.all([
      readTablePage<B2bClient>(TABLE, request, companyId),
      b2bApi.balances(companyId, request.signal).catch(() => null),
    ]);
    return { page, balances };
  });

const ACTIVE_FILTER: TableFilter = {
  key: 'active',
  label: 'Estado',
  options: [
    { value: 'true', label: 'Activos' },
    { value: 'false', label: 'Inactivos' },
  ],
};

const editTo = (c: B2bClient) => b2bLinks.client(c.id);

function columns(table: ResourceTable<B2bClient>, balances: Map<string, number> | null): ColumnDef<B2bClient>[] {
  return [
    nameColumn<B2bClient>({ header: 'Cliente', sortField: 'businessName', text: (c) => c.businessName, to: editTo }),
    {
      id: 'taxId',
      header: 'NIT',
      meta: { hideOnPhone: true },
      cell: ({ row }) => <span className="whitespace-nowrap">{row.original.taxId ?? '—'}</span>,
    },
    {
      id: 'contact',
      header: 'Contacto',
      meta: { hideOnPhone: true },
      cell: ({ row }) => (
        <span>
          {row.original.contactName ?? '—'}
          {row.original.phone ? <span className="block text-stone-600">{row.original.phone}</span> : null}
        </span>
      ),
    },
    {
      id: 'paymentTermsDays',
      header: 'Plazo',
      meta: { sortField: 'paymentTermsDays', hideOnPhone: true, align: 'right' },
      cell: ({ row }) => (row.original.paymentTermsDays === 0 ? 'De contado' : `${row.original.paymentTermsDays} días`),
    },
    {
      id: 'balance',
      header: 'Saldo',
      meta: { align: 'right' },
      cell: ({ row }) => (balances ? formatMoney(balances.get(row.original.id) ?? 0) : '…'),
    },
    activeColumn<B2bClient>(),
    actionsColumn(table, { noun: 'el cliente', name: (c) => c.businessName, editTo }),
  ];
}

/** The bakery's wholesale clients: searched, filtered by status, with what each owes now; live. */
export function ClientsList() {
  const table = useResourceTable(TABLE, clientsLoader);
  const balances = table.data?.balances ?? null;
  return (
    <ResourceListPage
      id="b2b-clients"
      title="Clientes mayoristas"
      createTo={b2bLinks.create}
      createLabel="Nuevo cliente"
      table={table}
      columns={columns(table, balances)}
      searchLabel="Buscar clientes mayoristas"
      searchPlaceholder="Razón social, contacto, NIT o correo"
      filters={[ACTIVE_FILTER]}
      emptyTitle="Aún no hay clientes mayoristas."
      emptyText="Registra un café, hotel o tienda con su NIT, sus precios y su plazo de pago para tomarle pedidos a crédito."
    />
  );
}

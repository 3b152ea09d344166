import { paths } from '../../config/paths';
import { defineRoutes } from '../../lib/route-entry';

/** Open balances (docs/design.md §6): unpaid orders by who owes them, marked paid in bulk, a printable statement. */
export const paymentsRoutes = defineRoutes([
  {
    id: 'dashboard.unpaid',
    pattern: paths.dashboard.unpaid,
    area: 'dashboard',
    permission: { area: 'dashboard', capability: 'reports:read' },
    title: 'Pagos pendientes',
    icon: 'Wallet',
    lazy: () => import('./unpaid-page'),
  },
]);

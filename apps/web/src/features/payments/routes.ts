import { paths } from '../../config/paths';
import { defineRoutes } from '../../lib/route-entry';

/** Open balances (design §6), a report of unpaid orders. Not built yet. */
export const paymentsRoutes = defineRoutes([
  {
    id: 'dashboard.unpaid',
    pattern: paths.dashboard.unpaid,
    area: 'dashboard',
    permission: { area: 'dashboard', capability: 'reports:read' },
    title: 'Pagos pendientes',
    icon: 'Wallet',
  },
]);

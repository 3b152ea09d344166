import { paths } from '../../config/paths';
import { defineRoutes } from '../../lib/route-entry';

/** The sales report (docs/design.md §6). */
export const reportsRoutes = defineRoutes([
  {
    id: 'dashboard.salesReport',
    pattern: paths.dashboard.salesReport,
    area: 'dashboard',
    permission: { area: 'dashboard', capability: 'reports:read' },
    title: 'Ventas',
    icon: 'BarChart3',
    lazy: () => import('./sales-page'),
  },
]);

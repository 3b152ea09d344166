import { paths } from '../../config/paths';
import { defineRoutes } from '../../lib/route-entry';

/** What to bake (docs/design.md §6): the dashboard's production days and the production area's tablet pages. */
export const productionRoutes = defineRoutes([
  {
    id: 'dashboard.productionGrouped',
    pattern: paths.dashboard.productionGrouped,
    area: 'dashboard',
    permission: { area: 'dashboard', capability: 'production:read' },
    title: 'Producción agrupada',
    icon: 'Factory',
    lazy: () => import('./grouped-page'),
  },
  {
    id: 'dashboard.productionSingle',
    pattern: paths.dashboard.productionSingle,
    area: 'dashboard',
    permission: { area: 'dashboard', capability: 'production:read' },
    title: 'Producción por pedido',
    icon: 'ListChecks',
    lazy: () => import('./single-page'),
  },
  {
    id: 'production.orders',
    pattern: paths.production.orders,
    area: 'production',
    permission: { area: 'production', capability: 'production:read' },
    title: 'Qué hornear',
    icon: 'Factory',
    lazy: () => import('./tablet-orders-page'),
  },
  {
    id: 'production.summary',
    pattern: paths.production.summary,
    area: 'production',
    permission: { area: 'production', capability: 'production:read' },
    title: 'Resumen del día',
    icon: 'ListChecks',
    lazy: () => import('./tablet-summary-page'),
  },
]);

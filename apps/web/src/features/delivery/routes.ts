import { paths } from '../../config/paths';
import { defineRoutes } from '../../lib/route-entry';

/** The day's deliveries (docs/design.md §6): the dashboard's delivery screens and the driver area.  */
export const deliveryRoutes = defineRoutes([
  {
    id: 'dashboard.delivery',
    pattern: paths.dashboard.delivery,
    area: 'dashboard',
    // It assigns drivers and orders the route.
    permission: { area: 'dashboard', capability: 'deliveries:assign' },
    title: 'Domicilios',
    icon: 'Truck',
    lazy: () => import('./delivery-page'),
  },
  {
    id: 'dashboard.deliverySummary',
    pattern: paths.dashboard.deliverySummary,
    area: 'dashboard',
    permission: { area: 'dashboard', capability: 'deliveries:read' },
    title: 'Resumen de domicilios',
    lazy: () => import('./summary-page'),
  },
  {
    id: 'driver.orders',
    pattern: paths.driver.orders,
    area: 'driver',
    permission: { area: 'driver', capability: 'deliveries:read' },
    title: 'Mi ruta',
    icon: 'Route',
    lazy: () => import('./driver-orders-page'),
  },
  {
    id: 'driver.summary',
    pattern: paths.driver.summary,
    area: 'driver',
    permission: { area: 'driver', capability: 'deliveries:read' },
    title: 'Resumen del día',
    icon: 'PackageSearch',
    lazy: () => import('./driver-summary-page'),
  },
]);

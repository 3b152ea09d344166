import { paths } from '../../config/paths';
import { defineRoutes } from '../../lib/route-entry';

/** The day's deliveries (design §6): the dashboard's delivery screens and the driver area. Not built yet. */
export const deliveryRoutes = defineRoutes([
  {
    id: 'dashboard.delivery',
    pattern: paths.dashboard.delivery,
    area: 'dashboard',
    // It assigns drivers and orders the route: it changes orders.
    permission: { area: 'dashboard', needs: 'orders:update' },
    title: 'Domicilios',
    icon: 'Truck',
  },
  {
    id: 'dashboard.deliverySummary',
    pattern: paths.dashboard.deliverySummary,
    area: 'dashboard',
    permission: { area: 'dashboard', needs: 'orders:read' },
    title: 'Resumen de domicilios',
  },
  {
    id: 'driver.orders',
    pattern: paths.driver.orders,
    area: 'driver',
    permission: { area: 'driver', needs: 'orders:read' },
    title: 'Mi ruta',
    icon: 'Route',
  },
  {
    id: 'driver.summary',
    pattern: paths.driver.summary,
    area: 'driver',
    permission: { area: 'driver', needs: 'orders:read' },
    title: 'Resumen del día',
    icon: 'PackageSearch',
  },
]);

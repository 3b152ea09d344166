import { paths } from '../../config/paths';
import { defineRoutes } from '../../lib/route-entry';

export const ordersRoutes = defineRoutes([
  {
    id: 'dashboard.orders',
    pattern: paths.dashboard.orders,
    area: 'dashboard',
    permission: { area: 'dashboard', needs: 'orders:read' },
    title: 'Pedidos',
    icon: 'ClipboardList',
    lazy: () => import('./orders-page'),
    parts: ['frame', 'panel'],
  },
]);

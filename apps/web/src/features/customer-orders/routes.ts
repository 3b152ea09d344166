import { paths } from '../../config/paths';
import { defineRoutes } from '../../lib/route-entry';

export const customerOrdersRoutes = defineRoutes([
  {
    id: 'customer.history',
    pattern: paths.customer.history,
    area: 'customer',
    permission: { area: 'customer', needs: 'orders:read' },
    title: 'Mis pedidos',
    icon: 'History',
    loading: 'Cargando tus pedidos…',
    lazy: () => import('./history-page'),
  },
]);

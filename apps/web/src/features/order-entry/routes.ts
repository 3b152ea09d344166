import { paths } from '../../config/paths';
import { defineRoutes } from '../../lib/route-entry';

export const orderEntryRoutes = defineRoutes([
  {
    id: 'dashboard.orderCreate',
    pattern: paths.dashboard.orderCreate,
    area: 'dashboard',
    permission: { area: 'dashboard', needs: 'orders:create' },
    title: 'Nuevo pedido',
    loading: 'Cargando productos, clientes y horarios…',
    lazy: () => import('./order-entry-page'),
  },
]);

import { paths } from '../../config/paths';
import { defineRoutes } from '../../lib/route-entry';

const clientsPage = () => import('./b2b-clients-page');
const standingPage = () => import('./standing-orders-page');

/** Wholesale clients (docs/design.md §4 b2bClients): the list, a client's page and the create form share one route. */
export const b2bClientsRoutes = defineRoutes([
  {
    id: 'dashboard.b2bClients',
    pattern: paths.dashboard.b2bClients,
    area: 'dashboard',
    permission: { area: 'dashboard', needs: 'b2bClients:read' },
    title: 'Clientes mayoristas',
    icon: 'Building2',
    lazy: clientsPage,
    parts: ['standing'],
  },
  {
    id: 'dashboard.standingOrders',
    pattern: paths.dashboard.standingOrders,
    area: 'dashboard',
    permission: { area: 'dashboard', needs: 'standingOrders:read' },
    title: 'Pedidos recurrentes',
    icon: 'Repeat',
    lazy: standingPage,
  },
]);

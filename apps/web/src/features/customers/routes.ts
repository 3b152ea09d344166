import { paths } from '../../config/paths';
import { defineRoutes } from '../../lib/route-entry';

/** The people a bakery deals with (design §6): customers, B2B clients and its staff. Not built yet. */
export const customersRoutes = defineRoutes([
  {
    id: 'dashboard.users',
    pattern: paths.dashboard.users,
    area: 'dashboard',
    permission: { area: 'dashboard', needs: 'users:read' },
    title: 'Clientes',
    icon: 'Users',
  },
  {
    id: 'dashboard.userCreate',
    pattern: paths.dashboard.userCreate,
    area: 'dashboard',
    permission: { area: 'dashboard', needs: 'users:create' },
    title: 'Nuevo cliente',
  },
  {
    id: 'dashboard.usersActive',
    pattern: paths.dashboard.usersActive,
    area: 'dashboard',
    permission: { area: 'dashboard', needs: 'users:read' },
    title: 'Clientes activos',
  },
  {
    id: 'dashboard.b2bClients',
    pattern: paths.dashboard.b2bClients,
    area: 'dashboard',
    permission: { area: 'dashboard', needs: 'b2bClients:read' },
    title: 'Clientes mayoristas',
    icon: 'Building2',
  },
  // It lists and manages every role of the company: reading only its customers is not enough.
  {
    id: 'dashboard.staff',
    pattern: paths.dashboard.staff,
    area: 'dashboard',
    permission: { area: 'dashboard', needs: 'users:read', grant: 'company' },
    title: 'Equipo',
    icon: 'UserRound',
  },
]);

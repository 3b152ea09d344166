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
  // B2B clients: features/b2b-clients/routes.ts.
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

import { paths } from '../../config/paths';
import { defineRoutes } from '../../lib/route-entry';

// One loader a page, shared by its routes: each `import()` carries its chunk's preload list into the first load.
const usersPage = () => import('./users-page');
const usersActivePage = () => import('./users-active-page');
const userCreatePage = () => import('./user-create-page');
const staffPage = () => import('./staff-page');

/** The people a bakery deals with (docs/design.md §6): its users (customers and team), B2B clients and its staff. */
export const customersRoutes = defineRoutes([
  {
    id: 'dashboard.users',
    pattern: paths.dashboard.users,
    area: 'dashboard',
    permission: { area: 'dashboard', needs: 'users:read' },
    title: 'Usuarios',
    icon: 'Users',
    lazy: usersPage,
  },
  {
    id: 'dashboard.userCreate',
    pattern: paths.dashboard.userCreate,
    area: 'dashboard',
    permission: { area: 'dashboard', needs: 'users:create' },
    title: 'Nuevo usuario',
    lazy: userCreatePage,
  },
  {
    id: 'dashboard.usersActive',
    pattern: paths.dashboard.usersActive,
    area: 'dashboard',
    permission: { area: 'dashboard', needs: 'users:read' },
    title: 'Usuarios activos',
    lazy: usersActivePage,
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
    lazy: staffPage,
  },
]);

import { paths } from '../../config/paths';
import { defineRoutes } from '../../lib/route-entry';

// One loader a page, shared by its routes: each `import()` carries its chunk's preload list into the first load.
const profilePage = () => import('./profile-page');

/** The profile page (docs/design.md §6), in each signed-in area. */
export const accountRoutes = defineRoutes([
  {
    id: 'dashboard.profile',
    pattern: paths.dashboard.profile,
    area: 'dashboard',
    permission: { area: 'dashboard' },
    title: 'Mi perfil',
    icon: 'UserRound',
    lazy: profilePage,
  },
  {
    id: 'driver.profile',
    pattern: paths.driver.profile,
    area: 'driver',
    permission: { area: 'driver' },
    title: 'Mi perfil',
    icon: 'UserRound',
    lazy: profilePage,
  },
  {
    id: 'production.profile',
    pattern: paths.production.profile,
    area: 'production',
    permission: { area: 'production' },
    title: 'Mi perfil',
    icon: 'UserRound',
    lazy: profilePage,
  },
  {
    id: 'customer.profile',
    pattern: paths.customer.profile,
    area: 'customer',
    permission: { area: 'customer' },
    title: 'Mi perfil',
    icon: 'UserRound',
    lazy: profilePage,
  },
]);

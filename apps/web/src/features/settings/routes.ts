import { paths } from '../../config/paths';
import { defineRoutes } from '../../lib/route-entry';

const bakeryPage = () => import('./bakery-page');
const bakeryForm = () => import('./bakery-form-page');
const settingsPage = () => import('./settings-page');

/** The bakery and its settings (docs/design.md §6): its public face, and every setting (admins save; staff look). */
export const settingsRoutes = defineRoutes([
  {
    id: 'dashboard.showBakery',
    pattern: paths.dashboard.showBakery,
    area: 'dashboard',
    permission: { area: 'dashboard', needs: 'settings:read' },
    title: 'Mi panadería',
    icon: 'Store',
    lazy: bakeryPage,
  },
  {
    id: 'dashboard.updateBakery',
    pattern: paths.dashboard.updateBakery,
    area: 'dashboard',
    permission: { area: 'dashboard', needs: 'settings:update' },
    title: 'Editar panadería',
    lazy: bakeryForm,
  },
  {
    id: 'dashboard.settings',
    pattern: paths.dashboard.settings,
    area: 'dashboard',
    permission: { area: 'dashboard', needs: 'settings:read' },
    title: 'Configuración',
    icon: 'Settings',
    lazy: settingsPage,
  },
]);

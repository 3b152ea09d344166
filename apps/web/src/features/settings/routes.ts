import { paths } from '../../config/paths';
import { defineRoutes } from '../../lib/route-entry';

/** The bakery and its settings (design §6). Not built yet. */
export const settingsRoutes = defineRoutes([
  {
    id: 'dashboard.showBakery',
    pattern: paths.dashboard.showBakery,
    area: 'dashboard',
    permission: { area: 'dashboard', needs: 'settings:read' },
    title: 'Mi panadería',
    icon: 'Store',
  },
  {
    id: 'dashboard.updateBakery',
    pattern: paths.dashboard.updateBakery,
    area: 'dashboard',
    permission: { area: 'dashboard', needs: 'settings:update' },
    title: 'Editar panadería',
  },
  {
    id: 'dashboard.settings',
    pattern: paths.dashboard.settings,
    area: 'dashboard',
    permission: { area: 'dashboard', needs: 'settings:read' },
    title: 'Configuración',
    icon: 'Settings',
  },
]);

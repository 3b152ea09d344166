import { paths } from '../../config/paths';
import { defineRoutes } from '../../lib/route-entry';

/** The system admin's outbox: the mail kept instead of sent when no SMTP server is set. */
export const outboxRoutes = defineRoutes([
  {
    id: 'dashboard.outbox',
    pattern: paths.dashboard.outbox,
    area: 'dashboard',
    permission: { area: 'dashboard', capability: 'outbox:read' },
    title: 'Correos sin enviar',
    loading: 'Cargando los correos…',
    icon: 'Mail',
    lazy: () => import('./outbox-page'),
  },
]);

import type { Area } from '@hornada/domain/areas';
import type { NavItem } from '../components/area-layout';
import { NAV_ICONS } from '../components/nav-icons';
import { mayOpen, type GuardUser } from './guard';
import { ROUTES } from './route-table';

export const AREA_LABELS: Record<Area, string> = {
  dashboard: 'Panel de la panadería',
  driver: 'Domicilios',
  production: 'Producción',
  customer: 'Mi cuenta',
};

/**
 * The links of an area that this user may open: its screens with an icon, in the route table's order (the
 * permission table decides, through the guard).
 */
export function navItems(area: Area, user: GuardUser | null): NavItem[] {
  return ROUTES.flatMap((route) =>
    route.area === area && route.icon ? [{ to: route.pattern, label: route.title, icon: NAV_ICONS[route.icon] }] : [],
  ).filter((item) => mayOpen(user, item.to));
}

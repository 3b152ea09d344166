import {
  BarChart3,
  Building2,
  ClipboardList,
  CookingPot,
  Croissant,
  Factory,
  FolderTree,
  History,
  ListChecks,
  PackageSearch,
  Route,
  Settings,
  Store,
  Tags,
  Truck,
  UserRound,
  Users,
  Wallet,
  Wheat,
  type LucideIcon,
} from 'lucide-react';
import { routeById } from '../config/paths';
import type { NavItem } from '../components/area-layout';
import { mayOpen, type GuardUser } from './guard';
import type { GuardedArea } from './routes';
import { routeTitle } from './route-titles';

/** Each area's sidebar: route ids with their icons, in the order a person works through the day. */
const NAV: Record<GuardedArea, [string, LucideIcon][]> = {
  dashboard: [
    ['dashboard.orders', ClipboardList],
    ['dashboard.productionGrouped', Factory],
    ['dashboard.productionSingle', ListChecks],
    ['dashboard.delivery', Truck],
    ['dashboard.unpaid', Wallet],
    ['dashboard.salesReport', BarChart3],
    ['dashboard.products', Croissant],
    ['dashboard.productCollections', FolderTree],
    ['dashboard.brands', Tags],
    ['dashboard.recipes', CookingPot],
    ['dashboard.ingredients', Wheat],
    ['dashboard.users', Users],
    ['dashboard.b2bClients', Building2],
    ['dashboard.staff', UserRound],
    ['dashboard.showBakery', Store],
    ['dashboard.settings', Settings],
    ['dashboard.profile', UserRound],
  ],
  driver: [
    ['driver.orders', Route],
    ['driver.summary', PackageSearch],
    ['driver.profile', UserRound],
  ],
  production: [
    ['production.orders', Factory],
    ['production.summary', ListChecks],
    ['production.profile', UserRound],
  ],
  customer: [
    ['customer.profile', UserRound],
    ['customer.history', History],
  ],
};

export const AREA_LABELS: Record<GuardedArea, string> = {
  dashboard: 'Panel de la panadería',
  driver: 'Domicilios',
  production: 'Producción',
  customer: 'Mi cuenta',
};

/** The links of an area that this user may open (the permission table decides, through the route table). */
export function navItems(area: GuardedArea, user: GuardUser | null): NavItem[] {
  return NAV[area]
    .map(([id, icon]) => ({ to: routeById(id).pattern, label: routeTitle(id), icon }))
    .filter((item) => mayOpen(user, item.to));
}

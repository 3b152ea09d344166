import { AREAS, AREA_NAMES, type Area } from '@hornada/domain/areas';
import { paths } from '../config/paths';
import { defineRoutes, type RouteArea, type RouteEntry } from '../lib/route-entry';
import { accountRoutes } from '../features/account/routes';
import { authRoutes } from '../features/auth/routes';
import { catalogueRoutes } from '../features/catalogue/routes';
import { customerOrdersRoutes } from '../features/customer-orders/routes';
import { b2bClientsRoutes } from '../features/b2b-clients/routes';
import { customersRoutes } from '../features/customers/routes';
import { deliveryRoutes } from '../features/delivery/routes';
import { orderEntryRoutes } from '../features/order-entry/routes';
import { ordersRoutes } from '../features/orders/routes';
import { outboxRoutes } from '../features/outbox/routes';
import { paymentsRoutes } from '../features/payments/routes';
import { productionCatalogueRoutes } from '../features/production-catalogue/routes';
import { productionRoutes } from '../features/production/routes';
import { reportsRoutes } from '../features/reports/routes';
import { settingsRoutes } from '../features/settings/routes';
import { STOREFRONT_ROUTES } from './storefront-table';

/** Each signed-in area's own URL forwards to its home (docs/product.md §2), for whoever may enter the area. */
const areaRoots = defineRoutes([
  {
    id: 'dashboard',
    pattern: paths.dashboard.root,
    area: 'dashboard',
    permission: { area: 'dashboard' },
    title: 'Panel',
    redirect: AREAS.dashboard.home,
  },
  {
    id: 'driver',
    pattern: paths.driver.root,
    area: 'driver',
    permission: { area: 'driver' },
    title: 'Domicilios',
    redirect: AREAS.driver.home,
  },
  {
    id: 'production',
    pattern: paths.production.root,
    area: 'production',
    permission: { area: 'production' },
    title: 'Producción',
    redirect: AREAS.production.home,
  },
  {
    id: 'customer',
    pattern: paths.customer.root,
    area: 'customer',
    permission: { area: 'customer' },
    title: 'Mi cuenta',
    redirect: AREAS.customer.home,
  },
]);

/**
 * Every screen of the app, composed from the features' route entries (style habit 14). The order is the
 * menus' order: an area's menu lists its entries with an icon as they come here.
 */
const COMPOSED = [
  ...STOREFRONT_ROUTES,
  ...authRoutes,
  ...areaRoots,
  ...ordersRoutes,
  ...orderEntryRoutes,
  ...productionRoutes,
  ...deliveryRoutes,
  ...paymentsRoutes,
  ...reportsRoutes,
  ...catalogueRoutes,
  ...productionCatalogueRoutes,
  ...customersRoutes,
  ...b2bClientsRoutes,
  ...settingsRoutes,
  ...outboxRoutes,
  ...accountRoutes,
  ...customerOrdersRoutes,
] as const satisfies readonly RouteEntry[];

/** The id of a screen: a typo in one does not compile. */
export type RouteId = (typeof COMPOSED)[number]['id'];
export type Route = RouteEntry & { id: RouteId };

export const ROUTES: readonly Route[] = COMPOSED;

export const ROUTE_AREAS = ['storefront', 'auth', ...AREA_NAMES] as const satisfies readonly RouteArea[];

/** public: no guard; guest: signed-out users only; auth: a signed-in user the permission lets through. */
export type Access = 'public' | 'guest' | 'auth';

export function accessOf(route: Pick<RouteEntry, 'permission'>): Access {
  return route.permission === 'everyone' ? 'public' : route.permission === 'guests' ? 'guest' : 'auth';
}

const ROUTE_BY_ID = new Map<string, Route>(ROUTES.map((r) => [r.id, r]));

export function routeById(id: RouteId): Route {
  const route = ROUTE_BY_ID.get(id);
  if (!route) throw new Error(`Unknown route ${id}`);
  return route;
}

function matches(pattern: string, pathname: string): boolean {
  const want = pattern.split('/');
  const got = pathname.split('/');
  if (want.length !== got.length) return false;
  return want.every((part, i) => (part.startsWith(':') ? (got[i] ?? '') !== '' : part === got[i]));
}

/** `/dashboard/` is `/dashboard`; the root stays `/`. */
export function normalizePathname(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') || '/' : pathname;
}

/** The screen a pathname (no query) opens, or null (a 404). */
export function matchRoute(pathname: string): Route | null {
  const normalized = normalizePathname(pathname);
  return ROUTES.find((r) => matches(r.pattern, normalized)) ?? null;
}

/** The signed-in area a pathname lies in, known screen or not (`/dashboard/anything` is the dashboard's). */
export function guardedAreaOf(pathname: string): Area | null {
  const normalized = normalizePathname(pathname);
  return (
    AREA_NAMES.find((area) => normalized === AREAS[area].root || normalized.startsWith(`${AREAS[area].root}/`)) ?? null
  );
}

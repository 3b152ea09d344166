import type { RouteEntry } from '../lib/route-entry';
import { checkoutRoutes } from '../features/checkout/routes';
import { storefrontRoutes } from '../features/storefront/routes';

/**
 * The storefront's screens, first in the route table (route-table.ts) and all a guest's first page routes: the
 * browser starts with these and adds the sign-in pages and the signed-in areas when a navigation leaves the
 * storefront (client-only-table.ts), so their entries stay out of the first load (the storefront's first-load budget).
 */
export const STOREFRONT_ROUTES = [...storefrontRoutes, ...checkoutRoutes] as const satisfies readonly RouteEntry[];

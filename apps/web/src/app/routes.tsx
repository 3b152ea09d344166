import type { RouteObject } from 'react-router';
import type { Area } from '@hornada/domain/areas';
import { NotFoundPage } from '../components/not-found';
import { PendingPage } from '../components/pending-page';
import type { Route } from './route-table';
import { RootErrorBoundary, RootLayout, rootLoader } from './root-layout';
import { STOREFRONT_ROUTES } from './storefront-table';

/**
 * What only the browser renders (docs/design.md §1): the auth pages and the four areas. The client's implementation
 * (client-routes.tsx) adds the guard as a loader and lazy-loads the screens; the server never imports them
 * and renders the neutral PendingPage in their place, which is also their HydrateFallback, so hydration
 * always matches.
 */
export interface ClientOnlyRoutes {
  page(route: Route): Omit<RouteObject, 'id' | 'path' | 'index' | 'children'>;
  /** The route of one of a screen's `parts` (route-entry.ts): its loader; it shows the screen, its child. */
  part(route: Route, part: string): Omit<RouteObject, 'id' | 'path' | 'index' | 'children'>;
  area(area: Area, children: RouteObject[]): RouteObject;
}

export const NOT_FOUND_ID = 'notFound';

/** Whether a rendered match list ends on the 404 page (the server answers it with status 404). */
export function isNotFound(leafId: string | undefined): boolean {
  return leafId === NOT_FOUND_ID || (leafId?.endsWith(`.${NOT_FOUND_ID}`) ?? false);
}

/**
 * The route tree: the storefront's pages (storefront-table.ts), then `clientOnly`, the sign-in pages and the
 * signed-in areas (client-only-table.ts), then the 404 page. The server gives it all at once; the browser
 * starts with the storefront alone and adds the rest under `root` when a navigation leaves the storefront.
 */
export function createRoutes(clientOnly: RouteObject[]): RouteObject[] {
  const children = STOREFRONT_ROUTES.map(
    (route) => ({ id: route.id, path: route.pattern, ...route.page }) as RouteObject,
  );
  children.push(...clientOnly, { id: NOT_FOUND_ID, path: '*', Component: NotFoundPage });
  return [
    {
      id: 'root',
      path: '/',
      loader: rootLoader,
      Component: RootLayout,
      ErrorBoundary: RootErrorBoundary,
      HydrateFallback: PendingPage,
      children,
    },
  ];
}

import type { RouteObject } from 'react-router';
import { AREAS, AREA_NAMES, type Area } from '@hornada/domain/areas';
import { PendingPage } from '../components/pending-page';
import { NotFoundPage } from '../components/not-found';
import { RootErrorBoundary, RootLayout, rootLoader } from './root-layout';
import { ROUTES, type Route } from './route-table';

/**
 * What only the browser renders (design §1): the auth pages and the four areas. The client's implementation
 * (client-routes.tsx) adds the guard as a loader and lazy-loads the screens; the server never imports them
 * and renders the neutral PendingPage in their place, which is also their HydrateFallback, so hydration
 * always matches.
 */
export interface ClientOnlyRoutes {
  page(route: Route): Omit<RouteObject, 'id' | 'path' | 'index' | 'children'>;
  area(area: Area, children: RouteObject[]): RouteObject;
}

const NOT_FOUND_ID = 'notFound';

/** Whether a rendered match list ends on the 404 page (the server answers it with status 404). */
export function isNotFound(leafId: string | undefined): boolean {
  return leafId === NOT_FOUND_ID || (leafId?.endsWith(`.${NOT_FOUND_ID}`) ?? false);
}

function leaf(route: Route): RouteObject {
  const isAreaRoot = AREA_NAMES.some((a) => AREAS[a].root === route.pattern);
  return isAreaRoot ? { id: route.id, index: true } : { id: route.id, path: route.pattern };
}

/**
 * The route tree, built from the route table (route-table.ts). With `clientOnly` (the browser) the guarded
 * areas are nested routes of their layouts; without it (the server) each area is one splat route showing the
 * neutral pending page.
 */
export function createRoutes(clientOnly: ClientOnlyRoutes | null): RouteObject[] {
  const children: RouteObject[] = [];
  for (const route of ROUTES) {
    if (route.area === 'storefront') {
      if (!route.page) throw new Error(`No storefront page for ${route.id}`);
      children.push({ ...leaf(route), ...route.page } as RouteObject);
    } else if (route.area === 'auth') {
      children.push({
        ...leaf(route),
        ...(clientOnly ? clientOnly.page(route) : { Component: PendingPage }),
      } as RouteObject);
    }
  }
  for (const area of AREA_NAMES) {
    if (!clientOnly) {
      children.push({ id: `area.${area}`, path: `${AREAS[area].root}/*`, Component: PendingPage });
      continue;
    }
    const pages = ROUTES.filter((r) => r.area === area).map(
      (r) => ({ ...leaf(r), ...clientOnly.page(r) }) as RouteObject,
    );
    pages.push({ id: `${area}.${NOT_FOUND_ID}`, path: '*', Component: NotFoundPage });
    children.push(clientOnly.area(area, pages));
  }
  children.push({ id: NOT_FOUND_ID, path: '*', Component: NotFoundPage });
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

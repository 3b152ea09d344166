import type { RouteObject } from 'react-router';
import { AREAS, AREA_NAMES } from '@hornada/domain/areas';
import { NotFoundPage } from '../components/not-found';
import { PendingPage } from '../components/pending-page';
import { ROUTES, type Route } from './route-table';
import { partRouteId } from '../lib/route-entry';
import { NOT_FOUND_ID, type ClientOnlyRoutes } from './routes';

function leaf(route: Route): RouteObject {
  const isAreaRoot = AREA_NAMES.some((a) => AREAS[a].root === route.pattern);
  // The root layout reads the voice from the matches, so the server's render already names the platform.
  const handle = route.voice ? { handle: { voice: route.voice } } : {};
  return isAreaRoot ? { id: route.id, index: true, ...handle } : { id: route.id, path: route.pattern, ...handle };
}

/** A signed-in screen's route; one with parts is the innermost part's index child, the outermost keeping the path. */
function screen(route: Route, clientOnly: ClientOnlyRoutes): RouteObject {
  const page = { ...leaf(route), ...clientOnly.page(route) } as RouteObject;
  if (!route.parts) return page;
  const { path, ...inner } = page;
  let node = { ...inner, index: true } as RouteObject;
  for (const name of [...route.parts].reverse()) {
    node = { id: partRouteId(route.id, name), ...clientOnly.part(route, name), children: [node] } as RouteObject;
  }
  return { ...node, path } as RouteObject;
}

/**
 * The routes besides the storefront's, from the route table (route-table.ts): the sign-in pages and the four
 * signed-in areas. With `clientOnly` (the browser) the guarded areas are nested routes of their layouts;
 * without it (the server) each page renders the neutral pending page and each area is one splat route.
 */
export function clientOnlyChildren(clientOnly: ClientOnlyRoutes | null): RouteObject[] {
  const children: RouteObject[] = ROUTES.filter((route) => route.area === 'auth').map(
    (route) =>
      ({ ...leaf(route), ...(clientOnly ? clientOnly.page(route) : { Component: PendingPage }) }) as RouteObject,
  );
  for (const area of AREA_NAMES) {
    if (!clientOnly) {
      children.push({ id: `area.${area}`, path: `${AREAS[area].root}/*`, Component: PendingPage });
      continue;
    }
    const pages = ROUTES.filter((r) => r.area === area).map((r) => screen(r, clientOnly));
    pages.push({ id: `${area}.${NOT_FOUND_ID}`, path: '*', Component: NotFoundPage });
    children.push(clientOnly.area(area, pages));
  }
  return children;
}

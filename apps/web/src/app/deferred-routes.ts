import type { LazyRouteFunction, RouteObject } from 'react-router';
import { AREAS } from '@hornada/domain/areas';
import { PendingPage } from '../components/pending-page';
import { followLocation } from './location-tracker';
import type { ClientOnlyRoutes } from './routes';

/**
 * The client-only routes (the auth pages and the signed-in areas) with their implementation, client-routes.tsx
 * (the guard loader and the table of every screen's chunk), loaded when the first of them matches rather than
 * with the storefront: a guest's first page carries neither that table nor the list of chunks behind it
 * (the storefront's first-load budget). The route tree keeps its shape; each route's `lazy` loads the module first.
 */

type ClientRoutesModule = typeof import('./client-routes');
/** What a lazy route function may return. */
type RouteProps = Awaited<ReturnType<LazyRouteFunction<RouteObject>>>;

let loading: Promise<ClientRoutesModule> | null = null;

function load(): Promise<ClientRoutesModule> {
  loading ??= import('./client-routes').then((module) => {
    followLocation(module.setCurrentLocation);
    return module;
  });
  return loading;
}

/** A client-only route's own properties, its `lazy` resolved into them (what a lazy route may return). */
async function resolved(route: RouteObject): Promise<RouteProps> {
  // id, path and children are the deferred route's own; its HydrateFallback is already set.
  const {
    lazy,
    id: _id,
    path: _path,
    index: _index,
    children: _children,
    caseSensitive: _caseSensitive,
    HydrateFallback: _fallback,
    ...rest
  } = route;
  if (lazy !== undefined && typeof lazy !== 'function') throw new Error('A client-only route has an object `lazy`');
  return { ...rest, ...(lazy ? await lazy() : {}) } as RouteProps;
}

export const deferredClientOnlyRoutes: ClientOnlyRoutes = {
  page: (route) => ({
    HydrateFallback: PendingPage,
    lazy: async () => resolved((await load()).clientOnlyRoutes.page(route) as RouteObject),
  }),
  part: (route, name) => ({
    HydrateFallback: PendingPage,
    lazy: async () => resolved((await load()).clientOnlyRoutes.part(route, name) as RouteObject),
  }),
  area: (area, children) => ({
    id: `area.${area}`,
    path: AREAS[area].root,
    HydrateFallback: PendingPage,
    children,
    lazy: async () => resolved((await load()).clientOnlyRoutes.area(area, children)),
  }),
};

import { redirect, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { AREA_ROOTS, type RouteDef } from '../config/paths';
import { PendingPage } from '../components/pending-page';
import { guard } from './guard';
import { routeTitle } from './route-titles';
import type { ClientOnlyRoutes, GuardedArea } from './routes';
import { sessionUser } from './session';

/** The local storage key of the redirect path (spec §9). */
export const REDIRECT_PATH_KEY = 'redirect-path';

/** The location the router is leaving while a navigation's loaders run (entry.client keeps it current). */
let currentLocation: string | null = null;
export function setCurrentLocation(path: string): void {
  currentLocation = path;
}

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/**
 * The route guard (spec §2, design §4) as a loader: it waits for the start-up auth check, asks `guard()`, and
 * redirects (silently, with a console warning for a role not allowed) or lets the route render.
 */
export async function guardLoader({ request }: LoaderFunctionArgs): Promise<null> {
  const url = new URL(request.url);
  const user = await sessionUser();
  const decision = guard({
    path: url.pathname + url.search,
    user,
    from: currentLocation,
    storedRedirect: storage()?.getItem(REDIRECT_PATH_KEY) ?? null,
  });
  if (decision.action === 'redirect') {
    if (decision.warn) console.warn(decision.warn);
    throw redirect(decision.to);
  }
  if (decision.storeRedirect) storage()?.setItem(REDIRECT_PATH_KEY, decision.storeRedirect);
  return null;
}

type Lazy = NonNullable<RouteObject['lazy']>;

/** Screens built so far, by route id; every other route shows its title and an honest empty state. */
function pageModule(route: RouteDef): Lazy {
  const title = routeTitle(route.id);
  switch (route.id) {
    case 'userDashboard':
      return async () => ({ Component: PendingPage });
    default:
      return async () => {
        const { UnbuiltAreaPage } = await import('../components/area-page');
        return { Component: () => <UnbuiltAreaPage title={title} /> };
      };
  }
}

export const clientOnlyRoutes: ClientOnlyRoutes = {
  page: (route) => ({ loader: guardLoader, HydrateFallback: PendingPage, lazy: pageModule(route) }),
  area: (area: GuardedArea, children) => ({
    id: `area.${area}`,
    path: AREA_ROOTS[area],
    loader: guardLoader,
    HydrateFallback: PendingPage,
    lazy: async () => ({ Component: (await import('./area-layouts')).layoutFor(area) }),
    children,
  }),
};

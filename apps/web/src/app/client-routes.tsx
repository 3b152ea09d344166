import type { ComponentType } from 'react';
import { Outlet, redirect, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { AREAS, type Area } from '@hornada/domain/areas';
import { PendingPage } from '../components/pending-page';
import type { LazyScreen } from '../lib/route-entry';
import { useHydrated } from '../lib/use-hydrated';
import { REDIRECT_PATH_KEY, storage } from './redirect-path';
import type { Route, RouteId } from './route-table';
import type { ClientOnlyRoutes } from './routes';
import { sessionUser } from './session';

/** The location the router is leaving while a navigation's loaders run (entry.client keeps it current). */
let currentLocation: string | null = null;
export function setCurrentLocation(path: string): void {
  currentLocation = path;
}

/**
 * The route guard (docs/product.md §2, docs/design.md §4) as a loader: it waits for the start-up auth check, asks `guard()`, and
 * redirects (silently, with a console warning for a role not allowed) or lets the route render.
 */
export async function guardLoader({ request }: LoaderFunctionArgs): Promise<null> {
  const url = new URL(request.url);
  // The guard comes with the first guarded route, not with the storefront (the storefront's first-load budget).
  const [user, { guard }] = await Promise.all([sessionUser(), import('./guard')]);
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

/**
 * The sign-in pages, loaded with where to go after signing in (sign-in-screens.tsx: the guard's decision,
 * which only app/ knows); their entries in features/auth/routes.ts leave their screens to this.
 */
const SIGN_IN_SCREENS: Partial<Record<RouteId, LazyScreen>> = {
  // The page's chunk is asked for at the same time (sign-in-screens.tsx then finds it loaded).
  login: async () =>
    (await Promise.all([import('./sign-in-screens'), import('../features/auth/login-page')]))[0].loginScreen(),
  googleReturn: async () =>
    (
      await Promise.all([import('./sign-in-screens'), import('../features/auth/google-return-page')])
    )[0].googleReturnScreen(),
  shopperSignup: async () =>
    (
      await Promise.all([import('./sign-in-screens'), import('../features/auth/shopper-signup-page')])
    )[0].shopperSignupScreen(),
};

/**
 * A route's screen: its feature's lazy module; a forwarding route shows the pending page (the guard redirects
 * before it renders); a screen not built yet shows its title and an honest empty state.
 */
function screenOf(route: Route): LazyScreen {
  const own = SIGN_IN_SCREENS[route.id] ?? route.lazy;
  if (own) return own;
  if (route.redirect) return async () => ({ Component: PendingPage });
  return async () => {
    const { UnbuiltAreaPage } = await import('../components/area-page');
    return { Component: () => <UnbuiltAreaPage title={route.title} /> };
  };
}

/** One of a screen's parts, from the screen's own module (its `parts`). */
function partOf(route: Route, name: string): LazyScreen {
  return async () => {
    const part = (await screenOf(route)()).parts?.[name];
    if (!part) throw new Error(`${route.id} names a part "${name}" its module does not export`);
    return part;
  };
}

/**
 * Until hydrated, a client-only route renders what the server sent in its place (PendingPage): the router may
 * have run its guard before React hydrates, and the first render must still match the server's HTML.
 */
function afterHydration<P extends object>(Component: ComponentType<P>): ComponentType<P> {
  return function ClientOnly(props: P) {
    return useHydrated() ? <Component {...props} /> : <PendingPage />;
  };
}

/**
 * A screen's route: the guard decides first, then the screen's own loader reads its data (never before the guard
 * has let the user in); the component comes from the same module (an `import()` is made once).
 */
function screenRoute(
  screen: LazyScreen,
  otherwise: ComponentType = PendingPage,
): Omit<RouteObject, 'id' | 'path' | 'index' | 'children'> {
  return {
    loader: async (args) => (await guardLoader(args), (await screen()).loader?.(args) ?? null),
    HydrateFallback: PendingPage,
    lazy: async () => {
      const { Component, shouldRevalidate } = await screen();
      return { Component: afterHydration(Component ?? otherwise), shouldRevalidate };
    },
  };
}

export const clientOnlyRoutes: ClientOnlyRoutes = {
  page: (route) => screenRoute(screenOf(route)),
  // A part shows its screen (its child) in place: the data is the part's, the page the screen's.
  part: (route, name) => screenRoute(partOf(route, name), Outlet),
  area: (area: Area, children) => ({
    id: `area.${area}`,
    path: AREAS[area].root,
    loader: guardLoader,
    HydrateFallback: PendingPage,
    lazy: async () => ({ Component: afterHydration((await import('./area-layouts')).layoutFor(area)) }),
    children,
  }),
};

import type { ComponentType } from 'react';
import { redirect, useNavigate, useSearchParams, type LoaderFunctionArgs } from 'react-router';
import type { SessionUser } from '../lib/auth-store';
import { AREA_ROOTS, paths, type RouteDef } from '../config/paths';
import { PendingPage } from '../components/pending-page';
import { useHydrated } from '../lib/use-hydrated';
import { landingPath } from './landing';
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
  // The guard comes with the first guarded route, not with the storefront (issue 14's first-load budget).
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

/** A screen's module: what `import()` of a page file gives, or a component made here. */
type Lazy = () => Promise<{ Component?: ComponentType | null }>;

/**
 * After sign-in (design §4): the `?redirect=` query, else the stored redirect path, when it is a path of ours
 * the user may open; else their landing page. The stored path is used once.
 */
function LoginRoute(
  LoginPage: ComponentType<{ afterSignIn: (user: SessionUser) => void }>,
  signInTarget: typeof import('./guard').signInTarget,
) {
  return function Login() {
    const navigate = useNavigate();
    const [search] = useSearchParams();
    return (
      <LoginPage
        afterSignIn={(user) => {
          const to = signInTarget(user, {
            query: search.get('redirect'),
            stored: storage()?.getItem(REDIRECT_PATH_KEY),
          });
          storage()?.removeItem(REDIRECT_PATH_KEY);
          void navigate(to, { replace: true });
        }}
      />
    );
  };
}

/**
 * After sign-in with Google (spec §4, design §4): an allowed `?redirect=` (or stored) path, else the
 * `userDashboard` route, which sends the user to their landing page.
 */
function googleTarget(
  signInTarget: typeof import('./guard').signInTarget,
  user: SessionUser,
  redirect: string | null,
): string {
  const to = signInTarget(user, { query: redirect, stored: storage()?.getItem(REDIRECT_PATH_KEY) });
  storage()?.removeItem(REDIRECT_PATH_KEY);
  return to === landingPath(user) ? paths.userDashboard(user.uid) : to;
}

/** Screens built so far, by route id; every other route shows its title and an honest empty state. */
function pageModule(route: RouteDef): Lazy {
  switch (route.id) {
    case 'userDashboard':
      return async () => ({ Component: PendingPage });
    case 'login':
      return async () => {
        const [{ LoginPage }, { signInTarget }] = await Promise.all([
          import('../features/auth/login-page'),
          import('./guard'),
        ]);
        return { Component: LoginRoute(LoginPage, signInTarget) };
      };
    case 'signup':
      return () => import('../features/auth/signup-page');
    case 'createBakery':
      return () => import('../features/auth/create-bakery-page');
    case 'passwordRecovery':
      return () => import('../features/auth/password-recovery-page');
    case 'passwordReset':
      return () => import('../features/auth/password-reset-page');
    case 'verifyEmail':
      return () => import('../features/auth/verify-email-page');
    case 'googleReturn':
      return async () => {
        const [{ GoogleReturnPage }, { signInTarget }] = await Promise.all([
          import('../features/auth/google-return-page'),
          import('./guard'),
        ]);
        const afterSignIn = (user: SessionUser, redirect: string | null) => googleTarget(signInTarget, user, redirect);
        return { Component: () => <GoogleReturnPage afterSignIn={afterSignIn} /> };
      };
    case 'dashboard.orders':
      return () => import('../features/orders/orders-page');
    case 'dashboard.ingredients':
      return () => import('../features/production-catalogue/ingredients-list-page');
    case 'dashboard.ingredientCreate':
    case 'dashboard.ingredientUpdate':
      return () => import('../features/production-catalogue/ingredient-form-page');
    case 'dashboard.recipes':
      return () => import('../features/production-catalogue/recipes-list-page');
    case 'dashboard.recipeCreate':
    case 'dashboard.recipeUpdate':
      return () => import('../features/production-catalogue/recipe-form-page');
    case 'dashboard.profile':
    case 'driver.profile':
    case 'production.profile':
    case 'customer.profile':
      return () => import('../features/account/profile-page');
    case 'customer.history':
      return () => import('../features/customer-orders/history-page');
    case 'dashboard.products':
      return () => import('../features/catalogue/products-page');
    case 'dashboard.productCreate':
    case 'dashboard.productUpdate':
      return () => import('../features/catalogue/product-form-page');
    case 'dashboard.brands':
      return () => import('../features/catalogue/brands-page');
    case 'dashboard.brandCreate':
    case 'dashboard.brandUpdate':
      return () => import('../features/catalogue/brand-form-page');
    case 'dashboard.productCollections':
      return () => import('../features/catalogue/collections-page');
    case 'dashboard.productCollectionCreate':
    case 'dashboard.productCollectionUpdate':
      return () => import('../features/catalogue/collection-form-page');
    case 'dashboard.orderCreate':
      return () => import('../features/order-entry/order-entry-page');
    default:
      return async () => {
        const [{ UnbuiltAreaPage }, { routeTitle }] = await Promise.all([
          import('../components/area-page'),
          import('./route-titles'),
        ]);
        const title = routeTitle(route.id);
        return { Component: () => <UnbuiltAreaPage title={title} /> };
      };
  }
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

const wrapped =
  (load: Lazy): (() => Promise<{ Component: ComponentType }>) =>
  async () => ({ Component: afterHydration((await load()).Component ?? PendingPage) });

export const clientOnlyRoutes: ClientOnlyRoutes = {
  page: (route) => ({ loader: guardLoader, HydrateFallback: PendingPage, lazy: wrapped(pageModule(route)) }),
  area: (area: GuardedArea, children) => ({
    id: `area.${area}`,
    path: AREA_ROOTS[area],
    loader: guardLoader,
    HydrateFallback: PendingPage,
    lazy: async () => ({ Component: afterHydration((await import('./area-layouts')).layoutFor(area)) }),
    children,
  }),
};

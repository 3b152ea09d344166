// First: installs React Fast Refresh before any component module runs under `npm run dev` (the server adds
// no inline preamble script: CSP); an empty module in the build.
import '@vitejs/plugin-react/preamble';
import { StrictMode, startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import {
  RouterProvider,
  UNSAFE_ErrorResponseImpl,
  createBrowserRouter,
  matchRoutes,
  type HydrationState,
  type RouteObject,
} from 'react-router';
import { Document, HYDRATION_ELEMENT_ID, type DocumentAssets } from './app/document';
import { trackLocation } from './app/location-tracker';
import { NOT_FOUND_ID, createRoutes } from './app/routes';
import { startSession } from './app/session';
import type { HydrationPayload } from './entry.server';
import './styles.css';

const element = document.getElementById(HYDRATION_ELEMENT_ID);
const text = element?.textContent ?? '{}';
const { hydration, assets } = JSON.parse(text) as { hydration: HydrationPayload; assets: DocumentAssets };

function hydrationState(payload: HydrationPayload): HydrationState {
  let errors: HydrationState['errors'] = null;
  if (payload.errors) {
    errors = {};
    for (const [id, e] of Object.entries(payload.errors)) {
      const err = e as { __type: string; status?: number; statusText?: string; data?: unknown };
      errors[id] =
        err.__type === 'RouteErrorResponse'
          ? new UNSAFE_ErrorResponseImpl(err.status ?? 500, err.statusText, err.data)
          : new Error('Error');
    }
  }
  return { loaderData: payload.loaderData, actionData: payload.actionData, errors };
}

const root = hydration.loaderData.root as { config?: { companyId?: string | null } } | undefined;
startSession(root?.config?.companyId ?? null);

/**
 * The sign-in pages and the signed-in areas, with the route table behind them, loaded once and only when a
 * URL is not the storefront's: a guest's first page routes the storefront alone (the storefront's first-load budget).
 */
let clientOnly: Promise<RouteObject[]> | null = null;
const loadClientOnly = () =>
  (clientOnly ??= Promise.all([import('./app/client-only-table'), import('./app/deferred-routes')]).then(
    ([table, deferred]) => table.clientOnlyChildren(deferred.deferredClientOnlyRoutes),
  ));
const storefrontOnly = createRoutes([]);
/** Whether the storefront's routes leave `path` to the 404 page (it may be a client-only route's). */
const beyondStorefront = (path: string) => matchRoutes(storefrontOnly, path)?.at(-1)?.route.id === NOT_FOUND_ID;

// The first URL not the storefront's: the whole tree from the start, as the server rendered it.
let patched = beyondStorefront(window.location.pathname);
const routes = patched ? createRoutes(await loadClientOnly()) : storefrontOnly;
// Lazy routes matching the first URL are resolved before the router starts (stack-notes: otherwise
// hydration silently breaks).
await Promise.all(
  (matchRoutes(routes, window.location) ?? []).map(async ({ route }) => {
    if (typeof route.lazy !== 'function') return;
    Object.assign(route, await route.lazy());
    route.lazy = undefined;
  }),
);

const router = createBrowserRouter(routes, {
  hydrationData: hydrationState(hydration),
  // The router asks before a navigation to a URL with parameters or one only the 404 page matches.
  async patchRoutesOnNavigation({ path, patch }) {
    if (patched || !beyondStorefront(path)) return;
    const children = await loadClientOnly();
    if (patched) return;
    patched = true;
    patch('root', children);
  },
});
trackLocation(window.location.pathname + window.location.search + window.location.hash);
router.subscribe((state) => {
  if (state.navigation.state === 'idle') {
    trackLocation(state.location.pathname + state.location.search + state.location.hash);
  }
});

const app = (
  <StrictMode>
    <Document assets={assets}>
      <RouterProvider router={router} />
    </Document>
  </StrictMode>
);
if (router.state.initialized) {
  // A server-rendered page (its data came with it): React hydrates it in a transition, in slices that yield
  // to the browser, instead of one long task that holds input back (Lighthouse's total blocking time), as
  // React Router's own entry does.
  startTransition(() => {
    hydrateRoot(document, app);
  });
} else {
  // A client-only route, its guard still running: at once, as before. In a transition the router could settle
  // (or redirect) between React's first render and its subscribing to it, and the page would miss it.
  hydrateRoot(document, app);
}

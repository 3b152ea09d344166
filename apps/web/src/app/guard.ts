import { ROLE_PLACES, mustSetUpBakeryFor, type Area, type ScreenPermission } from '@hornada/domain/areas';
import { mayOpenScreen } from '@hornada/domain/screens';
import type { Role } from '@hornada/domain/roles';
import { paths } from '../config/paths';
import { landingPath, placePath, type GuardUser } from './landing';
import { accessOf, guardedAreaOf, matchRoute, normalizePathname, type Access, type Route } from './route-table';

export { accountPath, landingPath, logoPath, type GuardUser } from './landing';

/**
 * The route guard of docs/product.md §2 with docs/design.md §4's landing table, as pure decisions: a router loader reads the
 * signed-in user (after the auth check: docs/product.md §2 "if no user is loaded, authentication is checked first"),
 * asks `guard()` and acts on the answer (stores the redirect path, logs the warning, redirects).
 */

export interface GuardInput {
  /** The wanted location: pathname plus query (`/login?redirect=/dashboard/products`). */
  path: string;
  /** The signed-in user, or null when signed out (after the auth check). */
  user: GuardUser | null;
  /** The location being left (pathname plus query), when navigating inside the app. */
  from?: string | null;
  /** The redirect path kept in local storage (docs/product.md §9). */
  storedRedirect?: string | null;
}

export type GuardDecision =
  | {
      action: 'allow';
      /** Keep this as the redirect path (entering /login from elsewhere, docs/product.md §2). */
      storeRedirect?: string;
    }
  | {
      action: 'redirect';
      to: string;
      /** A role not allowed: redirected silently, this logged as a console warning (docs/product.md §2). */
      warn?: string;
    };

/** The auth pages of the guard's rule (docs/design.md §4): entering /login from one of them stores nothing. */
const AUTH_PAGES: readonly string[] = [
  paths.login,
  paths.signup,
  paths.passwordRecovery,
  paths.passwordReset(),
  paths.verifyEmail(),
  paths.googleReturn,
];

const ORIGIN_BASE = 'http://hornada.invalid';

interface Location {
  pathname: string;
  search: string;
  hash: string;
}

const isControl = (ch: string): boolean => {
  const code = ch.charCodeAt(0);
  return code < 0x20 || code === 0x7f;
};

/**
 * `//x` or `/\x` once normalised (`/.//x` is `//x`) or percent-decoded (`/%2F/x`): another host to a
 * browser, so never a path to go to.
 */
function readsAsHost(pathname: string): boolean {
  try {
    const decoded = decodeURIComponent(pathname);
    return [pathname, decoded, new URL(decoded, ORIGIN_BASE).pathname].some((p) => /^[/\\]{2}/.test(p));
  } catch {
    return true;
  }
}

/**
 * A path of our origin, parsed; null for another origin (`https://evil.example/x`, `//evil.example`,
 * `/\evil`), anything not starting with one `/`, or control characters.
 */
export function parseAppPath(value: unknown): Location | null {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//')) return null;
  // Browsers read `\` as `/` and drop tabs and newlines: `/\evil`, `/\t/evil` would leave the origin.
  if (value.includes('\\') || [...value].some(isControl)) return null;
  let url: URL;
  try {
    url = new URL(value, ORIGIN_BASE);
  } catch {
    return null;
  }
  if (url.origin !== ORIGIN_BASE || readsAsHost(url.pathname)) return null;
  return { pathname: url.pathname, search: url.search, hash: url.hash };
}

/** Where a role not allowed on a route is sent, silently (docs/product.md §2): its area's root, or `/`. */
export function deniedPath(role: Role): string {
  return placePath(ROLE_PLACES[role].denied, 'root');
}

interface Guarded {
  route: Route | null;
  area: Area | null;
  access: Access;
  permission: ScreenPermission;
}

/** The route (or, for an unknown child of a signed-in area, the area's guard) a pathname is under. */
function guardOf(pathname: string): Guarded | null {
  const route = matchRoute(pathname);
  if (route) {
    const area = typeof route.permission === 'object' ? route.permission.area : null;
    return { route, area, access: accessOf(route), permission: route.permission };
  }
  const area = guardedAreaOf(pathname);
  if (area) return { route: null, area, access: 'auth', permission: { area } };
  return null;
}

/**
 * Whether a signed-in user passes a route's permission (packages/domain/src/areas.ts). A bakery owner whose
 * companyId is still null is sent to /createBakery instead of the company areas (docs/design.md §4's landing table),
 * since their screens act on a company it does not have yet.
 */
function roleCheck(user: GuardUser, guarded: Guarded): 'ok' | 'denied' | 'needsBakery' {
  if (!mayOpenScreen(user.role, guarded.permission)) return 'denied';
  if (guarded.area && mustSetUpBakeryFor(user, guarded.area)) return 'needsBakery';
  return 'ok';
}

/**
 * Whether the user may open a location: a known route (or a guarded area's unknown child the user's role
 * passes), guest-only routes for signed-out users only. Unknown public paths are not targets (they are 404s).
 */
export function mayOpen(user: GuardUser | null, path: string): boolean {
  const location = parseAppPath(path);
  if (!location) return false;
  const guard = guardOf(location.pathname);
  if (!guard?.route) return false;
  switch (guard.access) {
    case 'public':
      return true;
    case 'guest':
      return user === null;
    case 'auth':
      return user !== null && roleCheck(user, guard) === 'ok';
  }
}

/**
 * Where a user goes after sign-in (docs/design.md §4): the `?redirect=` query wins over the stored redirect path;
 * either is followed only when it is a path of our origin the user may open; else their landing page.
 */
export function signInTarget(user: GuardUser, targets: { query?: string | null; stored?: string | null }): string {
  for (const candidate of [targets.query, targets.stored]) {
    const location = parseAppPath(candidate);
    if (!location) continue;
    const normalized = location.pathname + location.search + location.hash;
    if (mayOpen(user, normalized)) return normalized;
  }
  return landingPath(user);
}

function routeRedirect(route: Route | null, user: GuardUser): string | null {
  if (!route?.redirect) return null;
  return route.redirect === 'landing' ? landingPath(user) : route.redirect;
}

/** The guard's decision for one navigation (docs/product.md §2, docs/design.md §4). */
export function guard(input: GuardInput): GuardDecision {
  const { user } = input;
  const location = parseAppPath(input.path);
  if (!location) return { action: 'allow' };
  const wanted = location.pathname + location.search;
  const guarded = guardOf(location.pathname);
  if (!guarded) return { action: 'allow' }; // not a route: the 404 page
  const { route, access } = guarded;

  if (access === 'public') return { action: 'allow' };

  if (access === 'guest') {
    if (user) {
      // Guest-only routes send a signed-in user on: to an allowed redirect target, else their landing page.
      const query = new URLSearchParams(location.search).get('redirect');
      return { action: 'redirect', to: signInTarget(user, { query, stored: input.storedRedirect }) };
    }
    if (route?.id === 'login') {
      const from = parseAppPath(input.from);
      if (from && !AUTH_PAGES.includes(normalizePathname(from.pathname))) {
        return { action: 'allow', storeRedirect: from.pathname + from.search + from.hash };
      }
    }
    return { action: 'allow' };
  }

  if (!user) return { action: 'redirect', to: paths.loginWithRedirect(wanted) };
  switch (roleCheck(user, guarded)) {
    case 'ok': {
      const to = routeRedirect(route, user);
      return to ? { action: 'redirect', to } : { action: 'allow' };
    }
    case 'needsBakery':
      return { action: 'redirect', to: paths.createBakery };
    case 'denied':
      return {
        action: 'redirect',
        to: deniedPath(user.role),
        warn: `Route guard: role ${user.role} may not open ${location.pathname}; sent to ${deniedPath(user.role)}`,
      };
  }
}

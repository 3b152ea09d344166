import { describe, expect, it } from 'vitest';
import { ROLES, type Role } from '@hornada/domain/roles';
import type { RouteArea } from '../lib/route-entry';
import { ROUTES, ROUTE_AREAS, accessOf, type Route } from './route-table';
import {
  accountPath,
  guard,
  landingPath,
  logoPath,
  mayOpen,
  parseAppPath,
  signInTarget,
  type GuardDecision,
  type GuardUser,
} from './guard';

const userOf = (role: Role, companyId: string | null = 'c1'): GuardUser => ({ uid: `u-${role}`, role, companyId });
const allow: GuardDecision = { action: 'allow' };
const redirect = (to: string): GuardDecision => ({ action: 'redirect', to });
const silent = (to: string) => ({ action: 'redirect', to, warn: expect.stringContaining('may not open') });

/** A concrete URL for a route pattern (`:id` → `x1`). */
const urlOf = (route: Route): string => route.pattern.replace(/:[A-Za-z]+/g, 'x1');

/** Each area's representative: its first screen in the route table (no parameter, not a redirect). */
const representative = (area: RouteArea): Route => {
  const route = ROUTES.find((r) => r.area === area && !r.redirect && !r.pattern.includes(':'));
  if (!route) throw new Error(`No representative route for ${area}`);
  return route;
};

/**
 * Spec §2/§6 as written, independent of the code: who may open each area, where a signed-in user is sent
 * from the guest-only pages, and the silent redirects.
 */
const ALLOWED: Record<RouteArea, 'everyone' | 'guests' | readonly Role[]> = {
  storefront: 'everyone',
  auth: 'guests',
  dashboard: ['company_admin', 'company_staff'],
  driver: ['company_admin', 'company_staff', 'delivery_assistant'],
  production: ['company_admin', 'company_staff', 'production_assistant'],
  customer: ['company_customer', 'company_admin'],
};
const LANDING: Record<Role, string> = {
  system_admin: '/dashboard/orders',
  company_admin: '/dashboard/orders',
  company_staff: '/dashboard/orders',
  company_customer: '/',
  delivery_assistant: '/driver/orders',
  production_assistant: '/production/orders',
};
const DENIED: Record<Role, string> = {
  system_admin: '/',
  company_admin: '/',
  company_staff: '/',
  company_customer: '/',
  delivery_assistant: '/driver',
  production_assistant: '/production',
};

function expected(area: RouteArea, path: string, role: Role | null): GuardDecision | ReturnType<typeof silent> {
  const rule = ALLOWED[area];
  if (rule === 'everyone') return allow;
  if (rule === 'guests') return role === null ? allow : redirect(LANDING[role]);
  if (role === null) return redirect(`/login?redirect=${path}`);
  if (role === 'system_admin' || rule.includes(role)) return allow;
  return silent(DENIED[role]);
}

describe('the guard: every role × area × signed in or out (docs/product.md §2, §6)', () => {
  it('has a representative route for every area of the table', () => {
    expect(ROUTE_AREAS.map((a) => representative(a).id)).toEqual([
      'home',
      'login',
      'dashboard.orders',
      'driver.orders',
      'production.orders',
      'customer.profile',
    ]);
  });

  const cases = ROUTE_AREAS.flatMap((area) =>
    [null, ...ROLES].map((role) => ({ area, role, path: urlOf(representative(area)) })),
  );
  it.each(cases)('$area ($path) for $role', ({ area, role, path }) => {
    expect(guard({ path, user: role ? userOf(role) : null })).toEqual(expected(area, path, role));
  });
});

describe('the guard on every route of the table', () => {
  const everyone = [null, ...ROLES.map((r) => userOf(r)), userOf('company_admin', null)];

  it('sends a guest from every auth-required route to /login with the wanted path', () => {
    for (const route of ROUTES.filter((r) => accessOf(r) === 'auth')) {
      const path = urlOf(route);
      expect(guard({ path, user: null }), path).toEqual(redirect(`/login?redirect=${path}`));
    }
  });

  it('lets system_admin through every guard (area roots and userDashboard forward it)', () => {
    for (const route of ROUTES.filter((r) => accessOf(r) !== 'guest')) {
      const decision = guard({ path: urlOf(route), user: userOf('system_admin') });
      if (route.redirect) expect(decision, route.id).toMatchObject({ action: 'redirect' });
      else expect(decision, route.id).toEqual(allow);
      expect(decision, route.id).not.toHaveProperty('warn');
    }
  });

  it('ends every navigation of every user on a page they may open, in at most three hops, without loops', () => {
    for (const user of everyone) {
      for (const route of ROUTES) {
        let path = urlOf(route);
        const seen = [path];
        for (;;) {
          const decision = guard({ path, user });
          if (decision.action === 'allow') break;
          path = decision.to;
          seen.push(path);
          expect(seen.length, seen.join(' → ')).toBeLessThanOrEqual(4);
        }
        if (user) expect(mayOpen(user, path), `${user.role}: ${seen.join(' → ')}`).toBe(true);
      }
    }
  });

  it('redirects a role silently only away from routes whose area does not list it', () => {
    for (const route of ROUTES.filter((r) => accessOf(r) === 'auth' && r.area !== 'auth')) {
      const area = ALLOWED[route.area] as readonly Role[];
      for (const role of ROLES.filter((r) => r !== 'system_admin' && !area.includes(r))) {
        expect(guard({ path: urlOf(route), user: userOf(role) }), `${role} ${route.id}`).toEqual(silent(DENIED[role]));
      }
    }
  });

  it('narrows the dashboard by the permission table: staff manage neither the bakery nor the staff', () => {
    const staff = userOf('company_staff');
    expect(guard({ path: '/dashboard/update-bakery', user: staff })).toEqual(silent('/'));
    expect(guard({ path: '/dashboard/staff', user: staff })).toEqual(silent('/'));
    for (const path of [
      '/dashboard/show-bakery',
      '/dashboard/settings',
      '/dashboard/users',
      '/dashboard/users/create',
    ]) {
      expect(guard({ path, user: staff }), path).toEqual(allow);
    }
    expect(guard({ path: '/dashboard/update-bakery', user: userOf('company_admin') })).toEqual(allow);
    expect(guard({ path: '/dashboard/staff', user: userOf('company_admin') })).toEqual(allow);
  });
});

describe('the guard, case by case', () => {
  it('forwards the area roots and userDashboard', () => {
    const staff = userOf('company_staff');
    expect(guard({ path: '/dashboard', user: staff })).toEqual(redirect('/dashboard/orders'));
    expect(guard({ path: '/dashboard/', user: staff })).toEqual(redirect('/dashboard/orders'));
    expect(guard({ path: '/driver', user: userOf('delivery_assistant') })).toEqual(redirect('/driver/orders'));
    expect(guard({ path: '/production', user: userOf('production_assistant') })).toEqual(
      redirect('/production/orders'),
    );
    expect(guard({ path: '/customer', user: userOf('company_customer') })).toEqual(redirect('/customer/profile'));
    expect(guard({ path: '/cuenta/u-1', user: userOf('delivery_assistant') })).toEqual(redirect('/driver/orders'));
    expect(guard({ path: '/cuenta/u-1', user: userOf('company_customer') })).toEqual(redirect('/'));
  });

  it('keeps the query of the wanted path inside the redirect parameter', () => {
    const decision = guard({ path: '/dashboard/orders?status=pending&page=2', user: null });
    expect(decision).toEqual(redirect('/login?redirect=/dashboard/orders%3Fstatus%3Dpending%26page%3D2'));
    const to = decision.action === 'redirect' ? decision.to : '';
    expect(new URL(to, 'http://x.test').searchParams.get('redirect')).toBe('/dashboard/orders?status=pending&page=2');
  });

  it('guards unknown children of an area like the area, and leaves unknown public paths to the 404 page', () => {
    expect(guard({ path: '/dashboard/nope', user: null })).toEqual(redirect('/login?redirect=/dashboard/nope'));
    expect(guard({ path: '/dashboard/nope', user: userOf('company_customer') })).toEqual(silent('/'));
    expect(guard({ path: '/dashboard/nope', user: userOf('company_staff') })).toEqual(allow);
    expect(guard({ path: '/nope', user: null })).toEqual(allow);
    expect(guard({ path: '/driver/orders/', user: userOf('production_assistant') })).toEqual(silent('/production'));
  });

  it('sends a company_admin without a bakery to /createBakery from the company areas only', () => {
    const owner = userOf('company_admin', null);
    for (const path of ['/dashboard/orders', '/driver/orders', '/production/summary', '/dashboard']) {
      expect(guard({ path, user: owner }), path).toEqual(redirect('/createBakery'));
    }
    expect(guard({ path: '/customer/profile', user: owner })).toEqual(allow);
    expect(guard({ path: '/createBakery', user: owner })).toEqual(allow);
    expect(guard({ path: '/login', user: owner })).toEqual(redirect('/createBakery'));
  });

  it('stores the previous path when entering /login from elsewhere, not from the auth pages', () => {
    expect(guard({ path: '/login', user: null, from: '/carrito' })).toEqual({
      action: 'allow',
      storeRedirect: '/carrito',
    });
    expect(guard({ path: '/login', user: null, from: '/products/show/p1?q=1#top' })).toEqual({
      action: 'allow',
      storeRedirect: '/products/show/p1?q=1#top',
    });
    for (const from of [
      '/login',
      '/login?redirect=/x',
      '/signup',
      '/recuperar-contrasena',
      '/restablecer-contrasena?token=t',
      '/verificar-correo?token=t',
      'https://evil.example/x',
      null,
      undefined,
    ]) {
      expect(guard({ path: '/login', user: null, from }), String(from)).toEqual(allow);
    }
    expect(guard({ path: '/signup', user: null, from: '/carrito' })).toEqual(allow);
  });

  it('sends a signed-in user from /login to the allowed redirect target, else to their landing page', () => {
    const staff = userOf('company_staff');
    expect(guard({ path: '/login?redirect=/dashboard/products', user: staff })).toEqual(
      redirect('/dashboard/products'),
    );
    expect(guard({ path: '/login', user: staff, storedRedirect: '/dashboard/brands' })).toEqual(
      redirect('/dashboard/brands'),
    );
    expect(guard({ path: '/login?redirect=/customer/history', user: staff })).toEqual(redirect('/dashboard/orders'));
    expect(guard({ path: '/signup', user: userOf('company_customer') })).toEqual(redirect('/'));
  });
});

describe('the redirect target after sign-in (docs/design.md §4)', () => {
  const staff = userOf('company_staff');

  it('prefers the query over the stored path', () => {
    expect(signInTarget(staff, { query: '/dashboard/products', stored: '/dashboard/brands' })).toBe(
      '/dashboard/products',
    );
    expect(signInTarget(staff, { query: null, stored: '/dashboard/brands' })).toBe('/dashboard/brands');
    expect(signInTarget(staff, {})).toBe('/dashboard/orders');
  });

  it('keeps the query and hash of the target', () => {
    expect(signInTarget(staff, { query: '/dashboard/orders?status=pending#x' })).toBe(
      '/dashboard/orders?status=pending#x',
    );
  });

  const foreign = [
    'https://evil.example/x',
    '//evil.example',
    '//evil.example/dashboard/orders',
    '/\\evil',
    '/\\evil.example/x',
    '\\\\evil.example',
    '/\t/evil.example',
    // Normalised or decoded, these read as another host.
    '/.//evil.example',
    '/a/..//evil.example/x',
    '/%2F/evil.example',
    '/.%2F/evil.example',
    '/%5Cevil.example',
    'javascript:alert(1)',
    'dashboard/orders',
    '',
    ' /dashboard/orders',
  ];
  it.each(foreign)('ignores %j and falls back to the stored path, then the landing page', (target) => {
    expect(parseAppPath(target)).toBeNull();
    expect(signInTarget(staff, { query: target, stored: '/dashboard/brands' })).toBe('/dashboard/brands');
    expect(signInTarget(staff, { query: '/dashboard/brands', stored: target })).toBe('/dashboard/brands');
    expect(signInTarget(staff, { query: target, stored: target })).toBe('/dashboard/orders');
  });

  it('ignores paths the role may not open, guest-only pages and unknown paths', () => {
    expect(signInTarget(userOf('company_customer'), { query: '/dashboard/orders' })).toBe('/');
    expect(
      signInTarget(userOf('delivery_assistant'), { query: '/production/orders', stored: '/customer/profile' }),
    ).toBe('/driver/orders');
    expect(signInTarget(staff, { query: '/dashboard/staff' })).toBe('/dashboard/orders');
    expect(signInTarget(staff, { query: '/login' })).toBe('/dashboard/orders');
    expect(signInTarget(staff, { query: '/signup?x=1' })).toBe('/dashboard/orders');
    expect(signInTarget(staff, { query: '/no-such-page' })).toBe('/dashboard/orders');
    expect(signInTarget(userOf('company_admin', null), { query: '/dashboard/products' })).toBe('/createBakery');
  });

  it('follows public pages and, for system_admin, any page', () => {
    expect(signInTarget(userOf('company_customer'), { query: '/carrito' })).toBe('/carrito');
    expect(signInTarget(userOf('system_admin'), { query: '/driver/summary' })).toBe('/driver/summary');
    expect(signInTarget(userOf('system_admin'), { query: '/customer/history' })).toBe('/customer/history');
  });
});

describe('landing, Mi Cuenta and logo per role (docs/design.md §4)', () => {
  const table: [Role, string, string][] = [
    ['system_admin', '/dashboard/orders', '/customer/profile'],
    ['company_admin', '/dashboard/orders', '/customer/profile'],
    ['company_staff', '/dashboard/orders', '/dashboard/profile'],
    ['delivery_assistant', '/driver/orders', '/driver/profile'],
    ['production_assistant', '/production/orders', '/production/profile'],
    ['company_customer', '/', '/customer/profile'],
  ];
  it.each(table)('%s lands on %s, Mi Cuenta is %s', (role, landing, account) => {
    const user = userOf(role);
    expect(landingPath(user)).toBe(landing);
    expect(logoPath(user)).toBe(landing);
    expect(accountPath(user)).toBe(account);
    expect(mayOpen(user, account)).toBe(true);
  });

  it('lands a company_admin without a bakery on /createBakery; guests on /', () => {
    expect(landingPath(userOf('company_admin', null))).toBe('/createBakery');
    expect(logoPath(userOf('company_admin', null))).toBe('/createBakery');
    expect(landingPath(null)).toBe('/');
    expect(logoPath(null)).toBe('/');
  });
});

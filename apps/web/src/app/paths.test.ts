import { describe, expect, it } from 'vitest';
import { mayOpenScreen } from '@hornada/domain/screens';
import { ROLES } from '@hornada/domain/roles';
import { ROUTES, accessOf, guardedAreaOf, matchRoute, routeById, type RouteId } from './route-table';
import { paths } from '../config/paths';

/** The roles besides system_admin (who opens every signed-in screen) that may open a route. */
const rolesOf = (id: RouteId) =>
  ROLES.filter((role) => role !== 'system_admin' && mayOpenScreen(role, routeById(id).permission));

/** Spec §2's routes, word for word, plus docs/design.md §4/§6's additions. */
const SPEC_ROUTES = [
  '/',
  '/login',
  '/signup',
  '/createBakery',
  '/carrito',
  '/products/show/:id',
  '/resumen-de-pedido/:cartId',
  '/respuesta-de-pago',
  '/privacy',
  '/productos/:collectionId',
  '/dashboard',
  ...[
    'show-bakery',
    'update-bakery',
    'salesReport',
    'ingredients',
    'ingredients/create',
    'recipes',
    'recipes/create',
    'products',
    'products/create',
    'products/update/:id',
    'brands',
    'brands/create',
    'brands/update/:id',
    'users',
    'users/create',
    'users/active',
    'orders',
    'orders/create',
    'orders/production/single',
    'orders/production/grouped',
    'orders/delivery',
    'orders/delivery/summary',
    'orders/unpaid',
    'settings',
    'staff',
    'b2b-clients',
    'standing-orders',
    'product-collections',
    'product-collections/create',
    'product-collections/update/:id',
  ].map((child) => `/dashboard/${child}`),
  '/driver',
  '/driver/orders',
  '/driver/summary',
  '/customer',
  '/customer/profile',
  '/customer/history',
  '/production',
  '/production/orders',
  '/production/summary',
];
const ADDED_ROUTES = [
  '/cuenta/:id',
  '/dashboard/profile',
  '/driver/profile',
  '/production/profile',
  '/dashboard/ingredients/update/:id',
  '/dashboard/recipes/update/:id',
  '/recuperar-contrasena',
  '/restablecer-contrasena',
  '/verificar-correo',
  '/acceso/google',
  // a shopper's own account at the storefront's bakery.
  '/registro',
  // the system admin reads the mail kept without SMTP.
  '/dashboard/outbox',
];

describe('the route table', () => {
  it('holds every route of docs/product.md §2 and docs/design.md §4/§6, each once', () => {
    const patterns = ROUTES.map((r) => r.pattern);
    expect(new Set(patterns).size).toBe(patterns.length);
    expect([...patterns].sort()).toEqual([...SPEC_ROUTES, ...ADDED_ROUTES].sort());
    expect(new Set(ROUTES.map((r) => r.id)).size).toBe(ROUTES.length);
  });

  it('marks the guest-only, public and auth-required routes as docs/product.md §2 and docs/design.md §4 say', () => {
    const byAccess = (access: string) =>
      ROUTES.filter((r) => accessOf(r) === access)
        .map((r) => r.pattern)
        .sort();
    expect(byAccess('guest')).toEqual(['/login', '/registro', '/signup']);
    for (const route of ROUTES.filter((r) => ['storefront', 'auth'].includes(r.area) && r.id !== 'userDashboard')) {
      expect(accessOf(route), route.pattern).not.toBe('auth');
    }
    for (const route of ROUTES.filter((r) => !['storefront', 'auth'].includes(r.area))) {
      expect(accessOf(route), route.pattern).toBe('auth');
      expect(route.pattern.startsWith(`/${route.area}`), route.pattern).toBe(true);
    }
  });

  it('gives each area the roles of docs/product.md §2, narrowed by the permission table on the dashboard', () => {
    expect(rolesOf('dashboard.orders')).toEqual(['company_admin', 'company_staff']);
    expect(rolesOf('dashboard.products')).toEqual(['company_admin', 'company_staff']);
    // The table grants production assistants ingredients and recipes, but not the dashboard area (docs/product.md §2).
    expect(rolesOf('dashboard.ingredients')).toEqual(['company_admin', 'company_staff']);
    expect(rolesOf('dashboard.updateBakery')).toEqual(['company_admin']);
    expect(rolesOf('dashboard.staff')).toEqual(['company_admin']);
    expect(rolesOf('dashboard.outbox')).toEqual([]);
    expect(rolesOf('dashboard.users')).toEqual(['company_admin', 'company_staff']);
    expect(rolesOf('driver.orders')).toEqual(['company_admin', 'company_staff', 'delivery_assistant']);
    expect(rolesOf('production.summary')).toEqual(['company_admin', 'company_staff', 'production_assistant']);
    expect(rolesOf('customer.history')).toEqual(['company_admin', 'company_customer']);
    expect(rolesOf('userDashboard')).toHaveLength(ROLES.length - 1);
  });

  it('forwards the area roots as docs/product.md §2 says', () => {
    expect(routeById('dashboard').redirect).toBe('/dashboard/orders');
    expect(routeById('driver').redirect).toBe('/driver/orders');
    expect(routeById('production').redirect).toBe('/production/orders');
    expect(routeById('customer').redirect).toBe('/customer/profile');
    expect(routeById('userDashboard').redirect).toBe('landing');
  });
});

describe('paths', () => {
  const builders: [string, (id: string) => string][] = [
    ['product', paths.product],
    ['collection', paths.collection],
    ['orderSummary', paths.orderSummary],
    ['userDashboard', paths.userDashboard],
    ['dashboard.ingredientUpdate', paths.dashboard.ingredientUpdate],
    ['dashboard.recipeUpdate', paths.dashboard.recipeUpdate],
    ['dashboard.productUpdate', paths.dashboard.productUpdate],
    ['dashboard.brandUpdate', paths.dashboard.brandUpdate],
    ['dashboard.productCollectionUpdate', paths.dashboard.productCollectionUpdate],
  ];
  it.each(builders)('%s(id) opens its route, the id escaped into one segment', (id, build) => {
    expect(matchRoute(build('abc123'))?.id).toBe(id);
    expect(matchRoute(build('a/b?c#d'))?.id).toBe(id);
    expect(build('a/b?c#d')).toContain('a%2Fb%3Fc%23d');
  });

  it('builds the examples of the spec', () => {
    expect(paths.product('p1')).toBe('/products/show/p1');
    expect(paths.collection('c1')).toBe('/productos/c1');
    expect(paths.orderSummary('k1')).toBe('/resumen-de-pedido/k1');
    expect(paths.userDashboard('u1')).toBe('/cuenta/u1');
    expect(paths.passwordReset('t 1')).toBe('/restablecer-contrasena?token=t%201');
    expect(paths.verifyEmail()).toBe('/verificar-correo');
  });

  it('puts the wanted path in the login redirect, readable and whole', () => {
    expect(paths.loginWithRedirect('/dashboard/products')).toBe('/login?redirect=/dashboard/products');
    const to = paths.loginWithRedirect('/dashboard/orders?a=1&b=2#x');
    expect(new URL(to, 'http://x.test').searchParams.get('redirect')).toBe('/dashboard/orders?a=1&b=2#x');
  });

  it('opens a route for every constant path', () => {
    const constants = (value: unknown): string[] =>
      typeof value === 'string'
        ? [value]
        : typeof value === 'object' && value !== null
          ? Object.values(value).flatMap(constants)
          : [];
    for (const path of constants(paths)) expect(matchRoute(path), path).not.toBeNull();
  });

  it('matches trailing slashes and tells the guarded areas by prefix', () => {
    expect(matchRoute('/dashboard/orders/')?.id).toBe('dashboard.orders');
    expect(matchRoute('/products/show/')).toBeNull();
    expect(matchRoute('/nope')).toBeNull();
    expect(guardedAreaOf('/dashboard/anything/else')).toBe('dashboard');
    expect(guardedAreaOf('/dashboards')).toBeNull();
    expect(guardedAreaOf('/customer')).toBe('customer');
    expect(guardedAreaOf('/productos/x')).toBeNull();
  });
});

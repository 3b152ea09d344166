import { can, grantOf, type Action, type Grant, type ResourceName } from '@hornada/domain/policy';
import { ROLE, ROLES, type Role } from '@hornada/domain/roles';

/**
 * Every URL of the web app, built in one place (style.md: no path spelled inline elsewhere), and the route
 * table the guard and the router read: spec §2 plus design §4/§6's additions.
 */

const seg = (value: string): string => encodeURIComponent(value);
const withQuery = (path: string, key: string, value: string | undefined): string =>
  value === undefined ? path : `${path}?${key}=${encodeURIComponent(value)}`;

export const paths = {
  home: '/',
  login: '/login',
  /**
   * `/login?redirect=<wanted path>` (spec §2). Slashes stay readable (`?redirect=/dashboard/products`): a `/` is
   * allowed in a query (RFC 3986 §3.4); everything else that could end the parameter is escaped.
   */
  loginWithRedirect: (wanted: string): string => `/login?redirect=${encodeURIComponent(wanted).replace(/%2F/g, '/')}`,
  signup: '/signup',
  createBakery: '/createBakery',
  cart: '/carrito',
  product: (id: string): string => `/products/show/${seg(id)}`,
  collection: (collectionId: string): string => `/productos/${seg(collectionId)}`,
  orderSummary: (cartId: string): string => `/resumen-de-pedido/${seg(cartId)}`,
  paymentResponse: '/respuesta-de-pago',
  privacy: '/privacy',
  /** The named route `userDashboard` (design §4): sends the user to their landing page. */
  userDashboard: (uid: string): string => `/cuenta/${seg(uid)}`,
  passwordRecovery: '/recuperar-contrasena',
  passwordReset: (token?: string): string => withQuery('/restablecer-contrasena', 'token', token),
  verifyEmail: (token?: string): string => withQuery('/verificar-correo', 'token', token),
  /** Where the server's Google callback hands over its single-use code or its error (design §3). */
  googleReturn: '/acceso/google',
  /** The server's start of sign-in with Google (a full page load, not a route of the app). */
  googleStart: (redirect?: string): string => withQuery('/api/identity/google/start', 'redirect', redirect),
  dashboard: {
    root: '/dashboard',
    showBakery: '/dashboard/show-bakery',
    updateBakery: '/dashboard/update-bakery',
    salesReport: '/dashboard/salesReport',
    ingredients: '/dashboard/ingredients',
    ingredientCreate: '/dashboard/ingredients/create',
    ingredientUpdate: (id: string): string => `/dashboard/ingredients/update/${seg(id)}`,
    recipes: '/dashboard/recipes',
    recipeCreate: '/dashboard/recipes/create',
    recipeUpdate: (id: string): string => `/dashboard/recipes/update/${seg(id)}`,
    products: '/dashboard/products',
    productCreate: '/dashboard/products/create',
    productUpdate: (id: string): string => `/dashboard/products/update/${seg(id)}`,
    brands: '/dashboard/brands',
    brandCreate: '/dashboard/brands/create',
    brandUpdate: (id: string): string => `/dashboard/brands/update/${seg(id)}`,
    users: '/dashboard/users',
    userCreate: '/dashboard/users/create',
    usersActive: '/dashboard/users/active',
    orders: '/dashboard/orders',
    orderCreate: '/dashboard/orders/create',
    productionSingle: '/dashboard/orders/production/single',
    productionGrouped: '/dashboard/orders/production/grouped',
    delivery: '/dashboard/orders/delivery',
    deliverySummary: '/dashboard/orders/delivery/summary',
    unpaid: '/dashboard/orders/unpaid',
    settings: '/dashboard/settings',
    staff: '/dashboard/staff',
    b2bClients: '/dashboard/b2b-clients',
    productCollections: '/dashboard/product-collections',
    productCollectionCreate: '/dashboard/product-collections/create',
    productCollectionUpdate: (id: string): string => `/dashboard/product-collections/update/${seg(id)}`,
    profile: '/dashboard/profile',
  },
  driver: {
    root: '/driver',
    orders: '/driver/orders',
    summary: '/driver/summary',
    profile: '/driver/profile',
  },
  production: {
    root: '/production',
    orders: '/production/orders',
    summary: '/production/summary',
    profile: '/production/profile',
  },
  customer: {
    root: '/customer',
    profile: '/customer/profile',
    history: '/customer/history',
  },
} as const;

export const AREAS = ['storefront', 'auth', 'dashboard', 'driver', 'production', 'customer'] as const;
export type Area = (typeof AREAS)[number];

/** public: no guard; guest: signed-out users only (spec §2 "guest only"); auth: a signed-in user of `roles`. */
export type Access = 'public' | 'guest' | 'auth';

/** The roles of spec §2/§6 for each guarded area (system_admin passes every guard and is never listed). */
export const AREA_ROLES = {
  dashboard: [ROLE.companyAdmin, ROLE.companyStaff],
  driver: [ROLE.companyAdmin, ROLE.companyStaff, ROLE.deliveryAssistant],
  production: [ROLE.companyAdmin, ROLE.companyStaff, ROLE.productionAssistant],
  customer: [ROLE.companyCustomer, ROLE.companyAdmin],
} as const satisfies Partial<Record<Area, readonly Role[]>>;

/** The area's own URL, under which every path (a known child or not) is guarded as the area is. */
export const AREA_ROOTS = {
  dashboard: paths.dashboard.root,
  driver: paths.driver.root,
  production: paths.production.root,
  customer: paths.customer.root,
} as const satisfies Record<keyof typeof AREA_ROLES, string>;

/** Areas whose screens act on the user's company: a company role without one cannot use them yet. */
export const COMPANY_AREAS: readonly Area[] = ['dashboard', 'driver', 'production'];

/** What a dashboard screen does with which resource: the permission table decides who may open it. */
export interface RoutePermission {
  resource: ResourceName;
  action: Action;
  /** The grant needed when a narrower one (e.g. staff's `customers` on users) is not enough. */
  grant?: Grant;
}

export interface RouteDef {
  /** Stable name, used by the router and the tests. */
  id: string;
  /** React Router pattern (`:param` for one segment). */
  pattern: string;
  area: Area;
  access: Access;
  /** Who may open an `auth` route besides system_admin; every role for `public` and `guest`. */
  roles: readonly Role[];
  permission?: RoutePermission;
  /** Where the route sends an allowed user at once (an area's root, `userDashboard`). */
  redirect?: 'landing' | string;
}

type RouteSpec = Omit<RouteDef, 'roles'> & { roles?: readonly Role[] };

const ALL_ROLES: readonly Role[] = ROLES;

/** Roles of the area that the permission table also lets through (design §4 over spec §2). */
function rolesFor(area: Area, permission: RoutePermission | undefined): readonly Role[] {
  const areaRoles: readonly Role[] = area in AREA_ROLES ? AREA_ROLES[area as keyof typeof AREA_ROLES] : ALL_ROLES;
  if (!permission) return areaRoles;
  const { resource, action, grant } = permission;
  return areaRoles.filter((role) => (grant ? grantOf(role, resource, action) === grant : can(role, resource, action)));
}

const read = (resource: ResourceName, grant?: Grant): RoutePermission => ({ resource, action: 'read', grant });
const create = (resource: ResourceName): RoutePermission => ({ resource, action: 'create' });
const update = (resource: ResourceName): RoutePermission => ({ resource, action: 'update' });

const d = paths.dashboard;
const SPECS: RouteSpec[] = [
  // Storefront (spec §2 "Public"; no guard).
  { id: 'home', pattern: paths.home, area: 'storefront', access: 'public' },
  { id: 'collection', pattern: '/productos/:collectionId', area: 'storefront', access: 'public' },
  { id: 'product', pattern: '/products/show/:id', area: 'storefront', access: 'public' },
  { id: 'cart', pattern: paths.cart, area: 'storefront', access: 'public' },
  { id: 'orderSummary', pattern: '/resumen-de-pedido/:cartId', area: 'storefront', access: 'public' },
  { id: 'paymentResponse', pattern: paths.paymentResponse, area: 'storefront', access: 'public' },
  { id: 'privacy', pattern: paths.privacy, area: 'storefront', access: 'public' },
  // Auth pages. /createBakery is public (design §4): a guest is invited to sign up first. The recovery and
  // verification pages are opened from e-mails, possibly by a signed-in user: public too.
  { id: 'login', pattern: paths.login, area: 'auth', access: 'guest' },
  { id: 'signup', pattern: paths.signup, area: 'auth', access: 'guest' },
  { id: 'createBakery', pattern: paths.createBakery, area: 'auth', access: 'public' },
  { id: 'passwordRecovery', pattern: paths.passwordRecovery, area: 'auth', access: 'public' },
  { id: 'passwordReset', pattern: paths.passwordReset(), area: 'auth', access: 'public' },
  { id: 'verifyEmail', pattern: paths.verifyEmail(), area: 'auth', access: 'public' },
  { id: 'googleReturn', pattern: paths.googleReturn, area: 'auth', access: 'public' },
  {
    id: 'userDashboard',
    pattern: '/cuenta/:id',
    area: 'auth',
    access: 'auth',
    roles: ALL_ROLES,
    redirect: 'landing',
  },
  // Dashboard (spec §2): company_admin, company_staff, narrowed by the permission table where a screen maps.
  { id: 'dashboard', pattern: d.root, area: 'dashboard', access: 'auth', redirect: d.orders },
  {
    id: 'dashboard.showBakery',
    pattern: d.showBakery,
    area: 'dashboard',
    access: 'auth',
    permission: read('settings'),
  },
  {
    id: 'dashboard.updateBakery',
    pattern: d.updateBakery,
    area: 'dashboard',
    access: 'auth',
    permission: update('settings'),
  },
  { id: 'dashboard.salesReport', pattern: d.salesReport, area: 'dashboard', access: 'auth' },
  {
    id: 'dashboard.ingredients',
    pattern: d.ingredients,
    area: 'dashboard',
    access: 'auth',
    permission: read('ingredients'),
  },
  {
    id: 'dashboard.ingredientCreate',
    pattern: d.ingredientCreate,
    area: 'dashboard',
    access: 'auth',
    permission: create('ingredients'),
  },
  {
    id: 'dashboard.ingredientUpdate',
    pattern: '/dashboard/ingredients/update/:id',
    area: 'dashboard',
    access: 'auth',
    permission: update('ingredients'),
  },
  { id: 'dashboard.recipes', pattern: d.recipes, area: 'dashboard', access: 'auth', permission: read('recipes') },
  {
    id: 'dashboard.recipeCreate',
    pattern: d.recipeCreate,
    area: 'dashboard',
    access: 'auth',
    permission: create('recipes'),
  },
  {
    id: 'dashboard.recipeUpdate',
    pattern: '/dashboard/recipes/update/:id',
    area: 'dashboard',
    access: 'auth',
    permission: update('recipes'),
  },
  { id: 'dashboard.products', pattern: d.products, area: 'dashboard', access: 'auth', permission: read('products') },
  {
    id: 'dashboard.productCreate',
    pattern: d.productCreate,
    area: 'dashboard',
    access: 'auth',
    permission: create('products'),
  },
  {
    id: 'dashboard.productUpdate',
    pattern: '/dashboard/products/update/:id',
    area: 'dashboard',
    access: 'auth',
    permission: update('products'),
  },
  { id: 'dashboard.brands', pattern: d.brands, area: 'dashboard', access: 'auth', permission: read('brands') },
  {
    id: 'dashboard.brandCreate',
    pattern: d.brandCreate,
    area: 'dashboard',
    access: 'auth',
    permission: create('brands'),
  },
  {
    id: 'dashboard.brandUpdate',
    pattern: '/dashboard/brands/update/:id',
    area: 'dashboard',
    access: 'auth',
    permission: update('brands'),
  },
  { id: 'dashboard.users', pattern: d.users, area: 'dashboard', access: 'auth', permission: read('users') },
  { id: 'dashboard.userCreate', pattern: d.userCreate, area: 'dashboard', access: 'auth', permission: create('users') },
  { id: 'dashboard.usersActive', pattern: d.usersActive, area: 'dashboard', access: 'auth', permission: read('users') },
  { id: 'dashboard.orders', pattern: d.orders, area: 'dashboard', access: 'auth' },
  { id: 'dashboard.orderCreate', pattern: d.orderCreate, area: 'dashboard', access: 'auth' },
  { id: 'dashboard.productionSingle', pattern: d.productionSingle, area: 'dashboard', access: 'auth' },
  { id: 'dashboard.productionGrouped', pattern: d.productionGrouped, area: 'dashboard', access: 'auth' },
  { id: 'dashboard.delivery', pattern: d.delivery, area: 'dashboard', access: 'auth' },
  { id: 'dashboard.deliverySummary', pattern: d.deliverySummary, area: 'dashboard', access: 'auth' },
  { id: 'dashboard.unpaid', pattern: d.unpaid, area: 'dashboard', access: 'auth' },
  { id: 'dashboard.settings', pattern: d.settings, area: 'dashboard', access: 'auth', permission: read('settings') },
  // The staff screen lists and manages every role of the company: staff's `customers` grant is not enough.
  { id: 'dashboard.staff', pattern: d.staff, area: 'dashboard', access: 'auth', permission: read('users', 'company') },
  {
    id: 'dashboard.b2bClients',
    pattern: d.b2bClients,
    area: 'dashboard',
    access: 'auth',
    permission: read('b2bClients'),
  },
  {
    id: 'dashboard.productCollections',
    pattern: d.productCollections,
    area: 'dashboard',
    access: 'auth',
    permission: read('productCollections'),
  },
  {
    id: 'dashboard.productCollectionCreate',
    pattern: d.productCollectionCreate,
    area: 'dashboard',
    access: 'auth',
    permission: create('productCollections'),
  },
  {
    id: 'dashboard.productCollectionUpdate',
    pattern: '/dashboard/product-collections/update/:id',
    area: 'dashboard',
    access: 'auth',
    permission: update('productCollections'),
  },
  { id: 'dashboard.profile', pattern: d.profile, area: 'dashboard', access: 'auth' },
  // Driver, production, customer (spec §2; the profile pages are design §6's additions).
  { id: 'driver', pattern: paths.driver.root, area: 'driver', access: 'auth', redirect: paths.driver.orders },
  { id: 'driver.orders', pattern: paths.driver.orders, area: 'driver', access: 'auth' },
  { id: 'driver.summary', pattern: paths.driver.summary, area: 'driver', access: 'auth' },
  { id: 'driver.profile', pattern: paths.driver.profile, area: 'driver', access: 'auth' },
  {
    id: 'production',
    pattern: paths.production.root,
    area: 'production',
    access: 'auth',
    redirect: paths.production.orders,
  },
  { id: 'production.orders', pattern: paths.production.orders, area: 'production', access: 'auth' },
  { id: 'production.summary', pattern: paths.production.summary, area: 'production', access: 'auth' },
  { id: 'production.profile', pattern: paths.production.profile, area: 'production', access: 'auth' },
  { id: 'customer', pattern: paths.customer.root, area: 'customer', access: 'auth', redirect: paths.customer.profile },
  { id: 'customer.profile', pattern: paths.customer.profile, area: 'customer', access: 'auth' },
  { id: 'customer.history', pattern: paths.customer.history, area: 'customer', access: 'auth' },
];

/** The route table: every route of the app with its area, access and the roles that may open it. */
export const ROUTES: readonly RouteDef[] = SPECS.map((spec) => ({
  ...spec,
  roles: spec.roles ?? rolesFor(spec.area, spec.permission),
}));

const ROUTE_BY_ID = new Map(ROUTES.map((r) => [r.id, r]));

export function routeById(id: string): RouteDef {
  const route = ROUTE_BY_ID.get(id);
  if (!route) throw new Error(`Unknown route ${id}`);
  return route;
}

function matches(pattern: string, pathname: string): boolean {
  const want = pattern.split('/');
  const got = pathname.split('/');
  if (want.length !== got.length) return false;
  return want.every((part, i) => (part.startsWith(':') ? (got[i] ?? '') !== '' : part === got[i]));
}

/** `/dashboard/` is `/dashboard`; the root stays `/`. */
export function normalizePathname(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') || '/' : pathname;
}

/** The route a pathname (no query) opens, or null (a 404). */
export function matchRoute(pathname: string): RouteDef | null {
  const normalized = normalizePathname(pathname);
  return ROUTES.find((r) => matches(r.pattern, normalized)) ?? null;
}

/** The guarded area a pathname lies in, known child or not (`/dashboard/anything` is the dashboard's). */
export function guardedAreaOf(pathname: string): keyof typeof AREA_ROOTS | null {
  const normalized = normalizePathname(pathname);
  for (const [area, root] of Object.entries(AREA_ROOTS) as [keyof typeof AREA_ROOTS, string][]) {
    if (normalized === root || normalized.startsWith(`${root}/`)) return area;
  }
  return null;
}

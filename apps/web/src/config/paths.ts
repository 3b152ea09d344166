import { AREAS } from '@hornada/domain/areas';

/**
 * Every URL of the web app, built in one place (style.md: no path spelled inline elsewhere): spec §2 plus
 * design §4/§6's additions. The screens that open them are the features' route entries (features/<x>/routes.ts),
 * which take their patterns from here; app/route-table.ts composes them.
 */

const seg = (value: string): string => encodeURIComponent(value);

/** A URL with one id segment: called with an id it builds the URL (the id escaped); `.pattern` is the router's. */
function withId<const P extends string>(pattern: P): ((id: string) => string) & { pattern: P } {
  const [before = '', after = ''] = pattern.split(/:[A-Za-z]+/);
  return Object.assign((id: string): string => `${before}${seg(id)}${after}`, { pattern });
}
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
  product: withId('/products/show/:id'),
  collection: withId('/productos/:collectionId'),
  orderSummary: withId('/resumen-de-pedido/:cartId'),
  paymentResponse: '/respuesta-de-pago',
  privacy: '/privacy',
  /** The named route `userDashboard` (design §4): sends the user to their landing page. */
  userDashboard: withId('/cuenta/:id'),
  passwordRecovery: '/recuperar-contrasena',
  passwordReset: (token?: string): string => withQuery('/restablecer-contrasena', 'token', token),
  verifyEmail: (token?: string): string => withQuery('/verificar-correo', 'token', token),
  /** Where the server's Google callback hands over its single-use code or its error (design §3). */
  googleReturn: '/acceso/google',
  /** The server's start of sign-in with Google (a full page load, not a route of the app). */
  googleStart: (redirect?: string): string => withQuery('/api/identity/google/start', 'redirect', redirect),
  dashboard: {
    root: AREAS.dashboard.root,
    showBakery: '/dashboard/show-bakery',
    updateBakery: '/dashboard/update-bakery',
    salesReport: '/dashboard/salesReport',
    ingredients: '/dashboard/ingredients',
    ingredientCreate: '/dashboard/ingredients/create',
    ingredientUpdate: withId('/dashboard/ingredients/update/:id'),
    recipes: '/dashboard/recipes',
    recipeCreate: '/dashboard/recipes/create',
    recipeUpdate: withId('/dashboard/recipes/update/:id'),
    products: '/dashboard/products',
    productCreate: '/dashboard/products/create',
    productUpdate: withId('/dashboard/products/update/:id'),
    brands: '/dashboard/brands',
    brandCreate: '/dashboard/brands/create',
    brandUpdate: withId('/dashboard/brands/update/:id'),
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
    productCollectionUpdate: withId('/dashboard/product-collections/update/:id'),
    profile: '/dashboard/profile',
  },
  driver: {
    root: AREAS.driver.root,
    orders: '/driver/orders',
    summary: '/driver/summary',
    profile: '/driver/profile',
  },
  production: {
    root: AREAS.production.root,
    orders: '/production/orders',
    summary: '/production/summary',
    profile: '/production/profile',
  },
  customer: {
    root: AREAS.customer.root,
    profile: '/customer/profile',
    history: '/customer/history',
  },
} as const;

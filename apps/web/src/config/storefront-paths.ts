/**
 * The URLs a guest's pages link to (the storefront, checkout and sign-in pages), apart from the back office's
 * (config/paths.ts adds those and is where the rest of the app reads every URL): the storefront's first load
 * carries only these (the storefront's first-load budget). Spelled here once; config/paths.ts spreads them.
 */

const seg = (value: string): string => encodeURIComponent(value);

/** A URL with one id segment: called with an id it builds the URL (the id escaped); `.pattern` is the router's. */
export function withId<const P extends string>(pattern: P): ((id: string) => string) & { pattern: P } {
  const [before = '', after = ''] = pattern.split(/:[A-Za-z]+/);
  return Object.assign((id: string): string => `${before}${seg(id)}${after}`, { pattern });
}
const withQuery = (path: string, key: string, value: string | undefined): string =>
  value === undefined ? path : `${path}?${key}=${encodeURIComponent(value)}`;

export const storefrontPaths = {
  home: '/',
  login: '/login',
  /** Where a tab goes when the server ended its session (a disabled account): the login with a notice. */
  loginSessionEnded: (): string => '/login?sesion=terminada',
  /**
   * `/login?redirect=<wanted path>` (docs/product.md §2). Slashes stay readable (`?redirect=/dashboard/products`): a `/` is
   * allowed in a query (RFC 3986 §3.4); everything else that could end the parameter is escaped.
   */
  loginWithRedirect: (wanted: string): string => `/login?redirect=${encodeURIComponent(wanted).replace(/%2F/g, '/')}`,
  signup: '/signup',
  /** A shopper's own customer account; /signup stays the bakery owner's. */
  shopperSignup: '/registro',
  createBakery: '/createBakery',
  cart: '/carrito',
  product: withId('/products/show/:id'),
  collection: withId('/productos/:collectionId'),
  orderSummary: withId('/resumen-de-pedido/:cartId'),
  paymentResponse: '/respuesta-de-pago',
  privacy: '/privacy',
  /** The named route `userDashboard` (docs/design.md §4): sends the user to their landing page. */
  userDashboard: withId('/cuenta/:id'),
  passwordRecovery: '/recuperar-contrasena',
  passwordReset: (token?: string): string => withQuery('/restablecer-contrasena', 'token', token),
  verifyEmail: (token?: string): string => withQuery('/verificar-correo', 'token', token),
  /** Where the server's Google callback hands over its single-use code or its error (docs/design.md §3). */
  googleReturn: '/acceso/google',
  /** The server's start of sign-in with Google (a full page load, not a route of the app). */
  googleStart: (redirect?: string): string => withQuery('/api/identity/google/start', 'redirect', redirect),
} as const;

/** Each account area's profile page, where 'Mi Cuenta' in the header leads (docs/design.md §4's table). */
export const PROFILE_PATHS = {
  dashboard: '/dashboard/profile',
  driver: '/driver/profile',
  production: '/production/profile',
  customer: '/customer/profile',
} as const;

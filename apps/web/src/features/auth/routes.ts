import { paths } from '../../config/paths';
import { defineRoutes } from '../../lib/route-entry';

/**
 * The sign-in pages (docs/product.md §2, docs/design.md §4), client-only. /createBakery is public (a guest is invited to sign up
 * first); the recovery and verification pages are opened from e-mails, possibly signed in: public too.
 * `login`, `googleReturn` and `shopperSignup` have no `lazy` here: app/sign-in-screens.tsx loads their pages with where to go
 * after signing in or up (the guard's decision, which only app/ knows).
 */
export const authRoutes = defineRoutes([
  { id: 'login', pattern: paths.login, area: 'auth', permission: 'guests', title: 'Iniciar sesión' },
  {
    id: 'signup',
    pattern: paths.signup,
    area: 'auth',
    permission: 'guests',
    title: 'Crear cuenta',
    voice: 'platform',
    lazy: () => import('./signup-page'),
  },
  {
    id: 'shopperSignup',
    pattern: paths.shopperSignup,
    area: 'auth',
    permission: 'guests',
    title: 'Crea tu cuenta',
  },
  {
    id: 'createBakery',
    pattern: paths.createBakery,
    area: 'auth',
    permission: 'everyone',
    title: 'Crear tu panadería',
    voice: 'platform',
    lazy: () => import('./create-bakery-page'),
  },
  {
    id: 'passwordRecovery',
    pattern: paths.passwordRecovery,
    area: 'auth',
    permission: 'everyone',
    title: 'Recuperar contraseña',
    lazy: () => import('./password-recovery-page'),
  },
  {
    id: 'passwordReset',
    pattern: paths.passwordReset(),
    area: 'auth',
    permission: 'everyone',
    title: 'Restablecer contraseña',
    lazy: () => import('./password-reset-page'),
  },
  {
    id: 'verifyEmail',
    pattern: paths.verifyEmail(),
    area: 'auth',
    permission: 'everyone',
    title: 'Verificar correo',
    lazy: () => import('./verify-email-page'),
  },
  {
    id: 'googleReturn',
    pattern: paths.googleReturn,
    area: 'auth',
    permission: 'everyone',
    title: 'Iniciar sesión con Google',
  },
  // The named route `userDashboard` (docs/design.md §4): sends any signed-in user to their landing page.
  {
    id: 'userDashboard',
    pattern: paths.userDashboard.pattern,
    area: 'auth',
    permission: 'signedIn',
    title: 'Tu cuenta',
    redirect: 'landing',
  },
]);

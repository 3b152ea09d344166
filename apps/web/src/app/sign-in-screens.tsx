import type { ComponentType } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { paths } from '../config/paths';
import type { SessionUser } from '../lib/auth/session-types';
import { landingPath, signInTarget, type GuardUser } from './guard';
import { REDIRECT_PATH_KEY, storage } from './redirect-path';

/**
 * The sign-in pages with where to go after signing in (the guard's `signInTarget`, which only app/ knows).
 * Loaded with the sign-in pages, never with the storefront's first page.
 */

/**
 * After sign-in (docs/design.md §4): the `?redirect=` query, else the stored redirect path, when it is a path of ours
 * the user may open; else their landing page. The stored path is used once.
 */
/**
 * After `/registro`: its `?redirect=` is followed under /login's rule (signInTarget), so a
 * path another origin reads as its host (`/\\evil.example`) or one the new shopper may not open lands on the
 * shop instead. The stored redirect path is /login's, not the sign-up's.
 */
export function signUpTarget(user: GuardUser, redirect: string | null): string {
  return signInTarget(user, { query: redirect });
}

function LoginRoute(LoginPage: ComponentType<{ afterSignIn: (user: SessionUser) => void }>) {
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
 * After sign-in with Google (docs/product.md §4, docs/design.md §4): an allowed `?redirect=` (or stored) path, else the
 * `userDashboard` route, which sends the user to their landing page.
 */
function googleTarget(user: SessionUser, redirect: string | null): string {
  const to = signInTarget(user, { query: redirect, stored: storage()?.getItem(REDIRECT_PATH_KEY) });
  storage()?.removeItem(REDIRECT_PATH_KEY);
  return to === landingPath(user) ? paths.userDashboard(user.uid) : to;
}

export async function loginScreen(): Promise<{ Component: ComponentType }> {
  const { LoginPage } = await import('../features/auth/login-page');
  return { Component: LoginRoute(LoginPage) };
}

export async function googleReturnScreen(): Promise<{ Component: ComponentType }> {
  const { GoogleReturnPage } = await import('../features/auth/google-return-page');
  return { Component: () => <GoogleReturnPage afterSignIn={googleTarget} /> };
}

export async function shopperSignupScreen(): Promise<{ Component: ComponentType }> {
  const { ShopperSignupPage } = await import('../features/auth/shopper-signup-page');
  return {
    Component: function ShopperSignup() {
      const navigate = useNavigate();
      const [search] = useSearchParams();
      return (
        <ShopperSignupPage
          afterSignUp={(user) => void navigate(signUpTarget(user, search.get('redirect')), { replace: true })}
        />
      );
    },
  };
}

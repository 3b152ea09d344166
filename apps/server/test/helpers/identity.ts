/**
 * What the identity files (identity-register, identity-signin, identity-users) share: one password,
 * the app they boot, and the calls they make, bound late to that app.
 */
import { identityCalls, setupTestApp, type TestApp } from './app';

export const PASSWORD = 'pan-de-bono-tibio';

/**
 * A listening app (the access tests watch change streams). Limits per address have their own file
 * (identity-limits); here every call comes from 127.0.0.1, so they are lifted out of the way. Close it with
 * closeListeningApp (helpers/live).
 */
export function setupIdentityApp(): Promise<TestApp> {
  return setupTestApp({
    listen: true,
    env: { RATE_LIMIT_SIGNIN_ADDRESS: '100000', RATE_LIMIT_REGISTER_ADDRESS: '100000' },
  });
}

/** Sign-in, registration, a bakery and a refresh on the file's app; `app()` is read at each call, after beforeAll. */
export function lateIdentityCalls(app: () => TestApp) {
  const calls = () => identityCalls(app(), PASSWORD);
  return {
    signIn: (email: string, password = PASSWORD, headers: Record<string, string> = {}) =>
      calls().signIn(email, password, headers),
    registerAdmin: (email: string, password = PASSWORD, name = 'Dueña de Panadería') =>
      calls().registerAdmin(email, password, name),
    bakery: (email: string, extra: Record<string, unknown> = {}) => calls().bakery(email, extra),
    verifyEmail: (email: string, resend = false, accept = false) => calls().verifyEmail(email, resend, accept),
    refresh: (cookie?: string, headers: Record<string, string> = {}) =>
      app().call({
        method: 'POST',
        url: '/api/identity/refresh',
        headers: { ...headers, ...(cookie ? { cookie } : {}) },
      }),
  };
}

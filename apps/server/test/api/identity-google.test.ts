/**
 * Sign-in with Google, the parts that need no issuer (the browser flow against a local oidc-provider is
 * e2e/google.spec.ts): off unless configured; the exchange code is single-use and lives 60 seconds;
 * docs/product.md §7's google-auth registers a Google user once, as a customer of the market, whatever role and
 * companyId the client sends.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users, userIdentities } from '../../src/db/schema';
import { issueActionToken } from '../../src/modules/identity/action-tokens';
import { bindCode, GOOGLE_BROWSER_COOKIE, newBrowserCookie } from '../../src/modules/identity/google.service';
import { json, refreshCookieOf, setupTestApp, type TestApp } from '../helpers/app';
import { newId } from '../../src/lib/ids';

const GOOGLE = {
  GOOGLE_OIDC_ISSUER: 'http://127.0.0.1:9/issuer',
  GOOGLE_CLIENT_ID: 'hornada-test',
  GOOGLE_CLIENT_SECRET: 'secreto-de-prueba',
};
let t: TestApp;
let market: string;

beforeAll(async () => {
  t = await setupTestApp({ env: GOOGLE });
  market = await t.company('Mercado');
  // The storefront's company: the first one created when MARKET_COMPANY_ID is unset.
  expect(await t.app.ctx.marketCompanyId()).toBe(market);
});
afterAll(async () => {
  await t?.close();
});

/** A user as the callback creates it: a customer with no company yet, linked to a Google subject. */
async function googleUser(email: string) {
  const uid = newId();
  const now = t.clock.now();
  await t.db.insert(users).values({
    id: uid,
    email,
    name: 'Gina Google',
    role: 'company_customer',
    companyId: null,
    emailVerified: true,
    createdAt: now,
    updatedAt: now,
  });
  await t.db.insert(userIdentities).values({ provider: 'google', subject: `sub-${uid}`, userId: uid, createdAt: now });
  return uid;
}

/** A code as the callback hands it, bound to this test's browser (whose cookie the exchange asks for). */
const googleCode = async (uid: string, purpose: 'google-code' | 'password-reset' = 'google-code') => {
  browser ??= newBrowserCookie(t.keys);
  return bindCode(t.keys, await issueActionToken(t.db, t.clock, uid, purpose), browser.browser);
};
let browser: { browser: string; cookie: string } | undefined;
const exchange = (code: string) =>
  t.call({
    method: 'POST',
    url: '/api/identity/google/exchange',
    payload: { code },
    headers: browser ? { cookie: `${GOOGLE_BROWSER_COOKIE}=${browser.cookie}` } : {},
  });

describe('google sign-in without an issuer', () => {
  it('is off when not configured: the config says so and the paths are 404', async () => {
    const off = await setupTestApp();
    try {
      const config = json<{ data: { googleSignIn: boolean } }>(await off.call({ method: 'GET', url: '/api/config' }));
      expect(config.data.googleSignIn).toBe(false);
      expect((await off.call({ method: 'GET', url: '/api/identity/google/start' })).statusCode).toBe(404);
      expect(
        (await off.call({ method: 'POST', url: '/api/identity/google/exchange', payload: { code: 'a.b' } })).statusCode,
      ).toBe(404);
    } finally {
      await off.close();
    }
    expect(
      json<{ data: { googleSignIn: boolean } }>(await t.call({ method: 'GET', url: '/api/config' })).data.googleSignIn,
    ).toBe(true);
  });

  it('sends the browser to the Spanish error page when the issuer cannot be reached', async () => {
    const res = await t.call({ method: 'GET', url: '/api/identity/google/start?redirect=/carrito' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('http://localhost:0/acceso/google?error=provider');
  });

  it('a callback without the flow cookie is refused as a bad state', async () => {
    const res = await t.call({ method: 'GET', url: '/api/identity/google/callback?code=abc&state=xyz' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('http://localhost:0/acceso/google?error=state');
  });

  it('exchanges a code once, within 60 seconds, for a session', async () => {
    const uid = await googleUser('gina@gmail.test');
    const code = await googleCode(uid);
    const ok = await exchange(code);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.headers['cache-control']).toBe('no-store');
    expect(refreshCookieOf(ok)).toBeDefined();
    expect(json<{ data: { user: { uid: string } } }>(ok).data.user.uid).toBe(uid);
    expect(json(await exchange(code)).code).toBe('auth/invalid-action-code');

    const late = await googleCode(uid);
    t.clock.advance(61_000);
    expect(json(await exchange(late)).code).toBe('auth/expired-action-code');
    // A reset or verification code is not a Google code.
    const reset = await googleCode(uid, 'password-reset');
    expect(json(await exchange(reset)).code).toBe('auth/invalid-action-code');
  });

  it("google-auth registers a new Google user once, as the market's customer, ignoring the client's role and company", async () => {
    const uid = await googleUser('nuevo@gmail.test');
    const other = await t.company('Otra panadería');
    const token = json<{ data: { idToken: string } }>(await exchange(await googleCode(uid))).data.idToken;
    const payload = {
      idToken: token,
      email: 'nuevo@gmail.test',
      name: 'Gina Google',
      user: { uid },
      additionalUserInfo: { isNewUser: true },
      uid,
      role: 'company_admin',
      companyId: other,
    };
    const first = await t.call({ method: 'POST', url: '/api/auth/google-auth', token, payload });
    expect(first.statusCode, first.body).toBe(200);
    expect(json(first).data).toMatchObject({
      registered: true,
      user: { uid, role: 'company_customer', companyId: market },
    });
    const again = await t.call({ method: 'POST', url: '/api/auth/google-auth', token, payload });
    expect(json(again).data).toMatchObject({
      registered: false,
      user: { role: 'company_customer', companyId: market },
    });
    // Another user's e-mail, or no token: refused.
    expect(
      (
        await t.call({
          method: 'POST',
          url: '/api/auth/google-auth',
          token,
          payload: { ...payload, email: 'x@y.test' },
        })
      ).statusCode,
    ).toBe(401);
    expect((await t.call({ method: 'POST', url: '/api/auth/google-auth', payload })).statusCode).toBe(401);
  });

  it('google-auth is only for accounts that signed in with Google', async () => {
    const plain = await t.user('company_customer', null);
    const res = await t.call({
      method: 'POST',
      url: '/api/auth/google-auth',
      token: plain.token,
      payload: { email: plain.email, role: 'company_customer', companyId: market },
    });
    expect(res.statusCode).toBe(403);
  });
});

import { describe, expect, it } from 'vitest';
import { ERROR_TEXTS_ES } from '@hornada/domain/errors';
import { AUTH_MESSAGES } from '@hornada/domain/identity';
import { AUTH_EMAIL_KEY, AUTH_NAME_KEY } from './session-types';
import { AUTH_TOKEN_KEY } from '../api/http';
import { SESSION_ID_KEY } from './session-id';
import { REFRESH_MARGIN_MS } from './token-refresh';
import { TTL_S, fake, makeToken, sharedStorage, tab, rejection, exp, settle, ana } from './auth-store.fixture';

describe('session id', () => {
  it('is restored from local storage', () => {
    const shared = sharedStorage();
    shared.data.set(SESSION_ID_KEY, 'AbCdEfGhIj0123456789');
    expect(tab(shared).state().sessionId).toBe('AbCdEfGhIj0123456789');
  });

  it('is a new 20-character alphanumeric string when none is stored, then stored', () => {
    const shared = sharedStorage();
    const { sessionId } = tab(shared).state();
    expect(sessionId).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(shared.data.get(SESSION_ID_KEY)).toBe(sessionId);
    expect(tab(sharedStorage()).state().sessionId).not.toBe(sessionId);
  });
});

describe('login', () => {
  it('signs in, runs the backend login with the new token, and stores user, token and e-mail', async () => {
    const t = tab();
    const user = await t.state().login('ana@example.com', 'pan-de-bono-42');
    expect(user).toEqual({
      uid: 'u-ana',
      email: 'ana@example.com',
      name: 'Ana María (backend)',
      role: 'company_admin',
      companyId: 'c-1',
      emailVerified: true,
    });
    const { idToken } = t.state();
    expect(idToken).toMatch(/^ey/);
    expect(t.state()).toMatchObject({ user, loading: false, error: null });
    expect(fake.backendLoginAuth).toEqual([`Bearer ${idToken}`]);
    expect(t.shared.data.get(AUTH_TOKEN_KEY)).toBe(idToken);
    expect(t.shared.data.get(AUTH_EMAIL_KEY)).toBe('ana@example.com');
    // A refresh is scheduled ~60 s before the token expires.
    const [timer] = [...t.clock.pending.values()];
    expect(timer!.ms).toBeGreaterThan(TTL_S * 1000 - REFRESH_MARGIN_MS - 2000);
    expect(timer!.ms).toBeLessThanOrEqual(TTL_S * 1000 - REFRESH_MARGIN_MS);
  });

  it("on a backend login failure signs out of the identity service and raises the server's error field", async () => {
    fake.backendMode = 'error-field';
    const t = tab();
    const err = await rejection(t.state().login('ana@example.com', 'pan-de-bono-42'));
    expect(err.message).toBe('Database unreachable');
    expect(err.userMessage).toBe(ERROR_TEXTS_ES.unavailable);
    expect(fake.calls.signOut).toBe(1);
    expect(fake.jar).toBeNull();
    expect(t.state()).toMatchObject({ user: null, idToken: null, loading: false, error: err });
    expect(t.shared.data.has(AUTH_TOKEN_KEY)).toBe(false);
  });

  it("raises 'Backend authentication failed' when the backend's answer has no error field", async () => {
    fake.backendMode = 'empty-500';
    const t = tab();
    const err = await rejection(t.state().login('ana@example.com', 'pan-de-bono-42'));
    expect(err.message).toBe(AUTH_MESSAGES.backendAuthFailed);
    expect(fake.calls.signOut).toBe(1);
    expect(t.state().user).toBeNull();
  });

  it("keeps 'Invalid email or password.' for a wrong password, with the Spanish text to show", async () => {
    const t = tab();
    const err = await rejection(t.state().login('ana@example.com', 'wrong-password'));
    expect(err).toMatchObject({
      message: 'Invalid email or password.',
      status: 401,
      code: 'auth/invalid-credential',
      userMessage: 'Correo o contraseña incorrectos.',
    });
    expect(fake.calls.backendLogin).toBe(0);
    expect(t.state()).toMatchObject({ user: null, idToken: null, loading: false, error: err });
  });

  it("gives docs/product.md §8's texts for sign-in switched off and for a disabled account, whatever the server wrote", async () => {
    const t = tab();
    fake.signInFails = { status: 403, body: { message: 'E-mail sign-in is off', code: 'auth/operation-not-allowed' } };
    const off = await rejection(t.state().login('ana@example.com', 'x'));
    expect(off.message).toBe('Email/Password sign-in is not enabled. Please contact support.');
    expect(off.userMessage).toBe(ERROR_TEXTS_ES['auth/operation-not-allowed']);
    fake.signInFails = { status: 403, body: { message: 'Nope', code: 'auth/user-disabled' } };
    expect((await rejection(t.state().login('ana@example.com', 'x'))).message).toBe('This account has been disabled.');
    fake.signInFails = { status: 500, body: {} };
    expect((await rejection(t.state().login('ana@example.com', 'x'))).message).toBe('Login failed. Please try again.');
  });
});

describe('logout', () => {
  it('ends the server session, then clears user, token, the stored token and e-mail', async () => {
    const t = tab();
    await t.state().login('ana@example.com', 'pan-de-bono-42');
    const { sessionId } = t.state();
    fake.signOutFails = true; // its failure is ignored
    await t.state().logout();
    expect(fake.calls.signOut).toBe(1);
    expect(t.state()).toMatchObject({ user: null, idToken: null, loading: false, error: null, sessionId });
    expect(t.shared.data.has(AUTH_TOKEN_KEY)).toBe(false);
    expect(t.shared.data.has(AUTH_EMAIL_KEY)).toBe(false);
    expect(t.clock.pending.size).toBe(0);
  });
});

describe('signInWithGoogle', () => {
  it("runs the page's start-up check first: no second session races the exchange's", async () => {
    const t = tab();
    // The session's start-up check begins just as the exchange has set the browser's new cookie.
    fake.onExchange = () => void t.state().whenReady();
    expect(await t.state().signInWithGoogle('codigo-ana')).toMatchObject({ uid: 'u-ana', companyId: 'c-1' });
    await t.state().whenReady();
    await settle();
    // The check's refresh went before the exchange, with no cookie, so it started no session of its own
    // (whose backend login would run beside google-auth's).
    expect(fake.calls).toMatchObject({ refresh: 1, exchange: 1, googleAuth: 1, backendLogin: 0 });
    expect(t.state().user).toMatchObject({ uid: 'u-ana' });
  });
});

describe('checkAuth', () => {
  it('uses a valid stored token without refreshing and runs the backend login', async () => {
    const shared = sharedStorage();
    const token = makeToken(ana());
    shared.data.set(AUTH_TOKEN_KEY, token);
    shared.data.set(AUTH_EMAIL_KEY, 'ana@example.com');
    const t = tab(shared);
    const check = t.state().checkAuth();
    expect(t.state().loading).toBe(true);
    const user = await check;
    expect(fake.calls.refresh).toBe(0);
    expect(fake.backendLoginAuth).toEqual([`Bearer ${token}`]);
    expect(user).toEqual({
      uid: 'u-ana',
      email: 'ana@example.com',
      name: 'Ana María (backend)',
      role: 'company_admin',
      companyId: 'c-1',
      emailVerified: true, // from GET /api/me: a stored token comes without the identity user
    });
    expect(t.state()).toMatchObject({ user, idToken: token, loading: false, error: null });
  });

  it('refreshes an expired stored token and stores the new one', async () => {
    const shared = sharedStorage();
    const expired = makeToken(ana(), -10);
    shared.data.set(AUTH_TOKEN_KEY, expired);
    shared.data.set(AUTH_EMAIL_KEY, 'ana@example.com');
    fake.jar = 'rt-u-ana-1';
    const t = tab(shared);
    const user = await t.state().checkAuth();
    expect(fake.calls.refresh).toBe(1);
    const { idToken } = t.state();
    expect(idToken).not.toBe(expired);
    expect(exp(idToken!)).toBeGreaterThan(Date.now() + REFRESH_MARGIN_MS);
    expect(shared.data.get(AUTH_TOKEN_KEY)).toBe(idToken);
    expect(user).toMatchObject({ uid: 'u-ana', name: 'Ana María (backend)', emailVerified: true });
  });

  it('clears the state without throwing when there is no session', async () => {
    const shared = sharedStorage();
    shared.data.set(AUTH_TOKEN_KEY, makeToken(ana(), -10));
    shared.data.set(AUTH_EMAIL_KEY, 'ana@example.com');
    const t = tab(shared);
    t.store.setState({ user: { ...ana(), emailVerified: true, role: 'company_admin' }, idToken: 'stale' });
    await expect(t.state().checkAuth()).resolves.toBeNull();
    expect(fake.calls.refresh).toBe(1);
    expect(t.state()).toMatchObject({ user: null, idToken: null, loading: false, error: null });
    expect(shared.data.has(AUTH_TOKEN_KEY)).toBe(false);
    expect(shared.data.has(AUTH_EMAIL_KEY)).toBe(false);
  });

  it("continues with the identity service's user data when the backend login fails", async () => {
    fake.jar = 'rt-u-ana-1';
    fake.backendMode = 'down';
    const t = tab();
    const user = await t.state().checkAuth();
    expect(fake.calls.backendLogin).toBe(1);
    // Name and verification from /refresh's user, role and company from the token's claims.
    expect(user).toEqual({
      uid: 'u-ana',
      email: 'ana@example.com',
      name: 'Ana María',
      role: 'company_admin',
      companyId: 'c-1',
      emailVerified: true,
    });
    expect(t.state()).toMatchObject({ user, loading: false, error: null });
    expect(t.state().idToken).toBe(t.shared.data.get(AUTH_TOKEN_KEY));
  });

  it('names the user as this phone last knew them when neither the backend nor /me answers', async () => {
    const t = tab();
    await t.state().login('ana@example.com', 'pan-de-bono-42');
    expect(t.shared.data.get(AUTH_NAME_KEY)).toBe(JSON.stringify({ uid: 'u-ana', name: 'Ana María (backend)' }));
    fake.backendMode = 'down';
    fake.meDown = true;
    const offline = tab(t.shared);
    expect(await offline.state().checkAuth()).toMatchObject({ uid: 'u-ana', name: 'Ana María (backend)' });
    // Another user's token on the same phone never gets her name.
    t.shared.data.set(AUTH_NAME_KEY, JSON.stringify({ uid: 'u-otro', name: 'Otro' }));
    expect(await tab(t.shared).state().checkAuth()).toMatchObject({ uid: 'u-ana', name: '' });
    // Logout forgets it.
    fake.backendMode = 'ok';
    fake.meDown = false;
    await t.state().logout();
    expect(t.shared.data.has(AUTH_NAME_KEY)).toBe(false);
  });

  it('whenReady runs the first check once and resolves after it', async () => {
    fake.jar = 'rt-u-ana-1';
    const t = tab();
    const a = t.state().whenReady();
    const b = t.state().whenReady();
    await Promise.all([a, b]);
    expect(fake.calls.refresh).toBe(1);
    expect(t.state().user?.uid).toBe('u-ana');
  });
});

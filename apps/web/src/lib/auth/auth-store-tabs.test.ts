import { describe, expect, it, vi } from 'vitest';
import { ERROR_TEXTS_ES } from '@hornada/domain/errors';
import { storageTokens } from './session-answers';
import { AUTH_EMAIL_KEY } from './session-types';
import { AUTH_TOKEN_KEY, createHttpClient } from '../api/http';
import { createMemoryLocks, noLocks, REFRESH_MARGIN_MS, type AuthLocks } from './token-refresh';
import {
  FakeUser,
  TTL_S,
  fake,
  makeToken,
  origin,
  sharedStorage,
  tab,
  rejection,
  exp,
  settle,
  ana,
} from './auth-store.fixture';

describe('refresh between tabs', () => {
  async function twoTabsPastExpiry(locks: () => AuthLocks) {
    const shared = sharedStorage();
    shared.data.set(AUTH_TOKEN_KEY, makeToken(ana(), -10));
    shared.data.set(AUTH_EMAIL_KEY, 'ana@example.com');
    fake.jar = 'rt-u-ana-1';
    fake.refreshDelayMs = 100; // both requests would be in flight together
    const a = tab(shared, locks());
    const b = tab(shared, locks());
    await Promise.all([a.state().checkAuth(), b.state().checkAuth()]);
    return { a, b, shared };
  }

  it('lets one tab call /refresh; the other adopts the token it stored', async () => {
    const one = createMemoryLocks();
    const { a, b, shared } = await twoTabsPastExpiry(() => one);
    expect(fake.calls.refresh).toBe(1);
    expect(fake.familyRevoked).toBe(false);
    expect(a.state().idToken).toBe(b.state().idToken);
    expect(a.state().idToken).toBe(shared.data.get(AUTH_TOKEN_KEY));
    expect(exp(a.state().idToken!)).toBeGreaterThan(Date.now() + REFRESH_MARGIN_MS);
    expect(b.state().user?.uid).toBe('u-ana');
  });

  it('without a shared lock both tabs spend the cookie and the session family is revoked (what the lock prevents)', async () => {
    await twoTabsPastExpiry(() => noLocks);
    expect(fake.calls.refresh).toBe(2);
    expect(fake.familyRevoked).toBe(true);
  });

  it('refreshes when the scheduled timer fires, ~60 s before expiry', async () => {
    const t = tab();
    await t.state().login('ana@example.com', 'pan-de-bono-42');
    const first = t.state().idToken;
    const [timer] = [...t.clock.pending.values()];
    t.time.shift = timer!.ms; // the tab's clock reaches the scheduled moment
    t.clock.fireAll();
    // The refresh crosses a real socket: wait for its outcome rather than a fixed 50 ms (a loaded machine).
    await vi.waitFor(() => expect(t.state().idToken).not.toBe(first), { timeout: 5000 });
    expect(fake.calls.refresh).toBe(1);
    expect(t.shared.data.get(AUTH_TOKEN_KEY)).toBe(t.state().idToken);
    // The next refresh, again ~60 s before the new token expires (by the server's clock, not the shifted one).
    expect([...t.clock.pending.values()].map((p) => p.ms)).toEqual([
      expect.closeTo(TTL_S * 1000 - REFRESH_MARGIN_MS, -4),
    ]);
  });

  it('adopts a token another tab stored, and clears the user when another tab logs out', async () => {
    const shared = sharedStorage();
    const a = tab(shared);
    const b = tab(shared);
    await a.state().login('ana@example.com', 'pan-de-bono-42');
    await settle();
    expect(b.state().idToken).toBe(a.state().idToken);
    expect(b.state().user).toEqual(a.state().user);
    await a.state().logout();
    await settle();
    expect(b.state()).toMatchObject({ user: null, idToken: null });
  });
});

describe('401 handling', () => {
  function apiFor(t: ReturnType<typeof tab>) {
    const handled: Promise<void>[] = [];
    const api = createHttpClient({
      baseUrl: `${origin}/api`,
      timeoutMs: 2000,
      tokenStorage: storageTokens(t.storage),
      onUnauthorized: () => handled.push(t.state().handleUnauthorized()),
    });
    return { api, handled };
  }

  it('a 401 makes the store try one refresh, and the new token works', async () => {
    const t = tab();
    await t.state().login('ana@example.com', 'pan-de-bono-42');
    const old = t.state().idToken!;
    fake.revokedTokens.add(old);
    const { api, handled } = apiFor(t);
    await rejection(api.get('/protected'));
    await Promise.all(handled);
    expect(handled).toHaveLength(1);
    expect(fake.calls.refresh).toBe(1);
    expect(t.state().idToken).not.toBe(old);
    expect(t.state().user?.uid).toBe('u-ana');
    await expect(api.get('/protected')).resolves.toEqual({ uid: 'u-ana' });
  });

  it('clears the user when the refresh after a 401 finds no session', async () => {
    const t = tab();
    await t.state().login('ana@example.com', 'pan-de-bono-42');
    fake.revokedTokens.add(t.state().idToken!);
    fake.jar = null; // the session ended on the server
    const { api, handled } = apiFor(t);
    await rejection(api.get('/protected'));
    await Promise.all(handled);
    expect(fake.calls.refresh).toBe(1);
    expect(t.state()).toMatchObject({ user: null, idToken: null });
  });
});

describe('signup, refreshUser and changePassword', () => {
  it('signupAdmin registers a company_admin with no company and no token, then logs in', async () => {
    const shared = sharedStorage();
    shared.data.set(AUTH_TOKEN_KEY, makeToken(ana(), -10)); // a stale token must not be sent
    const t = tab(shared);
    const user = await t.state().signupAdmin({ name: 'Beto', email: 'beto@example.com', password: 'almojabana-77' });
    // The real server reads an empty Authorization header as none (plugins/auth.ts).
    expect(fake.registerAuth).toHaveLength(1);
    expect(fake.registerAuth[0] ?? '').toBe('');
    expect(fake.users.get('beto@example.com')).toMatchObject({ role: 'company_admin', companyId: null });
    expect(user).toMatchObject({ email: 'beto@example.com', role: 'company_admin', companyId: null });
    expect(t.state().user).toEqual(user);
  });

  it('signupAdmin keeps the registration error message', async () => {
    const t = tab();
    const err = await rejection(
      t.state().signupAdmin({ name: 'Ana', email: 'ana@example.com', password: 'x12345678' }),
    );
    expect(err).toMatchObject({ message: 'Email already in use', userMessage: ERROR_TEXTS_ES['auth/email-in-use'] });
    expect(fake.calls.signIn).toBe(0);
    expect(t.state().error).toBe(err);
  });

  it('refreshUser re-reads the company after createBakery', async () => {
    const beto: FakeUser = {
      uid: 'u-beto',
      email: 'beto@example.com',
      password: 'almojabana-77',
      name: 'Beto',
      role: 'company_admin',
      companyId: null,
      emailVerified: false,
    };
    fake.users.set(beto.email, beto);
    const t = tab();
    await t.state().login(beto.email, beto.password);
    expect(t.state().user?.companyId).toBeNull();
    const api = createHttpClient({ baseUrl: `${origin}/api`, tokenStorage: storageTokens(t.storage) });
    await api.post('/companies', { name: 'Panadería Nueva' });
    await expect(t.state().refreshUser()).resolves.toMatchObject({ companyId: 'c-new' });
    expect(t.state().user?.companyId).toBe('c-new');
  });

  it('changePassword adopts the fresh session; a wrong current password is an error with its Spanish text', async () => {
    const t = tab();
    await t.state().login('ana@example.com', 'pan-de-bono-42');
    const old = t.state().idToken;
    const err = await rejection(t.state().changePassword('not-it', 'nueva-clave-123'));
    expect(err).toMatchObject({
      message: 'The current password is not correct',
      userMessage: ERROR_TEXTS_ES['auth/wrong-password'],
    });
    expect(t.state().idToken).toBe(old);
    await t.state().changePassword('pan-de-bono-42', 'nueva-clave-123');
    const fresh = t.state().idToken!;
    expect(fresh).not.toBe(old);
    expect(fake.revokedTokens.has(fresh)).toBe(false);
    expect(t.shared.data.get(AUTH_TOKEN_KEY)).toBe(fresh);
    expect(t.state()).toMatchObject({ error: null, user: { uid: 'u-ana', role: 'company_admin' } });
  });
});

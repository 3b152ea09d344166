import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ERROR_TEXTS_ES } from '@hornada/domain/errors';
import { AUTH_MESSAGES } from '@hornada/domain/identity';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAuthStore } from './auth-store';
import { storageTokens } from './session-answers';
import {
  AUTH_EMAIL_KEY,
  AUTH_NAME_KEY,
  type AuthState,
  type AuthTimers,
  type StorageChangeListener,
  type StorageEvents,
} from './session-types';
import { ApiError, AUTH_TOKEN_KEY, createHttpClient } from '../api/http';
import { SESSION_ID_KEY, type KeyValueStorage } from './session-id';
import { createMemoryLocks, noLocks, REFRESH_MARGIN_MS, type AuthLocks } from './token-refresh';
import type { StoreApi } from 'zustand/vanilla';

/**
 * A real HTTP server on 127.0.0.1 imitating the identity endpoints of apps/server (same paths, bodies,
 * status codes and error envelopes). Node's fetch keeps no cookies, so the fake keeps the browser's
 * refresh cookie itself (`fake.jar`, one browser): /refresh rotates it, /sign-out clears it. A /refresh
 * that arrives while another is still being answered is what two tabs spending the same cookie look like
 * to the real server, so the fake then revokes the family, as refresh-tokens.ts does.
 */

interface FakeUser {
  uid: string;
  email: string;
  password: string;
  name: string;
  role: string;
  companyId: string | null;
  emailVerified: boolean;
}

type BackendMode = 'ok' | 'error-field' | 'empty-500' | 'down';

const TTL_S = 3600;

const fake = {
  users: new Map<string, FakeUser>(),
  /** The refresh cookie the browser holds; null when signed out. */
  jar: null as string | null,
  familyRevoked: false,
  issued: new Set<string>(),
  revokedTokens: new Set<string>(),
  calls: { signIn: 0, refresh: 0, signOut: 0, backendLogin: 0, register: 0, me: 0, exchange: 0, googleAuth: 0 },
  backendLoginAuth: [] as (string | undefined)[],
  registerAuth: [] as (string | undefined)[],
  backendMode: 'ok' as BackendMode,
  signInFails: null as null | { status: number; body: unknown },
  signOutFails: false,
  /** GET /api/me gets no answer (a phone without signal). */
  meDown: false,
  refreshDelayMs: 0,
  refreshInFlight: 0,
  tokenCounter: 0,
  /** Runs as the exchange answers (the page's start-up check beginning just then). */
  onExchange: null as null | (() => void),
};

function resetFake(): void {
  fake.users = new Map([
    [
      'ana@example.com',
      {
        uid: 'u-ana',
        email: 'ana@example.com',
        password: 'pan-de-bono-42',
        name: 'Ana María',
        role: 'company_admin',
        companyId: 'c-1',
        emailVerified: true,
      },
    ],
  ]);
  fake.jar = null;
  fake.familyRevoked = false;
  fake.issued = new Set();
  fake.revokedTokens = new Set();
  fake.calls = { signIn: 0, refresh: 0, signOut: 0, backendLogin: 0, register: 0, me: 0, exchange: 0, googleAuth: 0 };
  fake.backendLoginAuth = [];
  fake.registerAuth = [];
  fake.backendMode = 'ok';
  fake.signInFails = null;
  fake.signOutFails = false;
  fake.meDown = false;
  fake.refreshDelayMs = 0;
  fake.refreshInFlight = 0;
  fake.onExchange = null;
}

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** An id token shaped like the server's (claims sub, email, role, companyId, iat, exp); the signature is fake. */
function makeToken(user: FakeUser, ttlSeconds = TTL_S): string {
  fake.tokenCounter += 1;
  const now = Math.floor(Date.now() / 1000);
  const token = [
    b64url({ alg: 'EdDSA', typ: 'JWT' }),
    b64url({
      sub: user.uid,
      email: user.email,
      role: user.role,
      companyId: user.companyId,
      iat: now,
      exp: now + ttlSeconds,
    }),
    `sig${fake.tokenCounter}`,
  ].join('.');
  fake.issued.add(token);
  return token;
}

function userByToken(req: IncomingMessage): FakeUser | null {
  const token = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
  if (!token || !fake.issued.has(token) || fake.revokedTokens.has(token)) return null;
  const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sub: string; exp: number };
  if (claims.exp * 1000 <= Date.now()) return null;
  return [...fake.users.values()].find((u) => u.uid === claims.sub) ?? null;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

const appError = (res: ServerResponse, status: number, code: string, message: string) =>
  json(res, status, { message, error: message, code });

function session(user: FakeUser) {
  fake.jar = `rt-${user.uid}-${fake.tokenCounter + 1}`;
  return {
    data: {
      idToken: makeToken(user),
      expiresIn: TTL_S,
      user: { uid: user.uid, email: user.email, name: user.name, emailVerified: user.emailVerified },
    },
  };
}

type Handler = (req: IncomingMessage, res: ServerResponse, body: Record<string, unknown>) => void;

const routes: Record<string, Handler> = {
  'POST /api/identity/sign-in': (_req, res, body) => {
    fake.calls.signIn += 1;
    if (fake.signInFails) return json(res, fake.signInFails.status, fake.signInFails.body);
    const user = fake.users.get(String(body.email).toLowerCase());
    if (!user || user.password !== body.password) {
      return appError(res, 401, 'auth/invalid-credential', AUTH_MESSAGES.invalidCredential);
    }
    json(res, 200, session(user));
  },
  'POST /api/identity/refresh': (_req, res) => {
    fake.calls.refresh += 1;
    if (fake.refreshInFlight > 0) {
      // The same cookie spent twice: the whole family is revoked.
      fake.familyRevoked = true;
      fake.jar = null;
      return appError(res, 401, 'auth/invalid-token', 'Session expired, sign in again');
    }
    if (!fake.jar) return json(res, 200, { data: null });
    fake.refreshInFlight += 1;
    setTimeout(() => {
      fake.refreshInFlight -= 1;
      if (fake.familyRevoked || !fake.jar)
        return appError(res, 401, 'auth/invalid-token', 'Session expired, sign in again');
      const user = [...fake.users.values()].find((u) => fake.jar?.startsWith(`rt-${u.uid}-`));
      json(res, 200, session(user!));
    }, fake.refreshDelayMs);
  },
  'POST /api/identity/sign-out': (_req, res) => {
    fake.calls.signOut += 1;
    fake.jar = null;
    if (fake.signOutFails) return res.writeHead(500).end();
    json(res, 200, { data: null });
  },
  'POST /api/auth/login': (req, res, body) => {
    fake.calls.backendLogin += 1;
    fake.backendLoginAuth.push(req.headers.authorization);
    if (fake.backendMode === 'error-field') {
      return json(res, 503, { message: 'Service unavailable', error: 'Database unreachable', code: 'unavailable' });
    }
    if (fake.backendMode === 'empty-500') return res.writeHead(500).end();
    if (fake.backendMode === 'down') return req.socket.destroy();
    const user = userByToken(req);
    if (!user) return appError(res, 401, 'auth/invalid-token', 'Invalid or expired token');
    if (body.email !== user.email) return appError(res, 401, 'auth/email-mismatch', AUTH_MESSAGES.backendAuthFailed);
    json(res, 200, { data: { name: `${user.name} (backend)`, role: user.role, companyId: user.companyId } });
  },
  'POST /api/identity/google/exchange': (_req, res, body) => {
    fake.calls.exchange += 1;
    if (body.code !== 'codigo-ana') return appError(res, 400, 'auth/invalid-action-code', 'This code is not valid');
    json(res, 200, session(ana()));
    fake.onExchange?.();
  },
  'POST /api/auth/google-auth': (req, res) => {
    fake.calls.googleAuth += 1;
    const user = userByToken(req);
    if (!user) return appError(res, 401, 'auth/invalid-token', 'Invalid or expired token');
    const { uid, email, name, role, companyId, emailVerified } = user;
    json(res, 200, { data: { registered: false, user: { uid, email, name, role, companyId, emailVerified } } });
  },
  'POST /api/auth/register': (req, res, body) => {
    fake.calls.register += 1;
    fake.registerAuth.push(req.headers.authorization);
    const email = String(body.email).toLowerCase();
    if (fake.users.has(email)) return appError(res, 409, 'auth/email-in-use', 'Email already in use');
    if (fake.registerAuth.at(-1)) return appError(res, 401, 'auth/invalid-token', 'Invalid or expired token');
    const user: FakeUser = {
      uid: `u-${fake.users.size + 1}`,
      email,
      password: String(body.password),
      name: String(body.name),
      role: String(body.role),
      companyId: body.companyId === null ? null : String(body.companyId),
      emailVerified: false,
    };
    fake.users.set(email, user);
    json(res, 201, { data: { user: { uid: user.uid, email, name: user.name, role: user.role, companyId: null } } });
  },
  'POST /api/companies': (req, res) => {
    const user = userByToken(req);
    if (!user) return appError(res, 401, 'auth/invalid-token', 'Invalid or expired token');
    user.companyId = 'c-new';
    json(res, 201, { data: { company: { id: 'c-new', name: 'Panadería Nueva' } } });
  },
  'POST /api/me/password': (req, res, body) => {
    const user = userByToken(req);
    if (!user) return appError(res, 401, 'auth/invalid-token', 'Invalid or expired token');
    if (body.currentPassword !== user.password) {
      return json(res, 400, {
        message: 'The current password is not correct',
        error: 'The current password is not correct',
        code: 'auth/wrong-password',
        details: [{ path: 'currentPassword', message: 'Not correct' }],
      });
    }
    user.password = String(body.newPassword);
    for (const t of fake.issued) fake.revokedTokens.add(t);
    json(res, 200, session(user));
  },
  'GET /api/me': (req, res) => {
    fake.calls.me += 1;
    if (fake.meDown) return res.writeHead(503).end();
    const user = userByToken(req);
    if (!user) return appError(res, 401, 'auth/invalid-token', 'Invalid or expired token');
    const { password: _hidden, ...doc } = user;
    json(res, 200, { data: { ...doc, id: user.uid, phone: null, addresses: [] } });
  },
  'GET /api/protected': (req, res) => {
    const user = userByToken(req);
    if (!user) return appError(res, 401, 'auth/invalid-token', 'Invalid or expired token');
    json(res, 200, { data: { uid: user.uid } });
  },
};

let server: Server;
let origin: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      const handler = routes[`${req.method} ${new URL(req.url ?? '/', 'http://x').pathname}`];
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      if (handler) handler(req, res, body);
      else appError(res, 404, 'not_found', 'Not found');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** One browser's local storage; each tab's view notifies the other tabs (never itself), as browsers do. */
function sharedStorage() {
  const data = new Map<string, string>();
  const listeners = new Set<{ owner: number; listener: StorageChangeListener }>();
  let tabs = 0;
  const notify = (owner: number, key: string, newValue: string | null) => {
    for (const l of listeners) if (l.owner !== owner) queueMicrotask(() => l.listener(key, newValue));
  };
  return {
    data,
    tab(): { storage: KeyValueStorage; events: StorageEvents } {
      const owner = ++tabs;
      return {
        storage: {
          getItem: (key) => data.get(key) ?? null,
          setItem: (key, value) => {
            if (data.get(key) === value) return;
            data.set(key, value);
            notify(owner, key, value);
          },
          removeItem: (key) => {
            if (!data.has(key)) return;
            data.delete(key);
            notify(owner, key, null);
          },
        },
        events: {
          subscribe(listener) {
            const entry = { owner, listener };
            listeners.add(entry);
            return () => listeners.delete(entry);
          },
        },
      };
    },
  };
}

/** Timers the test fires by hand, so no refresh runs an hour later in the background. */
function manualTimers() {
  const pending = new Map<number, { callback: () => void; ms: number }>();
  let next = 0;
  const timers: AuthTimers = {
    set: (callback, ms) => {
      next += 1;
      pending.set(next, { callback, ms });
      return next;
    },
    clear: (handle) => pending.delete(handle as number),
  };
  return {
    timers,
    pending,
    fireAll() {
      const due = [...pending.values()];
      pending.clear();
      for (const t of due) t.callback();
    },
  };
}

type Shared = ReturnType<typeof sharedStorage>;
const stores: StoreApi<AuthState>[] = [];

function tab(shared: Shared = sharedStorage(), locks: AuthLocks = createMemoryLocks()) {
  const { storage, events } = shared.tab();
  const clock = manualTimers();
  /** The tab's clock: real time, moved forward by `time.shift` to reach a scheduled refresh. */
  const time = { shift: 0, now: () => Date.now() + time.shift };
  const http = createHttpClient({ baseUrl: `${origin}/api`, timeoutMs: 2000, tokenStorage: storageTokens(storage) });
  const store = createAuthStore({ http, storage, locks, clock: time, timers: clock.timers, storageEvents: events });
  stores.push(store);
  return { store, storage, shared, clock, time, state: () => store.getState() };
}

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  const outcome = await promise.then(
    () => null,
    (err: unknown) => err,
  );
  expect(outcome).toBeInstanceOf(ApiError);
  return outcome as ApiError;
}

const exp = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { exp: number }).exp * 1000;

/** Lets queued storage events and the requests they start run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

const ana = () => fake.users.get('ana@example.com')!;

beforeEach(resetFake);
afterEach(() => {
  for (const s of stores.splice(0)) s.getState().dispose();
});

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

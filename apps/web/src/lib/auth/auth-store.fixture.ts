/**
 * The identity server the auth store's tests talk to, and the tabs they open (auth-store.test.ts and
 * auth-store-tabs.test.ts): importing it starts the server for the file and resets it before each test.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AUTH_MESSAGES } from '@hornada/domain/identity';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { createAuthStore } from './auth-store';
import { storageTokens } from './session-answers';
import { type AuthState, type AuthTimers, type StorageChangeListener, type StorageEvents } from './session-types';
import { ApiError, createHttpClient } from '../api/http';
import { type KeyValueStorage } from './session-id';
import { createMemoryLocks, type AuthLocks } from './token-refresh';
import type { StoreApi } from 'zustand/vanilla';

/**
 * A real HTTP server on 127.0.0.1 imitating the identity endpoints of apps/server (same paths, bodies,
 * status codes and error envelopes). Node's fetch keeps no cookies, so the fake keeps the browser's
 * refresh cookie itself (`fake.jar`, one browser): /refresh rotates it, /sign-out clears it. A /refresh
 * that arrives while another is still being answered is what two tabs spending the same cookie look like
 * to the real server, so the fake then revokes the family, as refresh-tokens.ts does.
 */

export interface FakeUser {
  uid: string;
  email: string;
  password: string;
  name: string;
  role: string;
  companyId: string | null;
  emailVerified: boolean;
}

export type BackendMode = 'ok' | 'error-field' | 'empty-500' | 'down';

export const TTL_S = 3600;

export const fake = {
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

export function resetFake(): void {
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

export const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** An id token shaped like the server's (claims sub, email, role, companyId, iat, exp); the signature is fake. */
export function makeToken(user: FakeUser, ttlSeconds = TTL_S): string {
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

export function userByToken(req: IncomingMessage): FakeUser | null {
  const token = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
  if (!token || !fake.issued.has(token) || fake.revokedTokens.has(token)) return null;
  const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sub: string; exp: number };
  if (claims.exp * 1000 <= Date.now()) return null;
  return [...fake.users.values()].find((u) => u.uid === claims.sub) ?? null;
}

export function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

export const appError = (res: ServerResponse, status: number, code: string, message: string) =>
  json(res, status, { message, error: message, code });

export function session(user: FakeUser) {
  fake.jar = `rt-${user.uid}-${fake.tokenCounter + 1}`;
  return {
    data: {
      idToken: makeToken(user),
      expiresIn: TTL_S,
      user: { uid: user.uid, email: user.email, name: user.name, emailVerified: user.emailVerified },
    },
  };
}

export type Handler = (req: IncomingMessage, res: ServerResponse, body: Record<string, unknown>) => void;

export const routes: Record<string, Handler> = {
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
export let origin: string;

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
export function sharedStorage() {
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
export function manualTimers() {
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

export type Shared = ReturnType<typeof sharedStorage>;
export const stores: StoreApi<AuthState>[] = [];

export function tab(shared: Shared = sharedStorage(), locks: AuthLocks = createMemoryLocks()) {
  const { storage, events } = shared.tab();
  const clock = manualTimers();
  /** The tab's clock: real time, moved forward by `time.shift` to reach a scheduled refresh. */
  const time = { shift: 0, now: () => Date.now() + time.shift };
  const http = createHttpClient({ baseUrl: `${origin}/api`, timeoutMs: 2000, tokenStorage: storageTokens(storage) });
  const store = createAuthStore({ http, storage, locks, clock: time, timers: clock.timers, storageEvents: events });
  stores.push(store);
  return { store, storage, shared, clock, time, state: () => store.getState() };
}

export async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  const outcome = await promise.then(
    () => null,
    (err: unknown) => err,
  );
  expect(outcome).toBeInstanceOf(ApiError);
  return outcome as ApiError;
}

export const exp = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { exp: number }).exp * 1000;

/** Lets queued storage events and the requests they start run. */
export const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

export const ana = () => fake.users.get('ana@example.com')!;

beforeEach(resetFake);
afterEach(() => {
  for (const s of stores.splice(0)) s.getState().dispose();
});

/**
 * The door of every API route, generated from the routes the app registered (a route added tomorrow is
 * walked without anyone listing it): a guest is refused with a 401 everywhere but the routes opened to
 * guests below, and a user of another company gets a 404 on every signed-in route of a company's path;
 * both before the body is read (an empty body, which no write accepts, still gets the door's answer).
 * What each role may do inside its company is permissions.test's (the permission table, route by route).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids';
import { setupTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
let own: string;
let other: string;

beforeAll(async () => {
  t = await setupTestApp();
  own = await t.company('Panadería Propia');
  other = await t.company('Panadería Ajena');
});
afterAll(async () => {
  await t?.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
interface RouteLine {
  method: Method;
  path: string;
}

/** Every route the app registered, from Fastify's own route tree (HEAD is GET's twin). */
function registeredRoutes(): RouteLine[] {
  const lines: RouteLine[] = [];
  const prefixes: string[] = [];
  for (const line of t.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^([│ ]*)[├└]── (\S+) \(([^)]+)\)$/.exec(line.replace(/\u00a0/g, ' '));
    if (!m) continue;
    const depth = m[1]!.length / 4;
    prefixes.length = depth;
    const path = (depth ? prefixes[depth - 1]! : '') + m[2]!;
    prefixes.push(path);
    for (const method of m[3]!.split(', ')) if (method !== 'HEAD') lines.push({ method: method as Method, path });
  }
  return lines;
}

/**
 * The API routes a guest may call: the catalogue and settings' public reads and their stream, carts and
 * checkout (a guest holds a cart), a guest's order link, registration, sign-in and recovery, the keys,
 * health, the runtime configuration and the API's documentation. Every other /api route needs a user.
 */
const OPEN_TO_GUESTS = new Set([
  'GET /api/health',
  'GET /api/config',
  'GET /api/companies/:companyId/settings',
  'GET /api/companies/:companyId/delivery-days',
  'GET /api/companies/:companyId/changes',
  ...['products', 'productCollections', 'brands'].flatMap((name) => [
    `GET /api/companies/:companyId/${name}`,
    `GET /api/companies/:companyId/${name}/:id`,
  ]),
  'POST /api/carts',
  'GET /api/carts/:id',
  'PUT /api/carts/:id',
  'POST /api/carts/:id/checkout',
  'GET /api/orders/link/:token',
  'POST /api/payments/events',
  'GET /api/pasarela-de-prueba/v1/transactions/:id',
  // Wompi's search by reference: its own private-key bearer, not a user's (the sandbox checks it).
  'GET /api/pasarela-de-prueba/v1/transactions',
  'GET /api/orders/link/:token/payment',
  'POST /api/orders/link/:token/payment',
  'POST /api/auth/register',
  'POST /api/identity/shoppers',
  'POST /api/identity/sign-in',
  'POST /api/identity/sign-out',
  'POST /api/identity/refresh',
  'GET /api/identity/jwks.json',
  'POST /api/identity/password-reset',
  'POST /api/identity/password-reset/confirm',
  'POST /api/identity/verify-email',
  // What a recovery or verification link's page asks first: the link's code is the key.
  'POST /api/identity/link-info',
  'GET /api/identity/google/start',
  'GET /api/identity/google/callback',
  'POST /api/identity/google/exchange',
]);
const isDocs = (path: string) => path.startsWith('/api/docs');
const key = (r: RouteLine) => `${r.method} ${r.path}`;

/** A concrete URL of a route: the company of the test, a fresh id (or the one given), a file name. */
function urlOf(path: string, companyId: string, id = newId()): string {
  return path
    .replace(':companyId', companyId)
    .replace(/:[A-Za-z]+/g, id)
    .replace(/\/?\*$/, '/products/pan.webp');
}

async function call(route: RouteLine, companyId: string, token?: string, id?: string) {
  const res = await t.call({
    method: route.method,
    url: urlOf(route.path, companyId, id),
    token,
    ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: {} }),
  });
  return { status: res.statusCode, code: res.statusCode >= 400 ? (res.json() as { code?: string }).code : undefined };
}

describe('the door of every API route', () => {
  it('walks the whole API: every route opened to guests exists', () => {
    const api = registeredRoutes().filter((r) => r.path.startsWith('/api/'));
    // The catalogue, settings, orders, carts, identity, files, live and system parts: some 90 routes.
    expect(api.length).toBeGreaterThan(80);
    const registered = new Set(api.map(key));
    expect([...OPEN_TO_GUESTS].filter((k) => !registered.has(k))).toEqual([]);
  });

  it('refuses a guest with a 401 on every route not opened to guests, before reading the body', async () => {
    const wrong: string[] = [];
    let walked = 0;
    for (const route of registeredRoutes().filter((r) => r.path.startsWith('/api/'))) {
      const open = OPEN_TO_GUESTS.has(key(route)) || isDocs(route.path);
      const { status, code } = await call(route, own);
      walked++;
      if (!open && (status !== 401 || code !== 'unauthenticated')) wrong.push(`${key(route)}: ${status} ${code}`);
      if (open && status === 401) wrong.push(`${key(route)}: 401 for a guest, but it is open to guests`);
    }
    expect(wrong).toEqual([]);
    expect(walked).toBeGreaterThan(80);
  });

  it("answers another company's user with a 404 on every signed-in route of a company's path, before the body", async () => {
    const stranger = await t.user('company_admin', other);
    const wrong: string[] = [];
    let walked = 0;
    for (const route of registeredRoutes()) {
      if (!route.path.startsWith('/api/companies/:companyId') || OPEN_TO_GUESTS.has(key(route))) continue;
      const { status, code } = await call(route, own, stranger.token);
      walked++;
      if (status !== 404 || code !== 'not_found') wrong.push(`${key(route)}: ${status} ${code}`);
      // Its own company's door opens: the same empty request reaches the route (a validation or a rule). A
      // route about one record (a person's invitation) is asked about one that exists there: the caller.
      const inside = await call(route, other, stranger.token, stranger.uid);
      if (inside.code === 'not_found' && inside.status === 404 && route.method === 'POST')
        wrong.push(`${key(route)}: 404 in its own company`);
    }
    expect(wrong).toEqual([]);
    expect(walked).toBeGreaterThan(50);
  });

  it('lets a system admin through the door of any company', async () => {
    const admin = await t.user('system_admin', null);
    const res = await t.call({ method: 'GET', url: `/api/companies/${own}/suspicious-orders`, token: admin.token });
    expect(res.statusCode).toBe(200);
  });

  it("keeps the spec's message for a guest's backend login", async () => {
    const res = await t.call({ method: 'POST', url: '/api/auth/login', payload: {} });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'unauthenticated', error: 'Backend authentication failed' });
  });
});

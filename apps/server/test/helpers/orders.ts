/**
 * What the orders API tests share: a bakery with windows (one of capacity 1), products, a B2B client,
 * a user of each role, and the calls that make carts, place orders and move them.
 */
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { expect } from 'vitest';
import type { z } from 'zod';
import { SettingsInput, type Order } from '@hornada/domain';
import { products, settings } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { json, setupTestApp, TestClock, type TestApp, type TestUser } from './app';

/** Monday 23 Nov 2026, 10:00 in Bogotá. */
export const MONDAY_10AM = '2026-11-23T15:00:00.000Z';
export const TUESDAY = '2026-11-24';
export const WEDNESDAY = '2026-11-25';

export const ORDER_SETTINGS: z.input<typeof SettingsInput> = {
  marketName: 'Panadería Uno',
  // A way to be reached: with the rest, the setup checklist's minimum, so the shop takes web orders.
  whatsapp: '+57 300 000 0001',
  timeZone: 'America/Bogota',
  deliveryFee: 5000,
  freeDeliveryFrom: 50_000,
  minimumOrder: 10_000,
  orderLeadHours: 12,
  productionLeadDays: 1,
  deliveryDays: [1, 2, 3, 4, 5, 6],
  deliveryWindows: [
    { id: 'am', label: 'Mañana', start: '07:00', end: '10:00', capacity: null },
    { id: 'pm', label: 'Tarde', start: '14:00', end: '18:00', capacity: null },
    { id: 'uno', label: 'Exprés', start: '19:00', end: '20:00', capacity: 1 },
  ],
  blackoutDates: [],
  pickupEnabled: true,
  paymentMethods: ['cash', 'transfer'],
  transferInstructions: 'Bancolombia ahorros 123-456789-00',
};

export const ADDRESS = { line: 'Calle 10 # 5-20', neighborhood: 'Centro', city: 'Bogotá' };
export const CONTACT = { name: 'Ana Pérez', phone: '300 123 4567' };

export interface OrdersApp {
  t: TestApp;
  companyId: string;
  otherCompanyId: string;
  admin: TestUser;
  staff: TestUser;
  production: TestUser;
  driver: TestUser;
  otherDriver: TestUser;
  customer: TestUser;
  otherCustomer: TestUser;
  otherAdmin: TestUser;
  /** pan 2,500 · torta 42,000 (b2bPrice 35,000) · galleta 1,005 · baguette 3,000 (inactive). */
  pan: string;
  torta: string;
  galleta: string;
  inactive: string;
  foreign: string;
}

/** The bounds on unpaid web orders off: these tests place many orders from one address and phone. */
export const NO_CHECKOUT_BOUNDS = {
  CHECKOUT_UNPAID_PER_HOLDER: '0',
  CHECKOUT_UNPAID_PER_PHONE: '0',
  CHECKOUT_UNPAID_PER_ADDRESS: '0',
  CHECKOUT_WINDOW_SHARE_PER_ADDRESS: '0',
};

export async function setupOrdersApp(
  opts: { listen?: boolean; env?: Record<string, string>; loggerInstance?: FastifyBaseLogger } = {},
): Promise<OrdersApp> {
  const t = await setupTestApp({
    clock: new TestClock(new Date(MONDAY_10AM)),
    env: { RATE_LIMIT_WRITES: '0', ...NO_CHECKOUT_BOUNDS, ...opts.env },
    listen: opts.listen ?? false,
    ...(opts.loggerInstance ? { loggerInstance: opts.loggerInstance } : {}),
  });
  const companyId = await t.company('Panadería Uno');
  const otherCompanyId = await t.company('Panadería Dos');
  await t.db
    .update(settings)
    .set({ data: SettingsInput.parse(ORDER_SETTINGS) })
    .where(eq(settings.companyId, companyId));
  const product = async (company: string, name: string, price: number, extra: Record<string, unknown> = {}) => {
    const id = newId();
    const now = t.clock.now();
    await t.db
      .insert(products)
      .values({ id, companyId: company, name, price, createdAt: now, updatedAt: now, ...extra });
    return id;
  };
  return {
    t,
    companyId,
    otherCompanyId,
    admin: await t.user('company_admin', companyId),
    staff: await t.user('company_staff', companyId),
    production: await t.user('production_assistant', companyId),
    driver: await t.user('delivery_assistant', companyId),
    otherDriver: await t.user('delivery_assistant', companyId),
    customer: await t.user('company_customer', companyId),
    otherCustomer: await t.user('company_customer', companyId),
    otherAdmin: await t.user('company_admin', otherCompanyId),
    pan: await product(companyId, 'Pan campesino', 2500),
    torta: await product(companyId, 'Torta de chocolate', 42_000, { b2bPrice: 35_000 }),
    galleta: await product(companyId, 'Galleta de avena', 1005),
    inactive: await product(companyId, 'Baguette', 3000, { active: false }),
    foreign: await product(otherCompanyId, 'Pan ajeno', 100),
  };
}

let sessions = 0;
/** A fresh 20-character session id. */
export const newSession = () =>
  `S${String(++sessions).padStart(10, '0')}${newId()
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(0, 9)}`.slice(0, 20);

export function ordersCalls(app: () => OrdersApp) {
  const api = (path = '') => `/api/companies/${app().companyId}/orders${path}`;

  async function cart(items: { productId: string; quantity: number }[], session = newSession(), token?: string) {
    const res = await app().t.call({
      method: 'POST',
      url: '/api/carts',
      headers: { 'x-session-id': session },
      token,
      payload: { companyId: app().companyId, items },
    });
    expect(res.statusCode, res.body).toBe(201);
    return { id: json<{ data: { id: string } }>(res).data.id, session };
  }

  const checkoutBody = (extra: Record<string, unknown> = {}) => ({
    contact: CONTACT,
    fulfillment: 'delivery',
    address: ADDRESS,
    dueDate: WEDNESDAY,
    window: 'am',
    paymentMethod: 'cash',
    ...extra,
  });

  const checkout = (
    c: { id: string; session: string },
    body: Record<string, unknown> = checkoutBody(),
    key = newId(),
    token?: string,
  ) =>
    app().t.call({
      method: 'POST',
      url: `/api/carts/${c.id}/checkout`,
      headers: { 'x-session-id': c.session, 'idempotency-key': key },
      token,
      payload: body,
    });

  /** A web order of `quantity` pan (2,500 each) placed by a guest. */
  async function webOrder(quantity = 4, body: Record<string, unknown> = {}) {
    const c = await cart([{ productId: app().pan, quantity }]);
    const res = await checkout(c, checkoutBody(body));
    expect(res.statusCode, res.body).toBe(201);
    return json<{ data: Order & { accessToken: string } }>(res).data;
  }

  /** POST …/orders of a company (the caller's own by default) with a bearer token. */
  const postOrder = (token: string, payload: Record<string, unknown>, companyId = app().companyId) =>
    app().t.call({ method: 'POST', url: `/api/companies/${companyId}/orders`, token, payload });

  /** A staff order through the resource (POST …/orders). */
  async function staffOrder(body: Record<string, unknown> = {}, user: TestUser = app().staff) {
    const res = await postOrder(user.token, {
      contact: CONTACT,
      items: [{ productId: app().pan, quantity: 2 }],
      fulfillment: 'delivery',
      address: ADDRESS,
      dueDate: WEDNESDAY,
      window: 'am',
      paymentMethod: 'cash',
      ...body,
    });
    expect(res.statusCode, res.body).toBe(201);
    return json<{ data: Order }>(res).data;
  }

  const patch = (id: string, user: TestUser, payload: Record<string, unknown>) =>
    app().t.call({ method: 'PATCH', url: api(`/${id}`), token: user.token, payload });
  const get = (id: string, user?: TestUser) => app().t.call({ method: 'GET', url: api(`/${id}`), token: user?.token });

  /** A B2B client of the company, created by its admin; returns its id. */
  async function b2bClient(body: Record<string, unknown>) {
    const res = await app().t.call({
      method: 'POST',
      url: `/api/companies/${app().companyId}/b2bClients`,
      token: app().admin.token,
      payload: body,
    });
    expect(res.statusCode, res.body).toBe(201);
    return json<{ data: { id: string } }>(res).data.id;
  }

  return { api, cart, checkout, checkoutBody, webOrder, staffOrder, postOrder, patch, get, b2bClient };
}

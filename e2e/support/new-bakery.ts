import type { APIRequestContext } from '@playwright/test';
import { expect } from '../fixtures';
import { bogotaDay } from './clock';
import { mailedLink } from './outbox';
import { apiToken } from './session';

/** Today in Bogotá (YYYY-MM-DD) as the app sees it (E2E_NOW), and the days after it. */
export const dayFromToday = (offset: number): string => bogotaDay(offset);

/** A value no earlier run or other test has used (each run starts on a fresh database, tests share it). */
export const unique = (prefix: string) =>
  `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}`;

export const NEW_BAKERY_PASSWORD = 'pandebono-del-dia';

/** A bakery made as a new owner makes it, through the API: her account, its e-mail verified, the bakery. */
export interface NewBakery {
  companyId: string;
  name: string;
  email: string;
  password: string;
  /** The owner's id token (with the company). */
  token: string;
  /** Its shop's address as the server gives it, with a trailing slash. */
  shopUrl: string;
  call<T>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, data?: unknown): Promise<T>;
  /** Settings for the office's own orders: every day a delivery day, no lead, Bogotá's time. */
  bakesEveryDay(): Promise<void>;
  /** A confirmed pickup order made by the office, due `dueDate` (YYYY-MM-DD). */
  confirmedOrder(dueDate: string, items: { productId: string; quantity: number }[]): Promise<string>;
  /** A person of the bakery with a password (staff, driver, production assistant). */
  user(role: string, name: string): Promise<{ id: string; email: string; password: string }>;
}

/**
 * Registers an owner (POST /api/auth/register), opens her verification link from the outbox, signs in and
 * creates `name` (POST /api/companies): the first day of a new bakery, never the demo's.
 */
export async function newBakery(request: APIRequestContext, name: string): Promise<NewBakery> {
  const email = `${unique('duena')}@hornada.test`;
  const password = NEW_BAKERY_PASSWORD;
  const reg = await request.post('/api/auth/register', {
    data: { email, password, name: 'dueña nueva', role: 'company_admin', companyId: null },
  });
  expect(reg.status(), await reg.text()).toBe(201);
  const link = await mailedLink(request, email, /^Confirma tu correo/);
  const token = new URL(link).searchParams.get('token');
  const verified = await request.post('/api/identity/verify-email', { data: { token } });
  expect(verified.status(), await verified.text()).toBe(200);
  const first = await apiToken(request, email, password);
  const created = await request.post('/api/companies', {
    headers: { authorization: `Bearer ${first}` },
    data: { name },
  });
  expect(created.status(), await created.text()).toBe(201);
  const companyId = ((await created.json()) as { data: { company: { id: string } } }).data.company.id;
  const owner = await apiToken(request, email, password);
  const call = async <T>(method: string, path: string, data?: unknown): Promise<T> => {
    const res = await request.fetch(`/api/companies/${companyId}/${path}`, {
      method,
      headers: { authorization: `Bearer ${owner}` },
      ...(data === undefined ? {} : { data }),
    });
    expect(res.ok(), `${method} ${path}: ${await res.text()}`).toBe(true);
    return res.status() === 204 ? (undefined as T) : ((await res.json()) as { data: T }).data;
  };
  const { url: shopUrl } = await call<{ url: string }>('GET', 'shop');
  return {
    companyId,
    name,
    email,
    password,
    token: owner,
    shopUrl,
    call,
    async bakesEveryDay() {
      await call('PATCH', 'settings', {
        timeZone: 'America/Bogota',
        deliveryDays: [0, 1, 2, 3, 4, 5, 6],
        orderLeadHours: 0,
      });
    },
    async confirmedOrder(dueDate, items) {
      const order = await call<{ id: string }>('POST', 'orders', {
        contact: { name: 'Cliente del mostrador', phone: '300 555 0142' },
        items,
        fulfillment: 'pickup',
        dueDate,
        paymentMethod: 'cash',
      });
      await call('PATCH', `orders/${order.id}`, { status: 'confirmed' });
      return order.id;
    },
    async user(role, personName) {
      const person = { email: `${unique(role.replace(/_/g, '-'))}@hornada.test`, password };
      const { id } = await call<{ id: string }>('POST', 'users', { ...person, name: personName, role });
      return { id, ...person };
    },
  };
}

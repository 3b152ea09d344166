/**
 * What the resource engine files (resources-lists, resources-crud, resources-access and
 * resources-rules) share: the app they boot, with two companies and a user of each role that matters,
 * and the calls they make on it.
 */
import { expect } from 'vitest';
import { json, setupTestApp, type TestApp, type TestUser } from './app';

export interface ResourcesApp {
  t: TestApp;
  /** Panadería Uno, where the tests write. */
  companyId: string;
  /** Panadería Dos, whose admin must see nothing private of Panadería Uno. */
  otherCompanyId: string;
  admin: TestUser;
  staff: TestUser;
  customer: TestUser;
  production: TestUser;
  otherAdmin: TestUser;
}

export async function setupResourcesApp(): Promise<ResourcesApp> {
  const t = await setupTestApp();
  const companyId = await t.company('Panadería Uno');
  const otherCompanyId = await t.company('Panadería Dos');
  const admin = await t.user('company_admin', companyId);
  const staff = await t.user('company_staff', companyId);
  const customer = await t.user('company_customer', companyId);
  const production = await t.user('production_assistant', companyId);
  const otherAdmin = await t.user('company_admin', otherCompanyId);
  return { t, companyId, otherCompanyId, admin, staff, customer, production, otherAdmin };
}

/** Paths and writes on the file's app; `app()` is read at each call, after beforeAll. */
export function resourcesCalls(app: () => Pick<ResourcesApp, 't' | 'companyId' | 'admin'>) {
  const path = (resource: string, company = app().companyId) => `/api/companies/${company}/${resource}`;

  async function create(resource: string, body: Record<string, unknown>, user: TestUser = app().admin) {
    const res = await app().t.call({ method: 'POST', url: path(resource), token: user.token, payload: body });
    expect(res.statusCode, res.body).toBe(201);
    return json<{ data: Record<string, unknown> & { id: string } }>(res).data;
  }

  return { path, create };
}

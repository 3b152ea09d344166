/**
 * The permission table (POLICY in packages/domain) is the one answer: every route of every resource,
 * settings and the live feed included, for every role, a guest, and a caller of another company, gives
 * the status the table implies. The cases are generated from the table and the definitions, so a new
 * resource, route or grant is covered without anyone remembering to add it.
 */
import { grantOf, POLICY, publicFields, ROLES, type Action, type ResourceName, type Role } from '@hornada/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESOURCES } from '../../src/resources/definitions';
import { json, setupTestApp, type TestApp, type TestUser } from '../helpers/app';
import { SAMPLES } from '../helpers/samples';

let t: TestApp;
let own: string;
let other: string;
const admins = new Map<string, TestUser>();

beforeAll(async () => {
  t = await setupTestApp({ listen: true, env: { RATE_LIMIT_WRITES: '0' } });
  own = await t.company('Panadería Propia');
  other = await t.company('Panadería Ajena');
  admins.set(own, await t.user('company_admin', own));
  admins.set(other, await t.user('company_admin', other));
});
afterAll(async () => {
  await t?.close();
});

type Who = { label: string; role: Role | null; companyId: string | null };
type Route = 'list' | 'get' | 'create' | 'put' | 'patch' | 'bulk' | 'delete' | 'stream';
const ROUTE_ACTION: Record<Route, Action> = {
  list: 'read',
  get: 'read',
  stream: 'read',
  create: 'create',
  put: 'update',
  patch: 'update',
  bulk: 'update',
  delete: 'delete',
};

/** What the table says a caller gets on a route of a resource of company `own`. */
function expected(resource: ResourceName, route: Route, who: Who): number {
  const action = ROUTE_ACTION[route];
  const ok = route === 'create' ? 201 : 200;
  const isPublic = publicFields(resource) !== null;
  if (!who.role) return action === 'read' && isPublic ? 200 : 401;
  const sameCompany = who.role === 'system_admin' || who.companyId === own;
  if (sameCompany && grantOf(who.role, resource, action)) return ok;
  if (action === 'read' && isPublic) return 200;
  return sameCompany ? 403 : 404;
}

let serial = 0;
/** A fresh record of the resource in company `own`, made by its admin (a delete or an edit must not leak). */
async function freshRecord(name: string): Promise<string> {
  const res = await t.call({
    method: 'POST',
    url: `/api/companies/${own}/${name}`,
    token: admins.get(own)!.token,
    payload: SAMPLES[name]!.create(++serial),
  });
  expect(res.statusCode, `${name}: ${res.body}`).toBe(201);
  return json<{ data: { id: string } }>(res).data.id;
}

/** A stream's status: the response head arrives at once for a 200; the body is never read. */
async function streamStatus(url: string, token?: string): Promise<number> {
  const ac = new AbortController();
  try {
    const res = await fetch(`${t.baseUrl}${url}`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
      signal: ac.signal,
    });
    return res.status;
  } finally {
    ac.abort();
  }
}

describe('the permission table', () => {
  it('names every resource the engine serves, settings and files (tested in files.test)', () => {
    expect(Object.keys(POLICY).sort()).toEqual([...RESOURCES.map((d) => d.name), 'settings', 'files'].sort());
    expect(Object.keys(SAMPLES).sort()).toEqual(RESOURCES.map((d) => d.name).sort());
  });

  it('answers every route × role × own/other company as the table says, the live feed included', async () => {
    const whos: Who[] = [{ label: 'guest', role: null, companyId: null }];
    for (const role of ROLES) {
      whos.push({ label: `${role} (own)`, role, companyId: role === 'system_admin' ? null : own });
      if (role !== 'system_admin') whos.push({ label: `${role} (other)`, role, companyId: other });
    }
    const tokens = new Map<Who, string>();
    for (const who of whos) if (who.role) tokens.set(who, (await t.user(who.role, who.companyId)).token);

    const api = `/api/companies/${own}`;
    let checked = 0;
    const mismatches: string[] = [];
    for (const def of RESOURCES) {
      const name = def.name;
      const sample = SAMPLES[name]!;
      for (const who of whos) {
        const token = tokens.get(who);
        const id = await freshRecord(name);
        const base = `${api}/${name}`;
        const calls: [Route, () => Promise<number>][] = [
          ['list', async () => (await t.call({ method: 'GET', url: base, token })).statusCode],
          ['get', async () => (await t.call({ method: 'GET', url: `${base}/${id}`, token })).statusCode],
          [
            'create',
            async () =>
              (await t.call({ method: 'POST', url: base, token, payload: sample.create(++serial) })).statusCode,
          ],
          [
            'put',
            async () => (await t.call({ method: 'PUT', url: `${base}/${id}`, token, payload: sample.put })).statusCode,
          ],
          [
            'patch',
            async () =>
              (await t.call({ method: 'PATCH', url: `${base}/${id}`, token, payload: sample.patch })).statusCode,
          ],
          [
            'bulk',
            async () =>
              (
                await t.call({
                  method: 'PATCH',
                  url: `${base}/bulk-update`,
                  token,
                  payload: { updates: [{ id, data: sample.patch }] },
                })
              ).statusCode,
          ],
          ['delete', async () => (await t.call({ method: 'DELETE', url: `${base}/${id}`, token })).statusCode],
          ['stream', () => streamStatus(`${api}/changes?resources=${name}`, token)],
        ];
        for (const [route, call] of calls) {
          const want = expected(name, route, who);
          const got = await call();
          checked++;
          if (got !== want) mismatches.push(`${name} ${route} as ${who.label}: ${got}, the table says ${want}`);
        }
      }
    }

    // Settings, the singleton: read, replace, change, and its stream.
    const settingsBody = json<{ data: Record<string, unknown> }>(
      await t.call({ method: 'GET', url: `${api}/settings`, token: admins.get(own)!.token }),
    ).data;
    for (const who of whos) {
      const token = tokens.get(who);
      const calls: [Route, () => Promise<number>][] = [
        ['get', async () => (await t.call({ method: 'GET', url: `${api}/settings`, token })).statusCode],
        [
          'put',
          async () =>
            (await t.call({ method: 'PUT', url: `${api}/settings`, token, payload: settingsBody })).statusCode,
        ],
        [
          'patch',
          async () =>
            (await t.call({ method: 'PATCH', url: `${api}/settings`, token, payload: { deliveryFee: 3000 } }))
              .statusCode,
        ],
        ['stream', () => streamStatus(`${api}/changes?resources=settings`, token)],
      ];
      for (const [route, call] of calls) {
        const want = expected('settings', route, who);
        const got = await call();
        checked++;
        if (got !== want) mismatches.push(`settings ${route} as ${who.label}: ${got}, the table says ${want}`);
      }
    }

    expect(mismatches).toEqual([]);
    // 7 resources × 8 routes + settings' 4, for a guest, 6 roles in their own company and 5 in another.
    expect(checked).toBe((RESOURCES.length * 8 + 4) * whos.length);
  });

  it('keeps a row rule: staff read and register customers only, and reach no other user', async () => {
    const staff = await t.user('company_staff', own);
    const admin = admins.get(own)!;
    const colleague = await t.user('company_staff', own);
    const api = `/api/companies/${own}/users`;
    const list = json<{ data: { role: string }[] }>(
      await t.call({ method: 'GET', url: `${api}?per_page=1000`, token: staff.token }),
    );
    expect(list.data.length).toBeGreaterThan(0);
    expect(list.data.every((u) => u.role === 'company_customer')).toBe(true);
    expect((await t.call({ method: 'GET', url: `${api}/${colleague.uid}`, token: staff.token })).statusCode).toBe(404);
    expect((await t.call({ method: 'GET', url: `${api}/${admin.uid}`, token: staff.token })).statusCode).toBe(404);
    const asStaff = (role: string) =>
      t.call({
        method: 'POST',
        url: api,
        token: staff.token,
        payload: { ...SAMPLES.users!.create(++serial), role },
      });
    expect((await asStaff('company_customer')).statusCode).toBe(201);
    expect((await asStaff('company_staff')).statusCode).toBe(403);
    expect((await asStaff('company_admin')).statusCode).toBe(403);
  });
});

/**
 * The permission table (POLICY in packages/domain) is the one answer: every route of every resource,
 * settings and the live feed included, for every role, a guest, and a caller of another company, gives
 * the status the table implies. The cases are generated from the table and the definitions, so a new
 * resource, route or grant is covered without anyone remembering to add it.
 */
import {
  actorFields,
  can,
  CAPABILITIES,
  grantOf,
  GATEWAY_LINE,
  POLICY,
  SYSTEM_REASONS,
  USER_LINES,
  publicFields,
  ROLES,
  type Action,
  type ResourceName,
  type ResourcePolicy,
  type Role,
} from '@hornada/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESOURCES } from '../../src/resources/definitions';
import { gatewayActor, guestActor, lineRef, systemActor, type Actor } from '../../src/resources/actor';
import type { ServedResource } from '../../src/resources/service';
import type { CollectionName } from '../../src/resources/registry';
import { AppError } from '../../src/lib/errors';
import { json, setupTestApp, type TestApp, type TestUser } from '../helpers/app';
import { SAMPLES, sampleRefs, type SampleRefs } from '../helpers/samples';

let t: TestApp;
let own: string;
let other: string;
let refs: SampleRefs;
const admins = new Map<string, TestUser>();

beforeAll(async () => {
  t = await setupTestApp({ listen: true, env: { RATE_LIMIT_WRITES: '0' } });
  own = await t.company('Panadería Propia');
  other = await t.company('Panadería Ajena');
  admins.set(own, await t.user('company_admin', own));
  admins.set(other, await t.user('company_admin', other));
  refs = await sampleRefs(t, own);
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
  const grant = sameCompany ? grantOf(who.role, resource, action) : null;
  // A record of one's own or assigned to one (orders): the fresh record, made by the admin, is neither.
  if ((grant === 'own' || grant === 'assigned') && route !== 'list' && route !== 'stream') return 404;
  // A role that writes only some fields: a PUT names them all, a PATCH those of the sample.
  const policy: ResourcePolicy = POLICY[resource];
  const writable = who.role === 'system_admin' ? undefined : policy.writable?.[who.role];
  if (grant && writable && action === 'update') {
    const fields = route === 'put' ? ['*'] : Object.keys(SAMPLES[resource]!.patch);
    if (fields.some((f) => !writable.includes(f))) return 403;
  }
  if (grant) return ok;
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
    payload: SAMPLES[name]!.create(++serial, refs),
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
              (await t.call({ method: 'POST', url: base, token, payload: sample.create(++serial, refs) })).statusCode,
          ],
          [
            'put',
            async () =>
              (
                await t.call({
                  method: 'PUT',
                  url: `${base}/${id}`,
                  token,
                  payload: sample.putWith?.(refs) ?? sample.put,
                })
              ).statusCode,
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

/** A service write's status as a route would answer it: 403 for a refusal, 2xx for a success. */
async function statusOf(write: () => Promise<unknown>): Promise<number | 'other'> {
  try {
    await write();
    return 200;
  } catch (err) {
    return err instanceof AppError ? err.statusCode : 'other';
  }
}

describe('the actors of the permission table', () => {
  it('refuses every write of each actor outside its line, for every resource and action', async () => {
    const customer = await t.user('company_customer', own);
    const asCustomer = {
      uid: customer.uid,
      email: customer.email,
      name: 'Cliente',
      role: customer.role,
      companyId: own,
    };
    const actors: Actor[] = [
      ...SYSTEM_REASONS.map((reason) => systemActor(reason)),
      gatewayActor('sandbox'),
      guestActor('Invitada', 'hash-de-sesion'),
      ...(Object.keys(USER_LINES) as (keyof typeof USER_LINES)[]).map((via): Actor => ({
        kind: 'user',
        via,
        ...asCustomer,
      })),
    ];
    const mismatches: string[] = [];
    let checked = 0;
    for (const actor of actors) {
      const ref = lineRef(actor)!;
      const label =
        actor.kind === 'system'
          ? `system (${actor.reason})`
          : actor.kind === 'user'
            ? `user via ${actor.via}`
            : actor.kind;
      for (const def of RESOURCES) {
        const service: ServedResource = t.app.resources.get(def.name as CollectionName);
        const sample = SAMPLES[def.name]!;
        for (const action of ['create', 'update', 'delete'] as const) {
          const fields = actorFields(ref, def.name, action);
          const body = action === 'create' ? sample.create(++serial, refs) : sample.patch;
          const id = action === 'create' ? '' : await freshRecord(def.name);
          const got = await statusOf(() =>
            action === 'create'
              ? service.create(actor, own, body)
              : action === 'update'
                ? service.update(actor, own, id, body)
                : service.remove(actor, own, id),
          );
          // Outside its line, or a field its line does not name: refused as a role is, 403.
          const inLine =
            fields !== null &&
            (action === 'delete' || fields === 'all' || Object.keys(body).every((f) => fields.includes(f)));
          checked++;
          if (!inLine && got !== 403) mismatches.push(`${label} ${action} ${def.name}: ${got}, its line says 403`);
          if (inLine && got === 403) mismatches.push(`${label} ${action} ${def.name}: 403, its line allows it`);
        }
      }
    }
    expect(mismatches).toEqual([]);
    expect(checked).toBe(actors.length * RESOURCES.length * 3);
  });

  it("lets a gateway move only an order's payment, by the payment rules", async () => {
    const orders = t.app.resources.get('orders');
    const id = await freshRecord('orders');
    const gateway = gatewayActor('sandbox');
    expect(GATEWAY_LINE.orders?.update).toContain('paymentStatus');
    expect(await statusOf(() => orders.update(gateway, own, id, { status: 'confirmed' }))).toBe(403);
    expect(await statusOf(() => orders.update(gateway, own, id, { cashCollected: 1 }))).toBe(403);
    // In its line, but a cash order's payment is not the gateway's to move (docs/design.md §5): the rules say 422.
    expect(await statusOf(() => orders.update(gateway, own, id, { paymentStatus: 'paid' }))).toBe(422);
  });
});

describe('the capabilities of the permission table', () => {
  it('answers every capability the server decides, for every role, as the table says', async () => {
    const mismatches: string[] = [];
    for (const role of ROLES) {
      // GET /api/outbox: outbox:read.
      const member = await t.user(role, role === 'system_admin' ? null : own);
      const outbox = (await t.call({ method: 'GET', url: '/api/outbox', token: member.token })).statusCode;
      if (outbox !== (can(role, 'outbox:read') ? 200 : 403)) mismatches.push(`outbox as ${role}: ${outbox}`);

      // POST /api/companies: bakery:create, for an account without a bakery.
      const loner = await t.user(role, null);
      const bakery = (
        await t.call({ method: 'POST', url: '/api/companies', token: loner.token, payload: { name: `Horno ${role}` } })
      ).statusCode;
      if (bakery !== (can(role, 'bakery:create') ? 201 : 403)) mismatches.push(`createBakery as ${role}: ${bakery}`);

      // An order's driver: deliveries:drive.
      if (role !== 'system_admin') {
        const id = await freshRecord('orders');
        const assigned = (
          await t.call({
            method: 'PATCH',
            url: `/api/companies/${own}/orders/${id}`,
            token: admins.get(own)!.token,
            payload: { deliveryAssistantId: member.uid },
          })
        ).statusCode;
        if (assigned !== (can(role, 'deliveries:drive') ? 200 : 400)) mismatches.push(`driver ${role}: ${assigned}`);
      }
    }
    expect(mismatches).toEqual([]);
    // Every capability names roles that exist.
    for (const roles of Object.values(CAPABILITIES)) for (const r of roles) expect(ROLES).toContain(r);
  });
});

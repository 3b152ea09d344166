/**
 * Tenants (docs/design.md §4): an admin of a second bakery gets 404 on every private route of the demo bakery,
 * reading and writing, while the first bakery's public catalogue stays readable to it. The cases are
 * generated from the resource definitions, so a new resource is covered (or fails here for want of a
 * sample record) without anyone remembering to add it.
 */
import { SETTINGS_PRIVATE_FIELDS } from '@hornada/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicFields } from '@hornada/domain';
import { DEMO_COMPANY_ID } from '../../src/seed/ids';
import { DEMO_PASSWORD } from '../../src/modules/identity/demo-accounts';
import { RESOURCES } from '../../src/resources/definitions';
import { seedDemoInto } from '../helpers/seed';
import { identityCalls, json, setupTestApp, type TestApp } from '../helpers/app';

const PASSWORD = 'pan-de-bono-tibio';
let t: TestApp;

beforeAll(async () => {
  t = await setupTestApp({ env: { RATE_LIMIT_WRITES: '0' } });
  // La Espiga with its catalogue and its demo accounts, as `npm start` seeds it.
  await seedDemoInto(t);
});
afterAll(async () => {
  await t?.close();
});

type Body = Record<string, unknown>;

/** A valid body for each resource: POST (create), PUT (full input) and PATCH. */
const SAMPLES: Record<string, { create: Body; put: Body; patch: Body }> = {
  users: {
    create: { email: 'equipo@primera.co', password: PASSWORD, name: 'Equipo', role: 'company_staff' },
    put: { name: 'Intrusa', role: 'company_admin' },
    patch: { role: 'company_admin' },
  },
  products: {
    create: { name: 'Pan de queso', price: 2500 },
    put: { name: 'Intruso', price: 1 },
    patch: { price: 1 },
  },
  productCollections: {
    create: { name: 'Panes' },
    put: { name: 'Intrusa' },
    patch: { active: false },
  },
  brands: { create: { name: 'La Espiga' }, put: { name: 'Intrusa' }, patch: { name: 'Intrusa' } },
  ingredients: {
    create: { name: 'Harina', unit: 'kg', costPerUnit: 3200 },
    put: { name: 'Intrusa', unit: 'g' },
    patch: { stock: 1 },
  },
  recipes: { create: { name: 'Masa madre', yield: 12 }, put: { name: 'Intrusa', yield: 1 }, patch: { yield: 2 } },
  b2bClients: {
    create: { businessName: 'Hotel Central' },
    put: { businessName: 'Intrusa' },
    patch: { discountPercent: 50 },
  },
  // Its client and lines are the demo bakery's, filled in once the bakery is seeded.
  standingOrders: {
    create: { weekdays: [1], startsOn: '2026-12-01' },
    put: { weekdays: [2], startsOn: '2026-12-01' },
    patch: { active: false },
  },
  // Its lines name a product of the demo catalogue, filled in once the bakery is seeded.
  orders: {
    create: {
      contact: { name: 'Cliente', phone: '1' },
      fulfillment: 'pickup',
      dueDate: '2026-11-24',
      window: 'manana',
    },
    put: { contact: { name: 'Intrusa', phone: '1' }, fulfillment: 'pickup', dueDate: '2026-11-24', window: 'manana' },
    patch: { status: 'confirmed' },
  },
};

describe('tenants', () => {
  it('has a sample record for every resource definition', () => {
    expect(Object.keys(SAMPLES).sort()).toEqual(RESOURCES.map((d) => d.name).sort());
  });

  it("gives a second bakery's admin 404 on every private route of the demo bakery, and its public catalogue", async () => {
    const { bakery, tokenOf } = identityCalls(t, PASSWORD);
    const first = { companyId: DEMO_COMPANY_ID, token: await tokenOf('admin@hornada.test', DEMO_PASSWORD) };
    const api = `/api/companies/${first.companyId}`;
    const owner = (method: 'GET' | 'POST', url: string, payload?: Body) =>
      t.call({ method, url, token: first.token, payload });

    const [product] = json<{ data: { id: string }[] }>(await owner('GET', `${api}/products?per_page=1`)).data;
    const items = [{ productId: product!.id, quantity: 2 }];
    Object.assign(SAMPLES.orders!.create, { items });
    Object.assign(SAMPLES.orders!.put, { items });
    const [client] = json<{ data: { id: string }[] }>(await owner('GET', `${api}/b2bClients?per_page=1`)).data;
    Object.assign(SAMPLES.standingOrders!.create, { items, b2bClientId: client!.id });
    Object.assign(SAMPLES.standingOrders!.put, { items, b2bClientId: client!.id });

    // One more real record of each resource in the demo bakery, as its admin made it.
    const ids = new Map<string, string>();
    const originals = new Map<string, Body>();
    for (const def of RESOURCES) {
      const res = await owner('POST', `${api}/${def.name}`, SAMPLES[def.name]!.create);
      expect(res.statusCode, `${def.name}: ${res.body}`).toBe(201);
      const doc = json<{ data: Body & { id: string } }>(res).data;
      ids.set(def.name, doc.id);
      originals.set(def.name, doc);
    }
    await owner('GET', `${api}/settings`).then((res) => expect(res.statusCode).toBe(200));
    const settingsBefore = json<{ data: Body }>(await owner('GET', `${api}/settings`)).data;

    const total = async (name: string) => json<{ total: number }>(await owner('GET', `${api}/${name}`)).total;
    const totalsBefore = new Map<string, number>();
    for (const def of RESOURCES) totalsBefore.set(def.name, await total(def.name));

    const intruder = await bakery('intrusa@ejemplo.co');
    type Case = { method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'; url: string; payload?: Body; status: number };
    const cases: Case[] = [];
    for (const def of RESOURCES) {
      const base = `${api}/${def.name}`;
      const id = ids.get(def.name)!;
      const sample = SAMPLES[def.name]!;
      // Public resources (the catalogue) stay readable by anyone; every other read is a 404.
      const read = publicFields(def.name) ? 200 : 404;
      cases.push(
        { method: 'GET', url: base, status: read },
        { method: 'GET', url: `${base}/${id}`, status: read },
        { method: 'POST', url: base, payload: sample.create, status: 404 },
        { method: 'PUT', url: `${base}/${id}`, payload: sample.put, status: 404 },
        { method: 'PATCH', url: `${base}/${id}`, payload: sample.patch, status: 404 },
        {
          method: 'PATCH',
          url: `${base}/bulk-update`,
          payload: { updates: [{ id, data: sample.patch }] },
          status: 404,
        },
        { method: 'DELETE', url: `${base}/${id}`, status: 404 },
      );
      // Its change stream: refused before any byte (a public one would open, and is not a private route).
      if (!publicFields(def.name))
        cases.push({ method: 'GET', url: `${api}/changes?resources=${def.name}`, status: 404 });
    }
    cases.push(
      { method: 'PUT', url: `${api}/settings`, payload: { ...settingsBefore, deliveryFee: 1 }, status: 404 },
      { method: 'PATCH', url: `${api}/settings`, payload: { targetMargin: 1 }, status: 404 },
      { method: 'GET', url: `${api}/changes?resources=ingredients,recipes,b2bClients,users`, status: 404 },
    );
    expect(cases.length).toBeGreaterThanOrEqual(RESOURCES.length * 7);
    for (const c of cases) {
      const res = await t.call({ method: c.method, url: c.url, token: intruder.token, payload: c.payload });
      expect(res.statusCode, `${c.method} ${c.url}: ${res.body}`).toBe(c.status);
      if (c.status === 404) expect(json(res)).toMatchObject({ code: 'not_found' });
    }

    // Settings: the public part only.
    const settings = json<{ data: Body }>(
      await t.call({ method: 'GET', url: `${api}/settings`, token: intruder.token }),
    );
    expect(settings.data.marketName).toBe(settingsBefore.marketName);
    for (const f of SETTINGS_PRIVATE_FIELDS) {
      expect(settingsBefore).toHaveProperty(f);
      expect(settings.data).not.toHaveProperty(f);
    }

    // The public catalogue as the intruder sees it: the demo's and the ones made above, as a guest sees them.
    for (const name of ['products', 'productCollections', 'brands']) {
      const url = `${api}/${name}?per_page=1000`;
      const list = json<{ data: { id: string }[]; total: number }>(
        await t.call({ method: 'GET', url, token: intruder.token }),
      );
      const guest = json<{ data: { id: string }[]; total: number }>(await t.call({ method: 'GET', url }));
      expect(list.total, name).toBeGreaterThan(1);
      expect(list).toEqual(guest);
      expect(list.data.map((d) => d.id)).toContain(ids.get(name));
      const one = await t.call({ method: 'GET', url: `${api}/${name}/${ids.get(name)}`, token: intruder.token });
      expect(json(one)).toMatchObject({ data: { id: ids.get(name) } });
    }

    // Nothing the intruder sent changed anything.
    for (const def of RESOURCES) {
      expect(await total(def.name), def.name).toBe(totalsBefore.get(def.name));
      const now = await owner('GET', `${api}/${def.name}/${ids.get(def.name)}`);
      expect(json<{ data: Body }>(now).data, def.name).toEqual(originals.get(def.name));
    }
    expect(json<{ data: Body }>(await owner('GET', `${api}/settings`)).data).toEqual(settingsBefore);
  });
});

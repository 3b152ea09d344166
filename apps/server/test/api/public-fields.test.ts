/**
 * What everyone reads is the public field set of the permission table (docs/design.md §4): a guest and a customer
 * never receive a field outside it, through a read (first and cached), a record read, or the public
 * stream. Generated from the table and the definitions: a field added to a public resource stays private
 * until someone adds it to the public set on purpose.
 */
import { publicFields, type ResourceName } from '@hornada/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESOURCES } from '../../src/resources/definitions';
import { json, setupTestApp, type TestApp, type TestUser } from '../helpers/app';
import { SAMPLES } from '../helpers/samples';
import { openStream, type SseStream } from '../helpers/sse';

type Body = Record<string, unknown>;
let t: TestApp;
let companyId: string;
let admin: TestUser;
let customer: TestUser;

beforeAll(async () => {
  t = await setupTestApp({ listen: true, env: { RATE_LIMIT_WRITES: '0' } });
  companyId = await t.company();
  admin = await t.user('company_admin', companyId);
  customer = await t.user('company_customer', companyId);
});
afterAll(async () => {
  await t?.close();
});

/** A stream as a guest (no token) or a signed-in user, subscribed before it returns. */
async function stream(url: string, token?: string): Promise<SseStream> {
  const s = await openStream(`${t.baseUrl}${url}`, token ? { authorization: `Bearer ${token}` } : {});
  expect(s.status).toBe(200);
  await new Promise((r) => setTimeout(r, 150));
  return s;
}

/** The docs of the first event of a resource a stream receives. */
async function docsOf(s: SseStream, resource: string): Promise<Body[]> {
  await s.waitFor((events) => events.some((e) => e.json?.resource === resource));
  const event = s.events.find((e) => e.json?.resource === resource)!;
  return event.json!.changes.map((c) => c.doc);
}

const PUBLIC = RESOURCES.filter((d) => publicFields(d.name));

/** Keys outside the public set (the stream's `id` of a removal is the only extra a doc may carry). */
function outside(resource: ResourceName, doc: Body): string[] {
  const allowed = new Set([...publicFields(resource)!, 'id']);
  return Object.keys(doc).filter((k) => !allowed.has(k));
}

describe('public reads carry the public field set only', () => {
  it('covers the catalogue and settings', () => {
    expect(PUBLIC.map((d) => d.name).sort()).toEqual(['brands', 'productCollections', 'products']);
    expect(publicFields('products')).not.toContain('b2bPrice');
    expect(publicFields('products')).not.toContain('recipeId');
    expect(publicFields('settings')).not.toContain('targetMargin');
  });

  for (const def of PUBLIC) {
    it(`${def.name}: lists, records and the stream, for a guest and a customer`, async () => {
      const api = `/api/companies/${companyId}`;
      const streams = {
        guest: await stream(`${api}/changes?resources=${def.name}`),
        customer: await stream(`${api}/changes?resources=${def.name}`, customer.token),
      };
      const payload = { ...SAMPLES[def.name]!.full(1), active: true };
      if (!('active' in SAMPLES[def.name]!.full(1))) delete (payload as Body).active;
      const created = await t.call({ method: 'POST', url: `${api}/${def.name}`, token: admin.token, payload });
      expect(created.statusCode, created.body).toBe(201);
      const full = json<{ data: Body & { id: string } }>(created).data;
      const hidden = Object.keys(full).filter((k) => !publicFields(def.name)!.includes(k));
      if (def.name === 'products') expect(hidden.sort()).toEqual(['b2bPrice', 'recipeId']);

      for (const [who, token] of [
        ['guest', undefined],
        ['customer', customer.token],
      ] as const) {
        // Twice each: the second comes from the public cache.
        for (let round = 0; round < 2; round++) {
          const list = json<{ data: Body[] }>(await t.call({ method: 'GET', url: `${api}/${def.name}`, token }));
          expect(list.data.length, `${who} list`).toBeGreaterThan(0);
          for (const doc of list.data) expect(outside(def.name, doc), `${who} list, round ${round}`).toEqual([]);
          const one = json<{ data: Body }>(
            await t.call({ method: 'GET', url: `${api}/${def.name}/${full.id}`, token }),
          );
          expect(one.data.id).toBe(full.id);
          expect(outside(def.name, one.data), `${who} record, round ${round}`).toEqual([]);
        }
      }
      for (const [who, s] of Object.entries(streams)) {
        const docs = await docsOf(s, def.name);
        expect(docs.map((d) => d.id)).toContain(full.id);
        for (const doc of docs) expect(outside(def.name, doc), `${who} stream`).toEqual([]);
        s.close();
      }
      // The back office still reads every field.
      const staffView = json<{ data: Body }>(
        await t.call({ method: 'GET', url: `${api}/${def.name}/${full.id}`, token: admin.token }),
      );
      expect(staffView.data).toEqual(full);
    });
  }

  it('settings: a guest and a customer read and stream the public part only', async () => {
    const api = `/api/companies/${companyId}`;
    const guestStream = await stream(`${api}/changes?resources=settings`);
    const customerStream = await stream(`${api}/changes?resources=settings`, customer.token);
    const patch = await t.call({
      method: 'PATCH',
      url: `${api}/settings`,
      token: admin.token,
      payload: { targetMargin: 51, productionLeadDays: 3 },
    });
    expect(patch.statusCode, patch.body).toBe(200);
    for (const token of [undefined, customer.token]) {
      for (let round = 0; round < 2; round++) {
        const doc = json<{ data: Body }>(await t.call({ method: 'GET', url: `${api}/settings`, token })).data;
        expect(outside('settings', doc)).toEqual([]);
        expect(doc.marketName).toBeTruthy();
      }
    }
    for (const s of [guestStream, customerStream]) {
      for (const doc of await docsOf(s, 'settings')) expect(outside('settings', doc)).toEqual([]);
      s.close();
    }
  });
});

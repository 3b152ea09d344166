/**
 * A PATCH changes the fields it names and nothing else (docs/design.md §3), for every resource the engine serves
 * and for settings, single and bulk. Generated from the definitions: a schema whose partial form keeps
 * its defaults (zod 4's `.partial()` does) fails here for every field it would reset.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESOURCES } from '../../src/resources/definitions';
import { json, type TestApp, type TestUser } from '../helpers/app';
import { SAMPLES, setupSamplesApp, type SampleRefs } from '../helpers/samples';

type Body = Record<string, unknown>;
let t: TestApp;
let companyId: string;
let admin: TestUser;
let refs: SampleRefs;
let serial = 0;

beforeAll(async () => {
  ({ t, companyId, admin, refs } = await setupSamplesApp());
});
afterAll(async () => {
  await t?.close();
});

/** The fields a write may change on its own: the record's times, and an order's history (checked apart). */
const withoutTimes = (doc: Body) => {
  const { updatedAt: _u, history: _h, ...rest } = doc;
  return rest;
};

/** An order's history gains one entry a changed field, naming it; other records have no history. */
function expectHistoryOf(before: Body, after: Body, fields: string[]) {
  if (!Array.isArray(before.history)) return expect(after.history).toEqual(before.history);
  expect(after.history).toEqual([...before.history, ...fields.map((field) => expect.objectContaining({ field }))]);
}

describe('PATCH changes only what it names', () => {
  for (const def of RESOURCES) {
    it(`${def.name}: one field, single and bulk, leaves every other field as it was`, async () => {
      const api = `/api/companies/${companyId}/${def.name}`;
      const created = await t.call({
        method: 'POST',
        url: api,
        token: admin.token,
        payload: SAMPLES[def.name]!.full(++serial, refs),
      });
      expect(created.statusCode, created.body).toBe(201);
      const before = json<{ data: Body & { id: string } }>(created).data;
      const fields = Object.keys(SAMPLES[def.name]!.patch);

      const single = await t.call({
        method: 'PATCH',
        url: `${api}/${before.id}`,
        token: admin.token,
        payload: SAMPLES[def.name]!.patch,
      });
      expect(single.statusCode, single.body).toBe(200);
      const after = json<{ data: Body }>(single).data;
      expect(withoutTimes(after)).toEqual(withoutTimes({ ...before, ...pick(after, fields) }));
      expectHistoryOf(before, after, fields);
      for (const f of fields) expect(after[f], f).not.toEqual(before[f]);

      // Bulk: the same record, another record, each patched on one field.
      const second = json<{ data: Body & { id: string } }>(
        await t.call({
          method: 'POST',
          url: api,
          token: admin.token,
          payload: SAMPLES[def.name]!.full(++serial, refs),
        }),
      ).data;
      const bulk = await t.call({
        method: 'PATCH',
        url: `${api}/bulk-update`,
        token: admin.token,
        payload: { updates: [{ id: second.id, data: SAMPLES[def.name]!.patch }] },
      });
      expect(bulk.statusCode, bulk.body).toBe(200);
      const [bulkAfter] = json<{ data: Body[] }>(bulk).data;
      expect(withoutTimes(bulkAfter!)).toEqual(withoutTimes({ ...second, ...pick(bulkAfter!, fields) }));
      expectHistoryOf(second, bulkAfter!, fields);

      // And as read back.
      const read = json<{ data: Body }>(
        await t.call({ method: 'GET', url: `${api}/${before.id}`, token: admin.token }),
      );
      expect(read.data).toEqual(after);
    });
  }

  it('settings: one field leaves every other setting as it was', async () => {
    const api = `/api/companies/${companyId}/settings`;
    const full = {
      ...json<{ data: Body }>(await t.call({ method: 'GET', url: api, token: admin.token })).data,
      phone: '601 555 0000',
      deliveryFee: 4500,
      deliveryDays: [2, 4],
      deliveryWindows: [{ id: 'am', label: 'Mañana', start: '08:00', end: '12:00', capacity: 10 }],
      pickupEnabled: false,
      targetMargin: 55,
      productionLeadDays: 2,
    };
    const put = await t.call({ method: 'PUT', url: api, token: admin.token, payload: full });
    expect(put.statusCode, put.body).toBe(200);
    const before = json<{ data: Body }>(put).data;
    const patched = await t.call({ method: 'PATCH', url: api, token: admin.token, payload: { minimumOrder: 20_000 } });
    expect(patched.statusCode, patched.body).toBe(200);
    const after = json<{ data: Body }>(patched).data;
    expect(withoutTimes(after)).toEqual(withoutTimes({ ...before, minimumOrder: 20_000 }));
  });

  it('a disabled user stays disabled, with phone and addresses, after a PATCH of the name, and cannot sign in', async () => {
    const api = `/api/companies/${companyId}/users`;
    const body = SAMPLES.users!.full(++serial);
    const created = json<{ data: Body & { id: string } }>(
      await t.call({ method: 'POST', url: api, token: admin.token, payload: body }),
    ).data;
    expect(created).toMatchObject({ disabled: true, phone: body.phone });
    const res = await t.call({
      method: 'PATCH',
      url: `${api}/${created.id}`,
      token: admin.token,
      payload: { name: 'X' },
    });
    expect(json<{ data: Body }>(res).data).toMatchObject({
      name: 'X',
      disabled: true,
      phone: body.phone,
      addresses: [expect.objectContaining({ line: 'Calle 1 # 2-3' })],
    });
    const signIn = await t.call({
      method: 'POST',
      url: '/api/identity/sign-in',
      payload: { email: body.email, password: body.password },
    });
    expect(signIn.statusCode).toBe(403);
    expect(json(signIn)).toMatchObject({ code: 'auth/user-disabled' });
  });
});

function pick(doc: Body, fields: string[]): Body {
  return Object.fromEntries(fields.map((f) => [f, doc[f]]));
}

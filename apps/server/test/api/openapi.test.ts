/**
 * The OpenAPI document at /api/docs/json (docs/design.md §3): how many operations declare their answer, and the
 * declared answers of the resource routes held to what the routes send — every field of every record the
 * schema's, and of its type, for every resource the engine serves.
 */
import type { z } from 'zod';
import { User } from '@hornada/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESOURCES } from '../../src/resources/definitions';
import { settingsResource } from '../../src/resources/definitions/settings';
import { json, type TestApp, type TestUser } from '../helpers/app';
import { SAMPLES, setupSamplesApp, type SampleRefs } from '../helpers/samples';

/** Operations the document held when every answer was first declared: a route that leaves it is noticed. */
const OPERATIONS_AT_LEAST = 119;

type Body = Record<string, unknown>;
type Operation = { responses?: Record<string, { content?: unknown }> };

let t: TestApp;
let companyId: string;
let admin: TestUser;
let refs: SampleRefs;

beforeAll(async () => {
  ({ t, companyId, admin, refs } = await setupSamplesApp());
});
afterAll(async () => {
  await t?.close();
});

/** What `record` says of a sent record: the fields it does not declare, and the type errors of those it does. */
function disagreements(record: z.ZodObject, doc: Body): string[] {
  const extra = Object.keys(doc)
    .filter((k) => !(k in record.shape))
    .map((k) => `${k}: not in the schema`);
  const parsed = record.safeParse(doc);
  const wrong = parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  return [...extra, ...wrong];
}

describe('the OpenAPI document', () => {
  it('declares the answer of every operation, and counts them', async () => {
    const doc = json<{ paths: Record<string, Record<string, Operation>> }>(
      await t.call({ method: 'GET', url: '/api/docs/json' }),
    );
    const all: string[] = [];
    const undeclared: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const name = `${method.toUpperCase()} ${path}`;
        all.push(name);
        // An answer with a body declares its content; one without (204, a redirect) its status.
        const declared = Object.entries(op.responses ?? {}).some(
          ([status, r]) => (/^2/.test(status) && r.content) || /^(204|30\d)$/.test(status),
        );
        if (!declared) undeclared.push(name);
      }
    }
    console.log(`openapi: ${all.length - undeclared.length} of ${all.length} operations declare their answer`);
    expect(undeclared, 'operations whose answer the document does not declare').toEqual([]);
    expect(all.length).toBeGreaterThanOrEqual(OPERATIONS_AT_LEAST);
  });

  it('settings: read, patched and their window bookings send what the document declares', async () => {
    const api = `/api/companies/${companyId}/settings`;
    const read = await t.call({ method: 'GET', url: api, token: admin.token });
    expect(read.statusCode, read.body).toBe(200);
    const patched = await t.call({ method: 'PATCH', url: api, token: admin.token, payload: { deliveryFee: 4500 } });
    expect(patched.statusCode, patched.body).toBe(200);
    const answer = json<{ data: Body; warnings: unknown[] }>(patched);
    expect(answer.warnings).toEqual([]);
    const guest = await t.call({ method: 'GET', url: api });
    expect(guest.statusCode, guest.body).toBe(200);
    const bookings = await t.call({ method: 'GET', url: `${api}/window-bookings`, token: admin.token });
    expect(bookings.statusCode, bookings.body).toBe(200);
    expect(json<{ data: unknown[] }>(bookings).data).toEqual(expect.any(Array));
    const record = settingsResource.record;
    expect([
      ...disagreements(record, json<{ data: Body }>(read).data),
      ...disagreements(record, answer.data),
      // A guest's answer is the public part: no field outside the schema, none of the private ones.
      ...Object.keys(json<{ data: Body }>(guest).data).filter((k) => !(k in record.shape)),
    ]).toEqual([]);
    expect(json<{ data: Body }>(guest).data).not.toHaveProperty('targetMargin');
  });

  it('/api/me sends the user record the document declares, and nothing outside it', async () => {
    const read = await t.call({ method: 'GET', url: '/api/me', token: admin.token });
    expect(read.statusCode, read.body).toBe(200);
    const doc = json<{ data: Body }>(read).data;
    expect(disagreements(User, doc)).toEqual([]);
    expect(doc).toMatchObject({ uid: admin.uid, id: admin.uid, role: 'company_admin' });
    for (const secret of ['passwordHash', 'sessionsValidFrom', 'createdBy']) expect(doc).not.toHaveProperty(secret);
    const changed = await t.call({
      method: 'PATCH',
      url: '/api/me',
      token: admin.token,
      payload: { phone: '300 111 2233' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(json<{ data: Body }>(changed).data).toMatchObject({ phone: '300 111 2233' });
  });

  for (const def of RESOURCES) {
    it(`${def.name}: create, list, get, patch, bulk and delete send what the document declares`, async () => {
      const api = `/api/companies/${companyId}/${def.name}`;
      const sent: [string, Body][] = [];
      const call = async (label: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: Body) => {
        const res = await t.call({ method, url, token: admin.token, payload });
        expect(res.statusCode, `${label}: ${res.body}`).toBeLessThan(300);
        return json<{ data: Body | Body[] }>(res).data;
      };
      const created = (await call('create', 'POST', api, SAMPLES[def.name]!.full(1, refs))) as Body & { id: string };
      sent.push(['create', created]);
      for (const doc of (await call('list', 'GET', `${api}?per_page=5`)) as Body[]) sent.push(['list', doc]);
      sent.push(['get', (await call('get', 'GET', `${api}/${created.id}`)) as Body]);
      sent.push(['patch', (await call('patch', 'PATCH', `${api}/${created.id}`, SAMPLES[def.name]!.patch)) as Body]);
      const bulk = await call('bulk', 'PATCH', `${api}/bulk-update`, {
        updates: [{ id: created.id, data: SAMPLES[def.name]!.patch }],
      });
      for (const doc of bulk as Body[]) sent.push(['bulk', doc]);
      sent.push(['delete', (await call('delete', 'DELETE', `${api}/${created.id}`)) as Body]);
      const wrong = sent.flatMap(([label, doc]) => disagreements(def.record, doc).map((d) => `${label}: ${d}`));
      expect(wrong).toEqual([]);
    });
  }
});

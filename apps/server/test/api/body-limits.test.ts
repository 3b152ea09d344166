import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES, MAX_JSON_DEPTH } from '@hornada/domain';
import { setupTestApp, type TestApp, type TestUser } from '../helpers/app';

/**
 * Hostile bodies: each is refused while the server keeps answering. What makes the
 * refusal cheap is asserted by count (json-body.test.ts: the depth check reads 65 characters of a
 * megabyte of nesting; here at most 20 details for 100,000 faults), never by a stopwatch, which a busy
 * machine fails and a slow algorithm on a fast one passes.
 */

let t: TestApp;
let companyId: string;
let admin: TestUser;
let productUrl: string;

type ErrorBody = { message: string; code: string; details?: { path: string; message: string }[] };

beforeAll(async () => {
  t = await setupTestApp({ listen: true });
  companyId = await t.company('Panadería Límites');
  admin = await t.user('company_admin', companyId);
  const created = await t.call({
    method: 'POST',
    url: `/api/companies/${companyId}/products`,
    token: admin.token,
    payload: { name: 'Pan de prueba', price: 1000 },
  });
  expect(created.statusCode, created.body).toBe(201);
  productUrl = `/api/companies/${companyId}/products/${(JSON.parse(created.body) as { data: { id: string } }).data.id}`;
});
afterAll(async () => {
  await t?.close();
});

const arrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const objects = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
/** 100,000 distinct short keys that no schema knows ("x0", "x1"… in base 36): about 0.95 MB. */
const unknownKeys = (extra: Record<string, unknown> = {}) => {
  const parts = Array.from({ length: 100_000 }, (_, i) => `"x${i.toString(36)}":0`);
  for (const [k, v] of Object.entries(extra)) parts.push(`${JSON.stringify(k)}:${JSON.stringify(v)}`);
  return `{${parts.join(',')}}`;
};

// Close to the 1 MB limit, never over it.
const DEEP_ARRAYS = arrays(Math.floor((MAX_BODY_BYTES - 100) / 2));
const DEEP_OBJECTS = objects(Math.floor((MAX_BODY_BYTES - 100) / 6));
const SIGN_IN = { email: 'nadie@prueba.test', password: 'una-clave-cualquiera' };

/**
 * Sends one body over the socket while /api/health is asked every 25 ms; returns the answer and the
 * statuses of the health answers (one asked before the body is sent, one after its answer).
 */
async function underLoad(method: string, url: string, body: string, token?: string) {
  const health: number[] = [];
  const probe = async () => {
    const res = await fetch(`${t.baseUrl}/api/health`);
    await res.text();
    health.push(res.status);
  };
  const probes: Promise<void>[] = [probe()];
  const timer = setInterval(() => probes.push(probe()), 25);
  try {
    const res = await fetch(`${t.baseUrl}${url}`, {
      method,
      body,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });
    const answer = (await res.json()) as ErrorBody;
    probes.push(probe());
    return { status: res.status, body: answer, health: await Promise.all(probes).then(() => health) };
  } finally {
    clearInterval(timer);
  }
}

describe('hostile JSON bodies', () => {
  const targets = [
    {
      name: 'sign-in',
      method: 'POST',
      url: () => '/api/identity/sign-in',
      token: () => undefined,
      fields: () => SIGN_IN,
    },
    { name: 'a product PATCH', method: 'PATCH', url: () => productUrl, token: () => admin.token, fields: () => ({}) },
    // A guest's write that strips read-only fields before validation: the walk must stay bounded too.
    {
      name: 'a cart POST',
      method: 'POST',
      url: () => '/api/carts',
      token: () => undefined,
      fields: () => ({ companyId, items: [{ productId: 'p', quantity: 1 }] }),
    },
  ];
  const bodies = [
    { name: '~1 MB of nested arrays', body: () => DEEP_ARRAYS, tooDeep: true },
    { name: '~1 MB of nested objects', body: () => DEEP_OBJECTS, tooDeep: true },
    // Each target gets its required fields too, so the unknown keys are the only fault.
    { name: '100,000 unknown keys', body: (fields: Record<string, unknown>) => unknownKeys(fields), tooDeep: false },
  ];

  for (const target of targets) {
    for (const b of bodies) {
      it(`answers ${b.name} to ${target.name} with a 400 while /api/health answers`, async () => {
        const body = b.body(target.fields());
        expect(body.length).toBeLessThanOrEqual(MAX_BODY_BYTES);
        const r = await underLoad(target.method, target.url(), body, target.token());
        expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(400);
        expect(r.health.length).toBeGreaterThanOrEqual(2);
        expect(r.health.every((status) => status === 200)).toBe(true);
        expect(r.body.details?.length ?? 0).toBeLessThanOrEqual(20);
        if (b.tooDeep) {
          expect(r.body.message).toBe(`Request body is nested too deeply (limit ${MAX_JSON_DEPTH} levels)`);
        } else {
          // Every unknown key is counted in the message, though only 20 are listed.
          expect(r.body.code).toBe('validation');
          expect(r.body.details).toHaveLength(20);
          expect(r.body.message).toMatch(/Unknown field/);
          expect(r.body.message).toContain(`(and ${100_000 - 5} more)`);
        }
      });
    }
  }
});

describe('the nesting bound', () => {
  const signIn = (body: string) =>
    t.call({
      method: 'POST',
      url: '/api/identity/sign-in',
      payload: body,
      headers: { 'content-type': 'application/json' },
    });
  /** A sign-in body whose e-mail is nested so that the whole body has `depth` levels. */
  const nestedEmail = (depth: number) => `{"email":${'['.repeat(depth - 1)}"a"${']'.repeat(depth - 1)},"password":"x"}`;

  it(`lets ${MAX_JSON_DEPTH} levels reach validation and refuses ${MAX_JSON_DEPTH + 1} by naming the limit`, async () => {
    const atLimit = await signIn(nestedEmail(MAX_JSON_DEPTH));
    expect(atLimit.statusCode).toBe(400);
    const ok = JSON.parse(atLimit.body) as ErrorBody;
    expect(ok.code).toBe('validation');
    expect(ok.details?.map((d) => d.path)).toEqual(['email']);

    const over = await signIn(nestedEmail(MAX_JSON_DEPTH + 1));
    expect(over.statusCode).toBe(400);
    const refused = JSON.parse(over.body) as ErrorBody;
    expect(refused.message).toContain(`limit ${MAX_JSON_DEPTH} levels`);
    expect(refused.details).toBeUndefined();
  });

  it('does not count brackets inside strings, escaped quotes included', async () => {
    const password = `\\"${'[{'.repeat(200)}`;
    const res = await signIn(`{"email":"nadie@prueba.test","password":"${password}"}`);
    // Parsed and checked like any other password: wrong credentials, not a refused body.
    expect(res.statusCode, res.body).toBe(401);
  });

  it('keeps the JSON parser protections: poisoned prototypes, empty and broken bodies', async () => {
    for (const body of [
      '{"__proto__":{"admin":true},"email":"a@b.co","password":"x"}',
      '{"constructor":{"prototype":{"admin":true}},"email":"a@b.co","password":"x"}',
      '',
      '{"email":',
    ]) {
      const res = await signIn(body);
      expect(res.statusCode, body).toBe(400);
      expect((JSON.parse(res.body) as ErrorBody).code, body).toBe('invalid_json');
    }
  });
});

/**
 * Writes through the resource engine: bad bodies answered with the right 4xx and per-field details,
 * record ids, PUT and PATCH, bulk updates (all or nothing, no deadlock between concurrent ones), soft
 * delete; and the system routes (health, config, the OpenAPI document, 404 and security headers).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, type TestApp, type TestUser } from '../helpers/app';
import { resourcesCalls, setupResourcesApp } from '../helpers/resources';

let t: TestApp;
let companyId: string;
let admin: TestUser;
const { path, create } = resourcesCalls(() => ({ t, companyId, admin }));

beforeAll(async () => {
  ({ t, companyId, admin } = await setupResourcesApp());
});
afterAll(async () => {
  await t?.close();
});

describe('write bodies', () => {
  it('answers malformed JSON, wrong content type and oversize bodies with the right 4xx', async () => {
    const bad = await t.call({
      method: 'POST',
      url: path('products'),
      token: admin.token,
      headers: { 'content-type': 'application/json' },
      payload: '{"name": "Pan",',
    });
    expect(bad.statusCode).toBe(400);
    expect(json(bad)).toMatchObject({ code: 'invalid_json', message: expect.any(String), error: expect.any(String) });

    const text = await t.call({
      method: 'POST',
      url: path('products'),
      token: admin.token,
      headers: { 'content-type': 'text/plain' },
      payload: 'name=Pan',
    });
    expect(text.statusCode).toBe(415);
    expect(json(text)).toEqual({
      message: 'Unsupported content type: send application/json',
      error: 'Unsupported content type: send application/json',
      code: 'unsupported_media_type',
    });

    const big = await t.call({
      method: 'POST',
      url: path('products'),
      token: admin.token,
      payload: { name: 'Pan', price: 1, description: 'x'.repeat(1_100_000) },
    });
    expect(big.statusCode).toBe(413);
    expect(json(big).code).toBe('payload_too_large');
  });

  it('gives per-field details for wrong types and names unknown fields', async () => {
    const res = await t.call({
      method: 'POST',
      url: path('products'),
      token: admin.token,
      payload: { name: 5, price: 'caro' },
    });
    expect(res.statusCode).toBe(400);
    const body = json<{ code: string; details: { path: string; message: string }[] }>(res);
    expect(body.code).toBe('validation');
    expect(body.details.map((d) => d.path).sort()).toEqual(['name', 'price']);

    const unknown = await t.call({
      method: 'POST',
      url: path('products'),
      token: admin.token,
      payload: { name: 'Pan', price: 100, colour: 'red' },
    });
    expect(unknown.statusCode).toBe(400);
    expect(json<{ message: string; details: unknown[] }>(unknown)).toMatchObject({
      message: expect.stringContaining('colour'),
      details: [{ path: 'colour', message: 'Unknown field' }],
    });

    const fraction = await t.call({
      method: 'POST',
      url: path('products'),
      token: admin.token,
      payload: { name: 'Pan', price: 10.5 },
    });
    expect(fraction.statusCode).toBe(400);
  });

  it('rejects the NUL character in a search, a path id, a filter or any JSON text with a 400 naming it', async () => {
    const p = await create('products', { name: 'Pan sin nulos', price: 100 });
    const cases: { req: Parameters<TestApp['call']>[0]; paths: string[] }[] = [
      { req: { method: 'GET', url: `${path('products')}?search=pan%00` }, paths: ['query.search'] },
      { req: { method: 'GET', url: `${path('products')}/${p.id}%00` }, paths: ['params.id'] },
      { req: { method: 'GET', url: `${path('products')}/%00`, token: admin.token }, paths: ['params.id'] },
      {
        req: { method: 'GET', url: `${path('ingredients')}?supplier=a%00b`, token: admin.token },
        paths: ['query.supplier'],
      },
      { req: { method: 'GET', url: `/api/companies/a%00b/products` }, paths: ['params.companyId'] },
      {
        req: { method: 'POST', url: path('products'), token: admin.token, payload: { name: 'Pan\u0000', price: 1 } },
        paths: ['name'],
      },
      {
        req: {
          method: 'PATCH',
          url: `${path('products')}/${p.id}`,
          token: admin.token,
          payload: { description: 'ok', images: [{ path: 'a\u0000.webp', alt: 'x', width: 1, height: 1 }] },
        },
        paths: ['images.0.path'],
      },
      {
        req: {
          method: 'PATCH',
          url: `${path('products')}/bulk-update`,
          token: admin.token,
          payload: { updates: [{ id: p.id, data: { name: '\u0000' } }] },
        },
        paths: ['updates.0.data.name'],
      },
      {
        req: { method: 'PATCH', url: path('settings'), token: admin.token, payload: { marketName: 'La\u0000' } },
        paths: ['marketName'],
      },
      {
        req: {
          method: 'POST',
          url: path('recipes'),
          token: admin.token,
          payload: { name: 'Receta', yield: 1, steps: ['Amasar', 'Hornear\u0000'] },
        },
        paths: ['steps.1'],
      },
    ];
    for (const { req, paths } of cases) {
      const res = await t.call(req);
      expect(res.statusCode, `${req.method} ${req.url}: ${res.body}`).toBe(400);
      const body = json<{ code: string; details: { path: string }[] }>(res);
      expect(body.code).toBe('validation');
      expect(body.details.map((d) => d.path)).toEqual(paths);
    }
    const still = json<{ data: { name: string } }>(
      await t.call({ method: 'GET', url: `${path('products')}/${p.id}`, token: admin.token }),
    );
    expect(still.data.name).toBe('Pan sin nulos');
  });

  it('gives records random ids of at least 128 bits', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) ids.add((await create('brands', { name: `Marca ${i}` })).id);
    expect(ids.size).toBe(5);
    for (const id of ids) {
      // lib/ids.ts: 16 random bytes in base64url, 22 characters.
      expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(Buffer.from(id, 'base64url').length * 8).toBeGreaterThanOrEqual(128);
    }
  });

  it('accepts a GET result sent back as a PUT body, and PUT resets omitted fields', async () => {
    const p = await create('products', {
      name: 'Roscón',
      price: 12000,
      description: 'Con arequipe',
      allergens: ['gluten'],
    });
    const got = json<{ data: Record<string, unknown> }>(
      await t.call({ method: 'GET', url: `${path('products')}/${p.id}`, token: admin.token }),
    );
    const put = await t.call({
      method: 'PUT',
      url: `${path('products')}/${p.id}`,
      token: admin.token,
      payload: { ...got.data, price: 13000 },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(json<{ data: Record<string, unknown> }>(put).data).toMatchObject({
      id: p.id,
      price: 13000,
      description: 'Con arequipe',
      createdAt: got.data.createdAt,
    });

    const replaced = await t.call({
      method: 'PUT',
      url: `${path('products')}/${p.id}`,
      token: admin.token,
      payload: { name: 'Roscón', price: 13000 },
    });
    expect(json<{ data: Record<string, unknown> }>(replaced).data).toMatchObject({ description: null, allergens: [] });

    const patched = await t.call({
      method: 'PATCH',
      url: `${path('products')}/${p.id}`,
      token: admin.token,
      payload: { active: false },
    });
    expect(json<{ data: Record<string, unknown> }>(patched).data).toMatchObject({
      name: 'Roscón',
      price: 13000,
      active: false,
    });
  });

  it('bulk-update is all or nothing', async () => {
    const a = await create('products', { name: 'Bulk A', price: 100 });
    const b = await create('products', { name: 'Bulk B', price: 200 });
    const url = `${path('products')}/bulk-update`;
    const bad = await t.call({
      method: 'PATCH',
      url,
      token: admin.token,
      payload: {
        updates: [
          { id: a.id, data: { price: 111 } },
          { id: b.id, data: { price: -1 } },
        ],
      },
    });
    expect(bad.statusCode).toBe(400);
    expect(json<{ details: { path: string }[] }>(bad).details[0]!.path).toBe('updates.1.data.price');

    const missing = await t.call({
      method: 'PATCH',
      url,
      token: admin.token,
      payload: {
        updates: [
          { id: a.id, data: { price: 111 } },
          { id: 'no-such-id', data: { price: 5 } },
        ],
      },
    });
    expect(missing.statusCode).toBe(404);

    const badRef = await t.call({
      method: 'PATCH',
      url,
      token: admin.token,
      payload: {
        updates: [
          { id: a.id, data: { price: 111 } },
          { id: b.id, data: { brandId: 'nope' } },
        ],
      },
    });
    expect(badRef.statusCode).toBe(400);

    for (const p of [a, b]) {
      const got = json<{ data: { price: number } }>(
        await t.call({ method: 'GET', url: `${path('products')}/${p.id}`, token: admin.token }),
      );
      expect(got.data.price).toBe(p.price);
    }
    const ok = await t.call({
      method: 'PATCH',
      url,
      token: admin.token,
      payload: {
        updates: [
          { id: a.id, data: { price: 111 } },
          { id: b.id, data: { price: 222, id: b.id, createdAt: 'x' } },
        ],
      },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(json<{ data: { price: number }[] }>(ok).data.map((p) => p.price)).toEqual([111, 222]);

    const empty = await t.call({ method: 'PATCH', url, token: admin.token, payload: { updates: [] } });
    expect(empty.statusCode).toBe(400);
    expect(json<{ message: string }>(empty).message).toContain('Updates array is required');
  });

  it('runs concurrent bulk updates over the same records in opposite orders without a deadlock', async () => {
    const made: string[] = [];
    for (let i = 0; i < 20; i++) made.push((await create('products', { name: `Concurrente ${i}`, price: 100 })).id);
    const url = `${path('products')}/bulk-update`;
    const bulk = (order: string[], price: number) =>
      t.call({
        method: 'PATCH',
        url,
        token: admin.token,
        payload: { updates: order.map((id) => ({ id, data: { price } })) },
      });
    const reversed = [...made].reverse();
    for (let round = 0; round < 3; round++) {
      // Without rows locked in one order first, these meet in the middle and PostgreSQL kills one (40P01).
      const results = await Promise.all([
        bulk(made, 1000 + round),
        bulk(reversed, 2000 + round),
        bulk(made, 3000 + round),
        bulk(reversed, 4000 + round),
      ]);
      for (const r of results) expect(r.statusCode, r.body).toBe(200);
      // All or nothing, one after another: every record ends with the price of the same (last) request.
      const after = json<{ data: { id: string; price: number }[] }>(
        await t.call({ method: 'GET', url: `${path('products')}?search=concurrente&per_page=100`, token: admin.token }),
      );
      expect(after.data).toHaveLength(20);
      expect(new Set(after.data.map((p) => p.price)).size).toBe(1);
    }
  });

  it('soft delete hides the record from get and list', async () => {
    const p = await create('brands', { name: 'Efímera' });
    const del = await t.call({ method: 'DELETE', url: `${path('brands')}/${p.id}`, token: admin.token });
    expect(del.statusCode).toBe(200);
    expect(json<{ data: { deletedAt: string } }>(del).data.deletedAt).toBeTruthy();
    expect((await t.call({ method: 'GET', url: `${path('brands')}/${p.id}`, token: admin.token })).statusCode).toBe(
      404,
    );
    const list = json<{ data: { id: string }[] }>(
      await t.call({ method: 'GET', url: `${path('brands')}?per_page=1000`, token: admin.token }),
    );
    expect(list.data.map((b) => b.id)).not.toContain(p.id);
    expect((await t.call({ method: 'DELETE', url: `${path('brands')}/${p.id}`, token: admin.token })).statusCode).toBe(
      404,
    );
  });
});

describe('system routes', () => {
  it('answers health, config and the OpenAPI document', async () => {
    expect(json(await t.call({ method: 'GET', url: '/api/health' }))).toEqual({ data: { status: 'ok' } });
    const config = json<{ data: Record<string, unknown> }>(await t.call({ method: 'GET', url: '/api/config' }));
    expect(config.data).toMatchObject({ googleSignIn: false, marketName: expect.any(String) });
    const doc = json<{ openapi: string; paths: Record<string, unknown> }>(
      await t.call({ method: 'GET', url: '/api/docs/json' }),
    );
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/companies/{companyId}/products',
        '/api/companies/{companyId}/products/bulk-update',
        '/api/companies/{companyId}/settings',
      ]),
    );
    const res = await t.call({ method: 'GET', url: '/api/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(json(res)).toMatchObject({ code: 'not_found' });
    // The API: the strictest policy, none of the document-only headers.
    expect(res.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
    expect(res.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY' });
    expect(res.headers['x-dns-prefetch-control']).toBeUndefined();
    // Everything else (pages, files, the API's documentation): the web app's policy.
    const page = await t.call({ method: 'GET', url: '/files/nothing-here.webp' });
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['content-security-policy']).not.toContain('unsafe-eval');
  });
});

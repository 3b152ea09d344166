import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestApp, type TestUser } from '../helpers/app';

let t: TestApp;
let companyId: string;
let otherCompanyId: string;
let admin: TestUser;
let staff: TestUser;
let customer: TestUser;
let production: TestUser;
let otherAdmin: TestUser;

const path = (resource: string, company = companyId) => `/api/companies/${company}/${resource}`;
const json = <T = Record<string, unknown>>(res: { body: string }) => JSON.parse(res.body) as T;

async function create(resource: string, body: Record<string, unknown>, user: TestUser = admin) {
  const res = await t.call({ method: 'POST', url: path(resource), token: user.token, payload: body });
  expect(res.statusCode, res.body).toBe(201);
  return json<{ data: Record<string, unknown> & { id: string } }>(res).data;
}

beforeAll(async () => {
  t = await setupTestApp();
  companyId = await t.company('Panadería Uno');
  otherCompanyId = await t.company('Panadería Dos');
  admin = await t.user('company_admin', companyId);
  staff = await t.user('company_staff', companyId);
  customer = await t.user('company_customer', companyId);
  production = await t.user('production_assistant', companyId);
  otherAdmin = await t.user('company_admin', otherCompanyId);
});
afterAll(async () => {
  await t?.close();
});

describe('list parameters', () => {
  let ids: string[] = [];
  let listCompany: string;
  let listAdmin: TestUser;

  beforeAll(async () => {
    listCompany = await t.company('Lista');
    listAdmin = await t.user('company_admin', listCompany);
    ids = [];
    for (let i = 0; i < 12; i++) {
      t.clock.advance(1000);
      const res = await t.call({
        method: 'POST',
        url: path('products', listCompany),
        token: listAdmin.token,
        payload: { name: `Producto ${String(i).padStart(2, '0')}`, price: 1000 + i * 100, active: i !== 3 },
      });
      ids.push(json<{ data: { id: string } }>(res).data.id);
    }
  });

  const list = (query: string, token = listAdmin.token) =>
    t.call({ method: 'GET', url: `${path('products', listCompany)}${query}`, token });

  it('defaults to page 1, 10 a page, newest first', async () => {
    const res = await list('');
    expect(res.statusCode).toBe(200);
    const body = json<{ data: { id: string }[]; total: number; page: number; perPage: number }>(res);
    expect(body.total).toBe(12);
    expect(body.page).toBe(1);
    expect(body.perPage).toBe(10);
    expect(body.data.map((p) => p.id)).toEqual([...ids].reverse().slice(0, 10));
  });

  it('pages, sorts both ways and filters', async () => {
    const page2 = json<{ data: { id: string }[] }>(await list('?page=2'));
    expect(page2.data.map((p) => p.id)).toEqual([ids[1], ids[0]]);
    const byPrice = json<{ data: { price: number }[] }>(await list('?sort=price&per_page=3'));
    expect(byPrice.data.map((p) => p.price)).toEqual([1000, 1100, 1200]);
    const byNameDesc = json<{ data: { name: string }[] }>(await list('?sort=-name&per_page=2'));
    expect(byNameDesc.data.map((p) => p.name)).toEqual(['Producto 11', 'Producto 10']);
    const inactive = json<{ data: { id: string }[]; total: number }>(await list('?active=false'));
    expect(inactive.total).toBe(1);
    expect(inactive.data[0]!.id).toBe(ids[3]);
    const anyOf = json<{ total: number }>(await list('?price=1000,1500,999'));
    expect(anyOf.total).toBe(2);
    const beyond = json<{ data: unknown[]; total: number }>(await list('?page=9'));
    expect(beyond.data).toEqual([]);
    expect(beyond.total).toBe(12);
  });

  it('rejects bad paging with 400', async () => {
    for (const q of ['?page=-1', '?page=0', '?page=abc', '?per_page=1001', '?per_page=0']) {
      const res = await list(q);
      expect(res.statusCode, q).toBe(400);
      expect(json(res).code).toBe('validation');
    }
    expect((await list('?per_page=1000')).statusCode).toBe(200);
  });

  it('names an unknown sort field, filter or parameter', async () => {
    const sort = await list('?sort=-color');
    expect(sort.statusCode).toBe(400);
    expect(json<{ message: string }>(sort).message).toContain('color');
    const filter = await list('?color=red');
    expect(filter.statusCode).toBe(400);
    expect(json<{ message: string; details: { path: string }[] }>(filter).details).toEqual([
      { path: 'query.color', message: 'Unknown parameter' },
    ]);
    const badBool = await list('?active=maybe');
    expect(badBool.statusCode).toBe(400);
    expect(json<{ message: string }>(badBool).message).toContain('active');
    const badDate = await list('?date_field=price&start_date=2026-11-01');
    expect(badDate.statusCode).toBe(400);
    const badRange = await list('?start_date=2026-11-05&end_date=2026-11-01');
    expect(badRange.statusCode).toBe(400);
  });

  it('checks equality-filter values against the field type: 400 naming query.<field>, never a 500', async () => {
    const expectBad = async (resource: string, query: string, field: string) => {
      const res = await t.call({
        method: 'GET',
        url: `${path(resource, listCompany)}${query}`,
        token: listAdmin.token,
      });
      expect(res.statusCode, `${resource}${query}: ${res.body}`).toBe(400);
      const body = json<{ code: string; details: { path: string }[] }>(res);
      expect(body.code).toBe('validation');
      expect(body.details.map((d) => d.path)).toEqual([`query.${field}`]);
    };
    // Integers: fractions, beyond PostgreSQL's integer, words, blanks, one bad value among good ones.
    for (const q of ['1.5', '99999999999', '2147483648', '1e3', 'abc', '', '1000,abc', ' 1000']) {
      await expectBad('products', `?price=${encodeURIComponent(q)}`, 'price');
    }
    await expectBad('b2bClients', '?paymentTermsDays=1.5', 'paymentTermsDays');
    await expectBad('b2bClients', '?paymentTermsDays=99999999999', 'paymentTermsDays');
    await expectBad('b2bClients', '?active=yes', 'active');
    await expectBad('products', '?active=TRUE', 'active');
    // Enum members and ids, from the domain schema of the field.
    await expectBad('ingredients', '?unit=tonelada', 'unit');
    await expectBad('ingredients', '?unit=kg,arroba', 'unit');
    await expectBad('users', '?role=chef', 'role');
    await expectBad('products', `?collectionId=${'x'.repeat(65)}`, 'collectionId');
    await expectBad('products', '?collectionId=', 'collectionId');

    // Well-formed values that match nothing are an empty list, not an error.
    for (const [resource, q] of [
      ['products', '?price=-5'],
      ['products', '?price=2147483647'],
      ['products', '?collectionId=no-such-collection'],
      ['ingredients', '?unit=kg,g'],
      ['b2bClients', '?paymentTermsDays=30&active=true'],
      ['users', '?role=company_staff&disabled=false'],
    ] as const) {
      const res = await t.call({ method: 'GET', url: `${path(resource, listCompany)}${q}`, token: listAdmin.token });
      expect(res.statusCode, `${resource}${q}: ${res.body}`).toBe(200);
    }
  });
});

describe('search and dates', () => {
  it('finds "Almojábana" with search=almojabana, ignoring case and accents', async () => {
    const a = await create('products', { name: 'Almojábana', price: 2500 });
    await create('products', { name: 'Pan francés', price: 1800 });
    for (const term of ['almojabana', 'ALMOJÁBANA', 'mojab']) {
      const res = await t.call({
        method: 'GET',
        url: `${path('products')}?search=${encodeURIComponent(term)}`,
        token: admin.token,
      });
      const ids = json<{ data: { id: string }[] }>(res).data.map((p) => p.id);
      expect(ids, term).toContain(a.id);
      expect(ids, term).toHaveLength(1);
    }
    const none = await t.call({ method: 'GET', url: `${path('products')}?search=%25`, token: admin.token });
    expect(json<{ total: number }>(none).total).toBe(0);
  });

  it("puts a record made at 23:30 Bogotá time in that day's range, not the next day's", async () => {
    const company = await t.company('Fechas');
    const user = await t.user('company_admin', company);
    t.clock.set('2026-11-21T23:30:00-05:00');
    const res = await t.call({
      method: 'POST',
      url: path('brands', company),
      token: user.token,
      payload: { name: 'Nocturna' },
    });
    expect(res.statusCode).toBe(201);
    const range = async (day: string) =>
      json<{ total: number }>(
        await t.call({
          method: 'GET',
          url: `${path('brands', company)}?date_field=createdAt&start_date=${day}&end_date=${day}`,
        }),
      ).total;
    expect(await range('2026-11-21')).toBe(1);
    expect(await range('2026-11-22')).toBe(0);
    t.clock.set('2026-11-22T15:00:00.000Z');
  });
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

describe('permissions and tenants', () => {
  it("hides another company's records behind 404", async () => {
    const ing = await create('ingredients', { name: 'Harina', unit: 'kg', costPerUnit: 3200.12345 });
    expect(ing.costPerUnit).toBe(3200.1235);
    const read = await t.call({ method: 'GET', url: `${path('ingredients')}/${ing.id}`, token: otherAdmin.token });
    expect(read.statusCode).toBe(404);
    const list = await t.call({ method: 'GET', url: path('ingredients'), token: otherAdmin.token });
    expect(list.statusCode).toBe(404);
    const write = await t.call({
      method: 'PATCH',
      url: `${path('ingredients')}/${ing.id}`,
      token: otherAdmin.token,
      payload: { stock: 1 },
    });
    expect(write.statusCode).toBe(404);
    // The same id through the other company's own path is not found either.
    const cross = await t.call({
      method: 'GET',
      url: `${path('ingredients', otherCompanyId)}/${ing.id}`,
      token: otherAdmin.token,
    });
    expect(cross.statusCode).toBe(404);
    const unknownCompany = await t.call({ method: 'GET', url: path('products', 'no-such-company') });
    expect(unknownCompany.statusCode).toBe(404);
  });

  it('lets a customer read the catalogue but not write it', async () => {
    const res = await t.call({
      method: 'POST',
      url: path('products'),
      token: customer.token,
      payload: { name: 'Pan', price: 100 },
    });
    expect(res.statusCode).toBe(403);
    expect(json(res).code).toBe('forbidden');
    expect(
      (await t.call({ method: 'POST', url: path('products'), payload: { name: 'Pan', price: 100 } })).statusCode,
    ).toBe(401);
    expect((await create('products', { name: 'Hecho por staff', price: 100 }, staff)).name).toBe('Hecho por staff');
  });

  it('shows only active products and collections to the public, everything to staff', async () => {
    const hidden = await create('products', { name: 'Natilla de temporada', price: 9000, active: false });
    const anon = json<{ data: { id: string; active: boolean }[] }>(
      await t.call({ method: 'GET', url: `${path('products')}?per_page=1000` }),
    );
    expect(anon.data.length).toBeGreaterThan(0);
    expect(anon.data.every((p) => p.active)).toBe(true);
    expect((await t.call({ method: 'GET', url: `${path('products')}/${hidden.id}` })).statusCode).toBe(404);
    expect(
      (await t.call({ method: 'GET', url: `${path('products')}/${hidden.id}`, token: customer.token })).statusCode,
    ).toBe(404);
    expect(
      (await t.call({ method: 'GET', url: `${path('products')}/${hidden.id}`, token: staff.token })).statusCode,
    ).toBe(200);
    // Another company's admin reads this company's public catalogue like anyone.
    const foreign = json<{ data: { active: boolean }[] }>(
      await t.call({ method: 'GET', url: `${path('products')}?per_page=1000`, token: otherAdmin.token }),
    );
    expect(foreign.data.every((p) => p.active)).toBe(true);
    const col = await create('productCollections', { name: 'Oculta', active: false });
    const cols = json<{ data: { id: string }[] }>(await t.call({ method: 'GET', url: path('productCollections') }));
    expect(cols.data.map((c) => c.id)).not.toContain(col.id);
  });

  it('keeps ingredients, recipes and B2B clients private: 401 without a token, 403 for a customer', async () => {
    for (const resource of ['ingredients', 'recipes', 'b2bClients']) {
      expect((await t.call({ method: 'GET', url: path(resource) })).statusCode, resource).toBe(401);
      expect((await t.call({ method: 'GET', url: path(resource), token: customer.token })).statusCode, resource).toBe(
        403,
      );
    }
    expect((await t.call({ method: 'GET', url: path('recipes'), token: production.token })).statusCode).toBe(200);
    expect((await t.call({ method: 'GET', url: path('b2bClients'), token: production.token })).statusCode).toBe(403);
    expect(
      (
        await t.call({
          method: 'POST',
          url: path('ingredients'),
          token: production.token,
          payload: { name: 'Sal', unit: 'g' },
        })
      ).statusCode,
    ).toBe(403);
  });

  it("refuses a reference to another company's collection, naming the field", async () => {
    const foreignCol = await t.call({
      method: 'POST',
      url: path('productCollections', otherCompanyId),
      token: otherAdmin.token,
      payload: { name: 'Ajena' },
    });
    const foreignId = json<{ data: { id: string } }>(foreignCol).data.id;
    const res = await t.call({
      method: 'POST',
      url: path('products'),
      token: admin.token,
      payload: { name: 'Pan', price: 100, collectionId: foreignId },
    });
    expect(res.statusCode).toBe(400);
    expect(json<{ message: string; details: { path: string }[] }>(res)).toMatchObject({
      message: expect.stringContaining('collectionId'),
      details: [{ path: 'collectionId' }],
    });
  });

  it('rejects a bad or foreign token with 401', async () => {
    for (const header of ['Bearer nonsense', 'Basic abc', `Bearer ${admin.token}x`]) {
      const res = await t.call({ method: 'GET', url: path('products'), headers: { authorization: header } });
      expect(res.statusCode, header).toBe(401);
    }
  });
});

describe('recipes, B2B clients and settings', () => {
  it('derives cost a unit and margin, converting g to kg', async () => {
    const flour = await create('ingredients', { name: 'Harina de trigo', unit: 'kg', costPerUnit: 3000 });
    const eggs = await create('ingredients', { name: 'Huevos', unit: 'unidad', costPerUnit: 600 });
    const product = await create('products', { name: 'Pan de la casa', price: 2000 });
    const recipe = await create('recipes', {
      name: 'Pan de la casa',
      productId: product.id,
      yield: 10,
      items: [
        { ingredientId: flour.id, quantity: 1000, unit: 'g' },
        { ingredientId: eggs.id, quantity: 5 },
      ],
      costPerUnit: 1,
    });
    // (1 kg × 3000 + 5 × 600) / 10 = 600 a unit; margin (2000 − 600) / 2000 = 70 %.
    expect(recipe).toMatchObject({ costPerUnit: 600, margin: 70 });
    const bad = await t.call({
      method: 'POST',
      url: path('recipes'),
      token: admin.token,
      payload: { name: 'Mala', yield: 1, items: [{ ingredientId: 'missing', quantity: 1 }] },
    });
    expect(bad.statusCode).toBe(400);
    expect(json<{ details: { path: string }[] }>(bad).details[0]!.path).toBe('items.0.ingredientId');
  });

  it('leaves deleted ingredients and products out of cost and margin', async () => {
    const flour = await create('ingredients', { name: 'Harina borrada', unit: 'kg', costPerUnit: 3000 });
    const product = await create('products', { name: 'Pan borrado', price: 2000 });
    const recipe = await create('recipes', {
      name: 'Pan borrado',
      productId: product.id,
      yield: 10,
      items: [{ ingredientId: flour.id, quantity: 1 }],
    });
    expect(recipe).toMatchObject({ costPerUnit: 300, margin: 85 });
    const read = async () =>
      json<{ data: { costPerUnit: number | null; margin: number | null } }>(
        await t.call({ method: 'GET', url: `${path('recipes')}/${recipe.id}`, token: admin.token }),
      ).data;
    expect(
      (await t.call({ method: 'DELETE', url: `${path('products')}/${product.id}`, token: admin.token })).statusCode,
    ).toBe(200);
    expect(await read()).toMatchObject({ costPerUnit: 300, margin: null });
    expect(
      (await t.call({ method: 'DELETE', url: `${path('ingredients')}/${flour.id}`, token: admin.token })).statusCode,
    ).toBe(200);
    expect(await read()).toMatchObject({ costPerUnit: null, margin: null });
  });

  it('checks the NIT check digit of a B2B client', async () => {
    const ok = await create('b2bClients', { businessName: 'Café Central', taxId: '900.123.456-8' });
    expect(ok.taxId).toBe('900.123.456-8');
    const bad = await t.call({
      method: 'POST',
      url: path('b2bClients'),
      token: admin.token,
      payload: { businessName: 'X', taxId: '900123456-1' },
    });
    expect(bad.statusCode).toBe(400);
    expect(json<{ details: { path: string }[] }>(bad).details[0]!.path).toBe('taxId');
  });

  it('serves public settings to everyone and lets only the admin change them', async () => {
    const anon = json<{ data: Record<string, unknown> }>(await t.call({ method: 'GET', url: path('settings') }));
    expect(anon.data.marketName).toBe('Panadería Uno');
    expect(anon.data).not.toHaveProperty('targetMargin');
    expect(anon.data).not.toHaveProperty('productionLeadDays');
    const full = json<{ data: Record<string, unknown> }>(
      await t.call({ method: 'GET', url: path('settings'), token: staff.token }),
    );
    expect(full.data).toHaveProperty('targetMargin', 60);

    expect(
      (await t.call({ method: 'PATCH', url: path('settings'), token: staff.token, payload: { deliveryFee: 1 } }))
        .statusCode,
    ).toBe(403);
    expect(
      (await t.call({ method: 'PATCH', url: path('settings'), token: otherAdmin.token, payload: { deliveryFee: 1 } }))
        .statusCode,
    ).toBe(404);
    const patched = await t.call({
      method: 'PATCH',
      url: path('settings'),
      token: admin.token,
      payload: { deliveryFee: 5000, companyId: 'ignored' },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(json<{ data: Record<string, unknown> }>(patched).data).toMatchObject({ deliveryFee: 5000, companyId });
    const badTz = await t.call({
      method: 'PATCH',
      url: path('settings'),
      token: admin.token,
      payload: { timeZone: 'Mars/Olympus' },
    });
    expect(badTz.statusCode).toBe(400);
    const roundTrip = await t.call({ method: 'PUT', url: path('settings'), token: admin.token, payload: full.data });
    expect(roundTrip.statusCode, roundTrip.body).toBe(200);
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

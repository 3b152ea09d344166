/**
 * Lists of the resource engine: paging, sorting, filters checked against the field types, search that
 * ignores case and accents, and date ranges in the company's time zone.
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

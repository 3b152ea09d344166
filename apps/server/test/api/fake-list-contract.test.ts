/**
 * The web's in-memory API (apps/web/src/lib/api/resource-service.fake.ts) stands in for this server in the
 * resource service and store tests: its lists must answer what the server's do, or those tests pass
 * against behaviour the app never meets. The same records, listed both ways, must come back in the same
 * order, pages and totals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeHttp, type JsonRecord } from '../../../web/src/lib/api/resource-service.fake';
import { json, setupTestApp, type TestApp, type TestUser } from '../helpers/app';

let t: TestApp;
let companyId: string;
let admin: TestUser;
const fake = new FakeHttp();
const base = () => `/companies/${companyId}/products`;

/** Names that tell byte order, case and accent folding apart, with ties of name and price. */
const PRODUCTS = [
  { name: 'Pan de bono', price: 1200, active: true, description: 'Con queso costeño' },
  { name: 'almojábana', price: 1500, active: true },
  { name: 'Almojabana grande', price: 1500, active: false, description: 'La de siempre' },
  { name: 'Ñapa de pandebono', price: 300, active: true },
  { name: 'Buñuelo', price: 900, active: true, description: 'Frito en la mañana' },
  { name: 'buñuelo', price: 900, active: true },
  { name: 'Zanahoria cake', price: 12_000, active: true },
  { name: 'Éclair', price: 4500, active: false },
  { name: 'Pan Árabe', price: 1200, active: true, description: 'pan plano' },
  { name: 'pan integral', price: 2500, active: true },
];

beforeAll(async () => {
  t = await setupTestApp();
  companyId = await t.company('Panadería Contrato');
  admin = await t.user('company_admin', companyId);
  for (const p of PRODUCTS) {
    t.clock.advance(1000);
    const res = await t.call({ method: 'POST', url: `/api${base()}`, token: admin.token, payload: p });
    expect(res.statusCode, res.body).toBe(201);
  }
  // One deleted record: neither list shows it.
  const gone = await t.call({
    method: 'POST',
    url: `/api${base()}`,
    token: admin.token,
    payload: { name: 'Pan borrado', price: 1 },
  });
  const goneId = json<{ data: { id: string } }>(gone).data.id;
  expect((await t.call({ method: 'DELETE', url: `/api${base()}/${goneId}`, token: admin.token })).statusCode).toBe(200);
  // The fake gets the records exactly as the server sends them (the deleted one with its deletedAt).
  const all = await t.call({ method: 'GET', url: `/api${base()}?per_page=100`, token: admin.token });
  const records = json<{ data: JsonRecord[] }>(all).data;
  expect(records).toHaveLength(PRODUCTS.length);
  fake.seed(base(), [...records, { ...records[0]!, id: goneId, name: 'Pan borrado', deletedAt: t.clock.now() }]);
});
afterAll(async () => {
  await t?.close();
});

const QUERIES: Record<string, string>[] = [
  {},
  { sort: 'createdAt' },
  { sort: 'name' },
  { sort: '-name' },
  { sort: 'price' },
  { sort: '-price' },
  { sort: 'name', per_page: '3', page: '2' },
  { sort: '-price', per_page: '4', page: '3' },
  { sort: 'name', page: '5', per_page: '4' },
  { search: 'almojabana', sort: 'name' },
  { search: 'BUÑUELO', sort: '-createdAt' },
  { search: '  pan ', sort: 'name' },
  { search: 'mañana', sort: 'name' },
  { search: 'nada así' },
  { active: 'false', sort: 'name' },
  { active: 'true', sort: '-price', per_page: '5' },
  { price: '1200,1500', sort: 'price' },
  { price: '900', search: 'bunuelo', sort: 'name' },
];

describe('the fake list answers as the server does', () => {
  for (const query of QUERIES) {
    it(`for ${JSON.stringify(query)}`, async () => {
      const res = await t.call({
        method: 'GET',
        url: `/api${base()}?${new URLSearchParams(query).toString()}`,
        token: admin.token,
      });
      expect(res.statusCode, res.body).toBe(200);
      const server = json<{ data: JsonRecord[]; total: number; page: number; perPage: number }>(res);
      const local = await fake.list<JsonRecord>(base(), query);
      expect(local.items.map((r) => r.name)).toEqual(server.data.map((r) => r.name));
      expect(local.items.map((r) => r.id)).toEqual(server.data.map((r) => r.id));
      expect({ total: local.total, page: local.page, perPage: local.perPage }).toEqual({
        total: server.total,
        page: server.page,
        perPage: server.perPage,
      });
    });
  }
});

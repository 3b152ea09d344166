import { afterAll, beforeAll, expect, it } from 'vitest';
import { setupTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
beforeAll(async () => {
  t = await setupTestApp({ env: { RATE_LIMIT_WRITES: '3', RATE_LIMIT_PUBLIC_READS: '5' } });
});
afterAll(async () => {
  await t?.close();
});

it('limits writes per user with 429 and Retry-After, and public reads per address when configured', async () => {
  const companyId = await t.company();
  const a = await t.user('company_admin', companyId);
  const b = await t.user('company_staff', companyId);
  const write = (token: string, name: string) =>
    t.call({ method: 'POST', url: `/api/companies/${companyId}/brands`, token, payload: { name } });
  for (let i = 0; i < 3; i++) expect((await write(a.token, `A${i}`)).statusCode).toBe(201);
  const limited = await write(a.token, 'A3');
  expect(limited.statusCode).toBe(429);
  expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  expect(JSON.parse(limited.body)).toMatchObject({ code: 'rate_limited' });
  // Another user of the same address is counted apart.
  expect((await write(b.token, 'B0')).statusCode).toBe(201);

  const read = () => t.call({ method: 'GET', url: `/api/companies/${companyId}/brands` });
  for (let i = 0; i < 5; i++) expect((await read()).statusCode).toBe(200);
  expect((await read()).statusCode).toBe(429);
});

it("counts a user's writes across every route, not per route", async () => {
  const companyId = await t.company();
  const a = await t.user('company_admin', companyId);
  const api = `/api/companies/${companyId}`;
  const brand = await t.call({ method: 'POST', url: `${api}/brands`, token: a.token, payload: { name: 'Una' } });
  expect(brand.statusCode).toBe(201);
  const id = (JSON.parse(brand.body) as { data: { id: string } }).data.id;
  const patch = await t.call({ method: 'PATCH', url: `${api}/brands/${id}`, token: a.token, payload: { name: 'Dos' } });
  expect(patch.statusCode).toBe(200);
  const product = await t.call({
    method: 'POST',
    url: `${api}/products`,
    token: a.token,
    payload: { name: 'Pan', price: 100 },
  });
  expect(product.statusCode).toBe(201);
  // The fourth write of the minute, on yet another route.
  const settings = await t.call({
    method: 'PATCH',
    url: `${api}/settings`,
    token: a.token,
    payload: { deliveryFee: 1 },
  });
  expect(settings.statusCode).toBe(429);
});

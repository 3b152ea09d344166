/**
 * B2B clients: the NIT's check digit is checked by the server on every write, and only
 * the back office of the client's own company reads or writes them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, type TestApp, type TestUser } from '../helpers/app';
import { resourcesCalls, setupResourcesApp } from '../helpers/resources';

let t: TestApp;
let companyId: string;
let otherCompanyId: string;
let admin: TestUser;
let staff: TestUser;
let customer: TestUser;
let production: TestUser;
let otherAdmin: TestUser;
const { path, create } = resourcesCalls(() => ({ t, companyId, admin }));

beforeAll(async () => {
  ({ t, companyId, otherCompanyId, admin, staff, customer, production, otherAdmin } = await setupResourcesApp());
});
afterAll(async () => {
  await t?.close();
});

const write = (method: 'POST' | 'PATCH' | 'PUT', url: string, user: TestUser, payload: object) =>
  t.call({ method, url, token: user.token, payload });

const problemPaths = (res: { body: string }) => json<{ details: { path: string }[] }>(res).details.map((d) => d.path);

describe('B2B clients: the NIT', () => {
  it.each([
    ['900123456-1', 'a wrong check digit'],
    ['900123456', 'no check digit'],
    ['9001-8', 'too short'],
    ['ABC123456-8', 'letters'],
    ['900123456-8-1', 'two dashes'],
  ])('refuses %s (%s) on create with a 400 on taxId', async (taxId) => {
    const res = await write('POST', path('b2bClients'), admin, { businessName: 'Café Norte', taxId });
    expect(res.statusCode).toBe(400);
    expect(problemPaths(res)).toEqual(['taxId']);
  });

  it('takes a right one with or without dots, and checks it again on PATCH and PUT', async () => {
    // DIAN's modulo 11: the digit of 900123456 is 8, of 800197268 (DIAN's own NIT) 4.
    const a = await create('b2bClients', { businessName: 'Café Central', taxId: '900123456-8' });
    const b = await create('b2bClients', { businessName: 'DIAN', taxId: '800.197.268-4' }, staff);
    expect(b.taxId).toBe('800.197.268-4');
    const patched = await write('PATCH', `${path('b2bClients')}/${a.id}`, admin, { taxId: '800197268-5' });
    expect(patched.statusCode).toBe(400);
    expect(problemPaths(patched)).toEqual(['taxId']);
    const put = await write('PUT', `${path('b2bClients')}/${a.id}`, admin, {
      businessName: 'Café Central',
      taxId: '900123456-2',
    });
    expect(put.statusCode).toBe(400);
    const read = await t.call({ method: 'GET', url: `${path('b2bClients')}/${a.id}`, token: admin.token });
    expect(json<{ data: { taxId: string } }>(read).data.taxId).toBe('900123456-8');
    // No NIT at all is allowed (a small shop may have none yet).
    const none = await write('PATCH', `${path('b2bClients')}/${a.id}`, staff, { taxId: null });
    expect(none.statusCode).toBe(200);
  });
});

describe('B2B clients: who may read and write', () => {
  it('lets admin and staff of the company in, keeps the other roles and companies out', async () => {
    const client = await create('b2bClients', { businessName: 'Hotel Plaza', discountPercent: 10 });
    const one = `${path('b2bClients')}/${client.id}`;
    for (const user of [customer, production]) {
      expect((await t.call({ method: 'GET', url: path('b2bClients'), token: user.token })).statusCode).toBe(403);
      expect((await t.call({ method: 'GET', url: one, token: user.token })).statusCode).toBe(403);
      expect((await write('POST', path('b2bClients'), user, { businessName: 'X' })).statusCode).toBe(403);
      expect((await write('PATCH', one, user, { discountPercent: 50 })).statusCode).toBe(403);
    }
    expect((await t.call({ method: 'GET', url: path('b2bClients') })).statusCode).toBe(401);
    // Another bakery's admin: not through its own company's path, nor through this one's.
    expect((await t.call({ method: 'GET', url: one, token: otherAdmin.token })).statusCode).toBe(404);
    expect(
      (
        await t.call({
          method: 'GET',
          url: `${path('b2bClients', otherCompanyId)}/${client.id}`,
          token: otherAdmin.token,
        })
      ).statusCode,
    ).toBe(404);
    expect((await write('PATCH', one, otherAdmin, { discountPercent: 50 })).statusCode).toBe(404);
    const read = await t.call({ method: 'GET', url: one, token: staff.token });
    expect(json<{ data: { discountPercent: number } }>(read).data.discountPercent).toBe(10);
  });

  it("refuses a price for another company's product, and prices out of range", async () => {
    const theirs = await t.call({
      method: 'POST',
      url: path('products', otherCompanyId),
      token: otherAdmin.token,
      payload: { name: 'Pan ajeno', price: 1000 },
    });
    const theirId = json<{ data: { id: string } }>(theirs).data.id;
    const res = await write('POST', path('b2bClients'), admin, {
      businessName: 'Café Sur',
      prices: [{ productId: theirId, price: 800 }],
    });
    expect(res.statusCode).toBe(400);
    expect(problemPaths(res)).toEqual(['prices.0.productId']);
    const mine = await create('products', { name: 'Pandebono', price: 1500 });
    const negative = await write('POST', path('b2bClients'), admin, {
      businessName: 'Café Sur',
      prices: [{ productId: mine.id, price: -1 }],
    });
    expect(negative.statusCode).toBe(400);
    const discount = await write('POST', path('b2bClients'), admin, { businessName: 'Café Sur', discountPercent: 101 });
    expect(discount.statusCode).toBe(400);
    expect(problemPaths(discount)).toEqual(['discountPercent']);
  });
});

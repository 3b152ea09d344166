/**
 * Permissions and tenants in the resource engine: another company's records are not found, customers
 * read the catalogue but do not write it, the public sees active records only, private resources stay
 * private, references cannot cross companies, bad tokens are refused.
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

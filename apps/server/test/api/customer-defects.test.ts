/**
 * The defects on the server's side: person names are stored title-cased from every form that
 * takes one (docs/product.md §1: registration, the account, staff's user form, checkout's contact), and a recipe
 * made for a product becomes that product's recipe (the product's form no longer says "Sin receta").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '@hornada/domain';
import { json } from '../helpers/app';
import { ordersCalls, setupOrdersApp, type OrdersApp } from '../helpers/orders';
import { PASSWORD } from '../helpers/identity';

let o: OrdersApp;
const { cart, checkout, checkoutBody, CONTACT_NAME } = {
  ...ordersCalls(() => o),
  CONTACT_NAME: 'carlos andrés de la hoz',
};
const TITLED = 'Carlos Andrés de la Hoz';

beforeAll(async () => {
  o = await setupOrdersApp();
});
afterAll(() => o?.t.close());

describe('names are title-cased where forms store them (docs/product.md §1)', () => {
  it('a bakery owner registering', async () => {
    const res = await o.t.call({
      method: 'POST',
      url: '/api/auth/register',
      payload: { email: 'carlos@horno.test', password: PASSWORD, name: CONTACT_NAME, role: 'company_admin' },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(json<{ data: { user: { name: string } } }>(res).data.user.name).toBe(TITLED);
  });

  it('a customer editing their account, and an admin creating a user', async () => {
    const me = await o.t.call({
      method: 'PATCH',
      url: '/api/me',
      token: o.customer.token,
      payload: { name: CONTACT_NAME },
    });
    expect(me.statusCode, me.body).toBe(200);
    expect(json<{ data: { name: string } }>(me).data.name).toBe(TITLED);

    const created = await o.t.call({
      method: 'POST',
      url: `/api/companies/${o.companyId}/users`,
      token: o.admin.token,
      payload: { email: 'lucia@horno.test', name: 'LUCÍA DEL MAR', role: 'company_staff', password: PASSWORD },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(json<{ data: { name: string } }>(created).data.name).toBe('Lucía del Mar');
  });

  it("a guest's contact at checkout", async () => {
    const c = await cart([{ productId: o.pan, quantity: 4 }]);
    const res = await checkout(c, checkoutBody({ contact: { name: CONTACT_NAME, phone: '300 555 0101' } }));
    expect(res.statusCode, res.body).toBe(201);
    expect(json<{ data: Order }>(res).data.contact.name).toBe(TITLED);
  });
});

describe('a recipe made for a product', () => {
  const makeRecipe = async (name: string) => {
    const res = await o.t.call({
      method: 'POST',
      url: `/api/companies/${o.companyId}/recipes`,
      token: o.staff.token,
      payload: { name, productId: o.galleta, yield: 12, items: [] },
    });
    expect(res.statusCode, res.body).toBe(201);
    return json<{ data: { id: string } }>(res).data.id;
  };
  const recipeOfProduct = async () => {
    const res = await o.t.call({
      method: 'GET',
      url: `/api/companies/${o.companyId}/products/${o.galleta}`,
      token: o.staff.token,
    });
    return json<{ data: { recipeId: string | null } }>(res).data.recipeId;
  };

  it("becomes the product's recipe when it had none", async () => {
    const recipeId = await makeRecipe('Galleta de avena');
    expect(await recipeOfProduct()).toBe(recipeId);
    // A second recipe for the same product leaves the one the product has.
    await makeRecipe('Galleta de avena (grande)');
    expect(await recipeOfProduct()).toBe(recipeId);
  });
});

/**
 * Rules particular to some resources: a recipe's cost a unit and margin, the NIT check digit of a B2B
 * client, and the settings (public part for everyone, changes by the admin only).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, type TestApp, type TestUser } from '../helpers/app';
import { resourcesCalls, setupResourcesApp } from '../helpers/resources';

let t: TestApp;
let companyId: string;
let admin: TestUser;
let staff: TestUser;
let otherAdmin: TestUser;
const { path, create } = resourcesCalls(() => ({ t, companyId, admin }));

beforeAll(async () => {
  ({ t, companyId, admin, staff, otherAdmin } = await setupResourcesApp());
});
afterAll(async () => {
  await t?.close();
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

  it('lists the products made from a recipe, each with its price and margin against the target', async () => {
    const flour = await create('ingredients', { name: 'Harina de las mogollas', unit: 'kg', costPerUnit: 3000 });
    // The link kept on the products only: the recipe names no product.
    const recipe = await create('recipes', {
      name: 'Masa de mogolla',
      yield: 10,
      items: [{ ingredientId: flour.id, quantity: 1 }],
    });
    expect(recipe).toMatchObject({ costPerUnit: 300, margin: null, products: [] });
    const roll = await create('products', { name: 'Mogolla', price: 500, recipeId: recipe.id });
    const loaf = await create('products', { name: 'Calado', price: 3000, recipeId: recipe.id });
    await create('products', { name: 'Torta ajena', price: 9000 });
    type Read = { costPerUnit: number | null; margin: number | null; products: unknown[] };
    const read = async (id = recipe.id) =>
      json<{ data: Read }>(await t.call({ method: 'GET', url: `${path('recipes')}/${id}`, token: staff.token })).data;
    // $300 a unit: 90 % of $3,000, 40 % of $500, under the default target of 60 %; the recipe's margin is the
    // lowest of its products'.
    expect(await read()).toMatchObject({
      costPerUnit: 300,
      margin: 40,
      products: [
        { id: loaf.id, name: 'Calado', price: 3000, margin: 90, belowTarget: false },
        { id: roll.id, name: 'Mogolla', price: 500, margin: 40, belowTarget: true },
      ],
    });
    const listed = json<{ data: (Read & { id: string })[] }>(
      await t.call({ method: 'GET', url: `${path('recipes')}?per_page=100`, token: staff.token }),
    ).data.find((r) => r.id === recipe.id);
    expect(listed?.products).toHaveLength(2);

    // A lower target, read at once (the recipe's cached reads follow the settings).
    const lower = await t.call({
      method: 'PATCH',
      url: path('settings'),
      token: admin.token,
      payload: { targetMargin: 30 },
    });
    expect(lower.statusCode, lower.body).toBe(200);
    expect((await read()).products).toMatchObject([{ belowTarget: false }, { belowTarget: false }]);
    const back = await t.call({
      method: 'PATCH',
      url: path('settings'),
      token: admin.token,
      payload: { targetMargin: 60 },
    });
    expect(back.statusCode, back.body).toBe(200);

    // A deleted product leaves the list; products are never written through a recipe.
    expect(
      (await t.call({ method: 'DELETE', url: `${path('products')}/${roll.id}`, token: admin.token })).statusCode,
    ).toBe(200);
    expect(await read()).toMatchObject({ margin: 90, products: [{ id: loaf.id }] });
    const written = await t.call({
      method: 'PATCH',
      url: `${path('recipes')}/${recipe.id}`,
      token: admin.token,
      payload: { products: [], margin: 1 },
    });
    expect(written.statusCode, written.body).toBe(200);
    expect(await read()).toMatchObject({ margin: 90, products: [{ id: loaf.id }] });
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

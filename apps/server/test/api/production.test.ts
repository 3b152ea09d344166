/**
 * The production day: totals per product for a preparation day, batches from the recipes'
 * yields, ingredient needs converted into each ingredient's unit against stock; who may read it; and
 * stock taken by produced units in the order's own transaction, given back on a correction down.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ingredient, Order, ProductionDay } from '@hornada/domain';
import { json, type TestUser } from '../helpers/app';
import { ordersCalls, setupOrdersApp, TUESDAY, WEDNESDAY, type OrdersApp } from '../helpers/orders';

let o: OrdersApp;
const { staffOrder, patch, postOrder } = ordersCalls(() => o);

/** Ingredient ids by name, and the recipes: pan (yield 10) and torta (yield 1); galleta has none. */
const ing = { harina: '', leche: '', huevo: '', mantequilla: '' };

async function create(resource: string, payload: Record<string, unknown>, companyId = o.companyId, user = o.admin) {
  const res = await o.t.call({
    method: 'POST',
    url: `/api/companies/${companyId}/${resource}`,
    token: user.token,
    payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  return json<{ data: { id: string } }>(res).data.id;
}

beforeAll(async () => {
  o = await setupOrdersApp();
  ing.harina = await create('ingredients', { name: 'Harina de trigo', unit: 'kg', stock: 1, minStock: 2 });
  ing.leche = await create('ingredients', { name: 'Leche', unit: 'ml', stock: 1000 });
  ing.huevo = await create('ingredients', { name: 'Huevo', unit: 'unidad', stock: 100 });
  ing.mantequilla = await create('ingredients', { name: 'Mantequilla', unit: 'g', stock: 5000 });
  await create('recipes', {
    name: 'Pan campesino',
    productId: o.pan,
    yield: 10,
    items: [
      { ingredientId: ing.harina, quantity: 500, unit: 'g' },
      { ingredientId: ing.leche, quantity: 0.2, unit: 'l' },
      { ingredientId: ing.mantequilla, quantity: 0.05, unit: 'kg' },
    ],
  });
  await create('recipes', {
    name: 'Torta de chocolate',
    productId: o.torta,
    yield: 1,
    items: [
      { ingredientId: ing.harina, quantity: 0.3 },
      { ingredientId: ing.huevo, quantity: 4 },
    ],
  });
});
afterAll(async () => {
  await o?.t.close();
});

const read = (user: TestUser | undefined, date = TUESDAY, companyId = o.companyId, include = 'orders') =>
  o.t.call({
    method: 'GET',
    url: `/api/companies/${companyId}/production?date=${date}&include=${include}`,
    token: user?.token,
  });

async function day(user: TestUser = o.admin, date = TUESDAY): Promise<ProductionDay> {
  const res = await read(user, date);
  expect(res.statusCode, res.body).toBe(200);
  return json<{ data: ProductionDay }>(res).data;
}

const lineOf = (d: ProductionDay, productId: string) => d.products.find((p) => p.productId === productId);
const needOf = (d: ProductionDay, ingredientId: string) => d.ingredients.find((i) => i.ingredientId === ingredientId);

async function stockOf(id: string): Promise<number> {
  const res = await o.t.call({
    method: 'GET',
    url: `/api/companies/${o.companyId}/ingredients/${id}`,
    token: o.admin.token,
  });
  expect(res.statusCode, res.body).toBe(200);
  return json<{ data: Ingredient }>(res).data.stock;
}

async function move(order: Order, user: TestUser, payload: Record<string, unknown>) {
  const res = await patch(order.id, user, payload);
  expect(res.statusCode, res.body).toBe(200);
  return json<{ data: Order }>(res).data;
}

describe('GET …/production', () => {
  it('sums a day per product, batches from the yield, needs converted into each unit, shortages', async () => {
    // Due Wednesday with one day of lead: prepared Tuesday.
    await staffOrder({ items: [{ productId: o.pan, quantity: 12 }] });
    await staffOrder({
      items: [
        { productId: o.pan, quantity: 9 },
        { productId: o.torta, quantity: 2 },
      ],
    });
    await staffOrder({ items: [{ productId: o.galleta, quantity: 30 }] });
    // Another day is another sheet.
    await staffOrder({ items: [{ productId: o.pan, quantity: 50 }], dueDate: '2026-11-26' });

    const d = await day();
    expect(d.date).toBe(TUESDAY);
    expect(lineOf(d, o.pan)).toMatchObject({ quantity: 21, produced: 0, recipeYield: 10, batches: 3 });
    expect(lineOf(d, o.torta)).toMatchObject({ quantity: 2, batches: 2 });
    // No recipe: counted, no batches, nothing needed for it.
    expect(lineOf(d, o.galleta)).toMatchObject({ quantity: 30, recipeId: null, batches: null });
    // Harina (kg): 3 × 500 g + 2 × 0.3 kg = 2.1 kg against 1 kg: 1.1 kg short, listed first.
    expect(d.ingredients[0]).toMatchObject({
      ingredientId: ing.harina,
      unit: 'kg',
      needed: 2.1,
      stock: 1,
      shortage: 1.1,
    });
    // Leche (ml): 3 × 0.2 l = 600 ml; mantequilla (g): 3 × 0.05 kg = 150 g; huevos 2 × 4.
    expect(needOf(d, ing.leche)).toMatchObject({ unit: 'ml', needed: 600, stock: 1000, shortage: 0 });
    expect(needOf(d, ing.mantequilla)).toMatchObject({ unit: 'g', needed: 150, shortage: 0 });
    expect(needOf(d, ing.huevo)).toMatchObject({ needed: 8, shortage: 0 });
    expect(d.orders).toHaveLength(3);
    // The window's one label, as the shop says it (windowLabel), not the bare setting.
    expect(d.orders![0]).toMatchObject({ dueDate: WEDNESDAY, window: 'am', windowLabel: 'En la mañana (7:00–10:00)' });
    // The totals alone leave the orders out.
    const totalsOnly = await o.t.call({
      method: 'GET',
      url: `/api/companies/${o.companyId}/production?date=${TUESDAY}`,
      token: o.staff.token,
    });
    expect(json<{ data: ProductionDay }>(totalsOnly).data).toEqual({ ...d, orders: undefined });
    expect((await day(o.admin, '2026-11-25')).products.map((p) => [p.productId, p.quantity])).toEqual([[o.pan, 50]]);
  });

  it('leaves cancelled orders out', async () => {
    const before = lineOf(await day(), o.torta)!.quantity;
    const order = await staffOrder({ items: [{ productId: o.torta, quantity: 5 }] });
    expect(lineOf(await day(), o.torta)!.quantity).toBe(before + 5);
    await move(order, o.staff, { status: 'cancelled', cancelReason: 'El cliente ya no la quiere' });
    const d = await day();
    expect(lineOf(d, o.torta)!.quantity).toBe(before);
    expect(d.orders!.some((x) => x.id === order.id)).toBe(false);
  });

  it("never counts another company's orders, and hides one company's day from another", async () => {
    const res = await postOrder(
      o.otherAdmin.token,
      {
        contact: { name: 'Otro', phone: '300 000 0000' },
        items: [{ productId: o.foreign, quantity: 7 }],
        fulfillment: 'pickup',
        dueDate: WEDNESDAY,
        paymentMethod: 'cash',
      },
      o.otherCompanyId,
    );
    expect([201, 422]).toContain(res.statusCode);
    const d = await day();
    expect(lineOf(d, o.foreign)).toBeUndefined();
    // Someone else's bakery: 404 whatever the role, its existence not confirmed.
    expect((await read(o.otherAdmin)).statusCode).toBe(404);
    expect((await read(o.admin, TUESDAY, o.otherCompanyId)).statusCode).toBe(404);
  });

  it('lets admin, staff and the production assistant read; a customer and a driver get 403, a guest 401', async () => {
    expect((await read(o.staff)).statusCode).toBe(200);
    expect((await read(o.production)).statusCode).toBe(200);
    expect((await read(o.customer)).statusCode).toBe(403);
    expect((await read(o.driver)).statusCode).toBe(403);
    expect((await read(undefined)).statusCode).toBe(401);
    // A day is a date.
    expect((await read(o.admin, 'mañana')).statusCode).toBe(400);
    expect((await read(o.admin, '2026-02-30')).statusCode).toBe(400);
  });
});

describe('the production assistant and stock', () => {
  it('marks produced (stock out in the same write), corrects down (stock back), but neither prices nor cancels', async () => {
    const order = await staffOrder({
      items: [
        { productId: o.pan, quantity: 12 },
        { productId: o.galleta, quantity: 3 },
      ],
    });
    await move(order, o.staff, { status: 'confirmed' });
    await move(order, o.production, { status: 'in_production' });
    const [harina, leche, mantequilla] = [
      await stockOf(ing.harina),
      await stockOf(ing.leche),
      await stockOf(ing.mantequilla),
    ];
    const produced0 = lineOf(await day(o.production), o.pan)!.produced;

    // 12 of pan (yield 10) take 12/10 of its recipe: 0.6 kg harina, 240 ml leche, 60 g mantequilla.
    await move(order, o.production, { producedQuantities: { [o.pan]: 12 } });
    expect(await stockOf(ing.harina)).toBeCloseTo(harina - 0.6, 4);
    expect(await stockOf(ing.leche)).toBeCloseTo(leche - 240, 4);
    expect(await stockOf(ing.mantequilla)).toBeCloseTo(mantequilla - 60, 4);
    expect(lineOf(await day(o.production), o.pan)!.produced).toBe(produced0 + 12);
    // Harina was 1 kg and is now 0.4: the read's stock and shortage follow it.
    expect(needOf(await day(), ing.harina)!.stock).toBeCloseTo(harina - 0.6, 4);

    // Corrected down to 5: 7 units' ingredients come back.
    await move(order, o.production, { producedQuantities: { [o.pan]: 5 } });
    expect(await stockOf(ing.harina)).toBeCloseTo(harina - 0.25, 4);
    expect(await stockOf(ing.leche)).toBeCloseTo(leche - 100, 4);
    // Galleta has no recipe: marking it produced moves no stock, and the order goes ready with all made.
    const ready = await move(order, o.production, {
      status: 'ready',
      producedQuantities: { [o.pan]: 12, [o.galleta]: 3 },
    });
    expect(ready.status).toBe('ready');
    expect(await stockOf(ing.harina)).toBeCloseTo(harina - 0.6, 4);

    // Not a price, not a line, not a cancellation.
    const other = await staffOrder({ items: [{ productId: o.torta, quantity: 1 }] });
    await move(other, o.staff, { status: 'confirmed' });
    for (const body of [
      { items: [{ productId: o.torta, quantity: 9 }] },
      { paymentStatus: 'paid' },
      { status: 'cancelled', cancelReason: 'No hay horno' },
    ]) {
      const res = await patch(other.id, o.production, body);
      expect([403, 422], `${JSON.stringify(body)} ${res.body}`).toContain(res.statusCode);
    }
    const huevos = await stockOf(ing.huevo);
    // Someone without the field (a driver) cannot move stock by marking produced.
    expect(
      (await patch(other.id, o.driver, { producedQuantities: { [o.torta]: 1 } })).statusCode,
    ).toBeGreaterThanOrEqual(403);
    expect(await stockOf(ing.huevo)).toBe(huevos);
  });

  it('takes stock once per change when two corrections of the same order race', async () => {
    const order = await staffOrder({ items: [{ productId: o.torta, quantity: 4 }] });
    await move(order, o.staff, { status: 'confirmed' });
    await move(order, o.production, { status: 'in_production' });
    const huevos = await stockOf(ing.huevo);
    const results = await Promise.all([
      patch(order.id, o.production, { producedQuantities: { [o.torta]: 2 } }),
      patch(order.id, o.production, { producedQuantities: { [o.torta]: 2 } }),
    ]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200]);
    // The second write changes nothing: 2 tortas take 8 huevos, not 16.
    expect(await stockOf(ing.huevo)).toBe(huevos - 8);
  });

  it('lets stock go below zero when more was used than recorded, and reads it as a shortage', async () => {
    const order = await staffOrder({ items: [{ productId: o.torta, quantity: 40 }] });
    await move(order, o.staff, { status: 'confirmed' });
    await move(order, o.production, { status: 'in_production' });
    const huevos = await stockOf(ing.huevo);
    await move(order, o.production, { producedQuantities: { [o.torta]: 40 } });
    expect(await stockOf(ing.huevo)).toBe(huevos - 160);
    expect(huevos - 160).toBeLessThan(0);
    const listed = await o.t.call({
      method: 'GET',
      url: `/api/companies/${o.companyId}/ingredients`,
      token: o.staff.token,
    });
    expect(listed.statusCode, listed.body).toBe(200);
  });

  it('counts a shortage from what is left to bake, never again from what production already took', async () => {
    // Its own ingredient and day (due Thursday, prepared Wednesday): nothing else of the file counts in it.
    const chocolate = await create('ingredients', { name: 'Chocolate', unit: 'g', stock: 120 });
    const brownie = await create('products', { name: 'Brownie', price: 3000 });
    await create('recipes', {
      name: 'Brownie',
      productId: brownie,
      yield: 5,
      items: [{ ingredientId: chocolate, quantity: 50 }],
    });
    const order = await staffOrder({ items: [{ productId: brownie, quantity: 12 }], dueDate: '2026-11-26' });
    await move(order, o.staff, { status: 'confirmed' });
    await move(order, o.production, { status: 'in_production' });
    const prep = WEDNESDAY;
    // 12 brownies are 3 batches: 150 g against 120 g.
    expect(needOf(await day(o.admin, prep), chocolate)).toMatchObject({ needed: 150, stock: 120, shortage: 30 });
    // 10 made took 100 g: 2 left are one batch, 50 g against the 20 g left (before: 150 against 20).
    await move(order, o.production, { producedQuantities: { [brownie]: 10 } });
    expect(needOf(await day(o.admin, prep), chocolate)).toMatchObject({ needed: 150, stock: 20, shortage: 30 });
    // The count finds 10 g; the last 2 take 20 g: stock below zero, said as it is, and nothing left to bake.
    const counted = await o.t.call({
      method: 'PATCH',
      url: `/api/companies/${o.companyId}/ingredients/${chocolate}`,
      token: o.admin.token,
      payload: { stock: 10 },
    });
    expect(counted.statusCode, counted.body).toBe(200);
    await move(order, o.production, { producedQuantities: { [brownie]: 12 } });
    expect(needOf(await day(o.admin, prep), chocolate)).toMatchObject({ needed: 150, stock: -10, shortage: 0 });
  });

  it('filters ingredients at or under their minimum (lowStock), without sending the flag', async () => {
    const res = await o.t.call({
      method: 'GET',
      url: `/api/companies/${o.companyId}/ingredients?lowStock=true`,
      token: o.production.token,
    });
    expect(res.statusCode, res.body).toBe(200);
    const low = json<{ data: (Ingredient & { lowStock?: unknown })[] }>(res).data;
    // Harina: under 1 kg against a minimum of 2; leche, mantequilla and huevo have no minimum.
    expect(low.map((i) => i.id)).toEqual([ing.harina]);
    expect(low[0]!.lowStock).toBeUndefined();
  });
});

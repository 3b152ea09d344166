/**
 * Standing orders (docs/design.md §3): each day is made into one order when it enters the order
 * horizon, once per standing order and day however many instances run; skip dates and blackout days make
 * none; editing the template changes only the days not made yet; who may write them.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SettingsInput, type Order, type StandingOrder } from '@hornada/domain';
import { orders, settings, standingOrders } from '../../src/db/schema';
import { json, type TestUser } from '../helpers/app';
import { MONDAY_10AM, ORDER_SETTINGS, ordersCalls, setupOrdersApp, type OrdersApp } from '../helpers/orders';

let o: OrdersApp;
const { b2bClient } = ordersCalls(() => o);

beforeAll(async () => {
  o = await setupOrdersApp();
});
afterAll(async () => {
  await o?.t.close();
});
beforeEach(async () => {
  o.t.clock.set(MONDAY_10AM);
  await setBlackouts([]);
});

const path = (companyId = o.companyId) => `/api/companies/${companyId}/standingOrders`;

async function setBlackouts(blackoutDates: string[]) {
  await o.t.db
    .update(settings)
    .set({ data: SettingsInput.parse({ ...ORDER_SETTINGS, blackoutDates }) })
    .where(eq(settings.companyId, o.companyId));
}

/** A client whose own price for pan is 2,000 (list 2,500). */
const client = () =>
  b2bClient({
    businessName: `Café ${Math.random().toString(36).slice(2, 7)}`,
    contactName: 'Laura Gómez',
    phone: '310 555 0142',
    prices: [{ productId: o.pan, price: 2000 }],
    paymentTermsDays: 15,
  });

async function standing(body: Record<string, unknown>) {
  const res = await o.t.call({ method: 'POST', url: path(), token: o.staff.token, payload: body });
  expect(res.statusCode, res.body).toBe(201);
  return json<{ data: { id: string } }>(res).data.id;
}

/** The orders a standing order has made, by day. */
async function madeBy(standingOrderId: string) {
  const rows = await o.t.db
    .select({ id: orders.id, day: orders.standingDay })
    .from(orders)
    .where(eq(orders.standingOrderId, standingOrderId));
  return rows.map((r) => r.day).sort();
}

async function orderOf(standingOrderId: string, day: string): Promise<Order> {
  const [row] = await o.t.db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.standingOrderId, standingOrderId), eq(orders.standingDay, day)));
  const res = await o.t.call({
    method: 'GET',
    url: `/api/companies/${o.companyId}/orders/${row!.id}`,
    token: await tokenOf(o.admin),
  });
  expect(res.statusCode, res.body).toBe(200);
  return json<{ data: Order }>(res).data;
}

const job = () => o.t.app.modules.standingOrders;
/** A token signed at the test clock's time (the clock moves days). */
const tokenOf = (user: TestUser) => o.t.keys.sign({ sub: user.uid }, { now: o.t.clock.now() });
// Bogotá is UTC−5: 15:00 UTC is 10:00 there.
const at = (day: string) => o.t.clock.set(`${day}T15:00:00.000Z`);

describe('standing orders', () => {
  it('makes a day once when it enters the horizon, with two instances racing, priced and linked', async () => {
    const b2bClientId = await client();
    // Monday 10:00: Wednesday enters the horizon on Tuesday (production lead 1 day), so nothing yet.
    const id = await standing({
      b2bClientId,
      weekdays: [1, 2, 3, 4, 5],
      items: [{ productId: o.pan, quantity: 40 }],
      fulfillment: 'pickup',
      window: 'am',
      startsOn: '2026-11-25',
    });
    expect(await madeBy(id)).toEqual([]);
    // Another instance on the same database (it runs the job as it starts: nothing is due yet).
    const second = await o.t.secondInstance();
    at('2026-11-24');
    try {
      const runs = await Promise.all([job().run(), second.app.modules.standingOrders.run(), job().run()]);
      expect(runs.reduce((n, r) => n + r.made, 0)).toBe(1);
      expect(runs.reduce((n, r) => n + r.failed, 0)).toBe(0);
    } finally {
      await second.close();
    }
    expect(await madeBy(id)).toEqual(['2026-11-25']);
    // Restarting (another run later the same day) makes nothing more.
    await job().run();
    expect(await madeBy(id)).toEqual(['2026-11-25']);

    const order = await orderOf(id, '2026-11-25');
    expect(order).toMatchObject({
      channel: 'b2b',
      b2bClientId,
      standingOrderId: id,
      paymentMethod: 'credit',
      fulfillment: 'pickup',
      window: 'am',
      subtotal: 80_000,
      contact: { name: 'Laura Gómez', phone: '310 555 0142' },
    });
    expect(order.items).toMatchObject([{ productId: o.pan, unitPrice: 2000, quantity: 40 }]);
    expect(order.history).toContainEqual(
      expect.objectContaining({
        field: 'standingOrderId',
        from: null,
        to: id,
        by: expect.objectContaining({ role: 'system' }),
      }),
    );
    expect(order).not.toHaveProperty('standingDay');
    // The orders list filters by standing order.
    const list = await o.t.call({
      method: 'GET',
      url: `/api/companies/${o.companyId}/orders?standingOrderId=${id}`,
      token: await tokenOf(o.staff),
    });
    expect(json<{ total: number }>(list).total).toBe(1);
  });

  it('makes none on a skip date, a blackout day or another weekday', async () => {
    const id = await standing({
      b2bClientId: await client(),
      weekdays: [1, 2, 3, 4, 5],
      items: [{ productId: o.pan, quantity: 10 }],
      fulfillment: 'pickup',
      window: 'am',
      startsOn: '2026-11-25',
      skipDates: ['2026-11-26'],
    });
    await setBlackouts(['2026-11-27']);
    for (const day of ['2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28']) {
      at(day);
      await job().run();
    }
    // Wednesday only: Thursday skipped, Friday blacked out, Saturday not a chosen weekday.
    expect(await madeBy(id)).toEqual(['2026-11-25']);
    at('2026-11-29');
    await job().run();
    expect(await madeBy(id)).toEqual(['2026-11-25', '2026-11-30']);
  });

  it('changes only the days not made yet when the template is edited, and stops when inactive', async () => {
    const id = await standing({
      b2bClientId: await client(),
      weekdays: [3, 4],
      items: [{ productId: o.pan, quantity: 2 }],
      fulfillment: 'pickup',
      window: 'am',
      startsOn: '2026-11-25',
    });
    at('2026-11-24');
    await job().run();
    expect(await madeBy(id)).toEqual(['2026-11-25']);
    const edit = await o.t.call({
      method: 'PATCH',
      url: `${path()}/${id}`,
      token: await tokenOf(o.admin),
      payload: { items: [{ productId: o.galleta, quantity: 5 }], window: 'pm' },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    at('2026-11-25');
    await job().run();
    expect(await madeBy(id)).toEqual(['2026-11-25', '2026-11-26']);
    expect((await orderOf(id, '2026-11-25')).items).toMatchObject([{ productId: o.pan, quantity: 2 }]);
    const thursday = await orderOf(id, '2026-11-26');
    expect(thursday.items).toMatchObject([{ productId: o.galleta, quantity: 5 }]);
    expect(thursday.window).toBe('pm');

    const off = await o.t.call({
      method: 'PATCH',
      url: `${path()}/${id}`,
      token: await tokenOf(o.admin),
      payload: { active: false },
    });
    expect(off.statusCode).toBe(200);
    at('2026-12-01');
    await job().run();
    expect(await madeBy(id)).toEqual(['2026-11-25', '2026-11-26']);
  });

  it("starts on the day it is made, in the bakery's zone, when startsOn is left out (docs/design.md §3)", async () => {
    const b2bClientId = await client();
    // Monday 23 Nov, 22:00 in Bogotá: already Tuesday in UTC.
    o.t.clock.set('2026-11-24T03:00:00.000Z');
    const body = {
      b2bClientId,
      weekdays: [3],
      items: [{ productId: o.pan, quantity: 3 }],
      fulfillment: 'pickup',
      window: 'am',
    };
    const res = await o.t.call({ method: 'POST', url: path(), token: await tokenOf(o.staff), payload: body });
    expect(res.statusCode, res.body).toBe(201);
    const made = json<{ data: StandingOrder }>(res).data;
    expect(made.startsOn).toBe('2026-11-23');
    at('2026-11-24');
    await job().run();
    expect(await madeBy(made.id)).toEqual(['2026-11-25']);
    // An end before that day is refused, naming endsOn.
    const ended = await o.t.call({
      method: 'POST',
      url: path(),
      token: await tokenOf(o.staff),
      payload: { ...body, endsOn: '2026-11-20' },
    });
    expect(ended.statusCode, ended.body).toBe(400);
    expect(json<{ details: { path: string }[] }>(ended).details.map((d) => d.path)).toEqual(['endsOn']);
  });

  it("takes the bakery's first window when none is chosen, so every day it names is made; an unknown window is refused", async () => {
    const b2bClientId = await client();
    const body = {
      b2bClientId,
      weekdays: [3],
      items: [{ productId: o.pan, quantity: 6 }],
      fulfillment: 'pickup',
      startsOn: '2026-11-25',
    };
    const res = await o.t.call({ method: 'POST', url: path(), token: o.staff.token, payload: body });
    expect(res.statusCode, res.body).toBe(201);
    const made = json<{ data: StandingOrder }>(res).data;
    expect(made.window).toBe('am');
    at('2026-11-24');
    const run = await job().run();
    expect(run.failed).toBe(0);
    expect(await madeBy(made.id)).toEqual(['2026-11-25']);
    expect((await orderOf(made.id, '2026-11-25')).window).toBe('am');

    // Clearing the window later gives the first one again, never a standing order that cannot order.
    const cleared = await o.t.call({
      method: 'PATCH',
      url: `${path()}/${made.id}`,
      token: await tokenOf(o.staff),
      payload: { window: null },
    });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(json<{ data: StandingOrder }>(cleared).data.window).toBe('am');

    // A window the bakery does not have is refused with the reason, on creation and on edit.
    for (const write of [
      { method: 'POST' as const, url: path(), payload: { ...body, window: 'madrugada' } },
      { method: 'PATCH' as const, url: `${path()}/${made.id}`, payload: { window: 'madrugada' } },
    ]) {
      const bad = await o.t.call({ ...write, token: await tokenOf(o.staff) });
      expect(bad.statusCode, bad.body).toBe(400);
      expect(json<{ details: { path: string }[] }>(bad).details.map((d) => d.path)).toEqual(['window']);
    }
    // Nor one whose days the order rules would refuse: a delivery to a client without an address.
    const nowhere = await o.t.call({
      method: 'POST',
      url: path(),
      token: await tokenOf(o.staff),
      payload: { ...body, fulfillment: 'delivery' },
    });
    expect(nowhere.statusCode, nowhere.body).toBe(400);
    expect(json<{ details: { path: string }[] }>(nowhere).details.map((d) => d.path)).toEqual(['fulfillment']);
    const kept = await o.t.db.select().from(standingOrders).where(eq(standingOrders.b2bClientId, b2bClientId));
    expect(kept.map((k) => k.window)).toEqual(['am']);
  });

  it('is written by the back office of its own company only, for its own client and products', async () => {
    const b2bClientId = await client();
    const body = {
      b2bClientId,
      weekdays: [1],
      items: [{ productId: o.pan, quantity: 1 }],
      fulfillment: 'pickup',
      window: 'am',
      startsOn: '2026-12-07',
    };
    for (const user of [o.production, o.driver, o.customer]) {
      expect((await o.t.call({ method: 'POST', url: path(), token: user.token, payload: body })).statusCode).toBe(403);
      expect((await o.t.call({ method: 'GET', url: path(), token: user.token })).statusCode).toBe(403);
    }
    expect((await o.t.call({ method: 'POST', url: path(), token: o.otherAdmin.token, payload: body })).statusCode).toBe(
      404,
    );
    const foreign = await o.t.call({
      method: 'POST',
      url: path(o.otherCompanyId),
      token: o.otherAdmin.token,
      payload: { ...body, items: [{ productId: o.foreign, quantity: 1 }] },
    });
    expect(foreign.statusCode).toBe(400);
    expect(json<{ details: { path: string }[] }>(foreign).details.map((d) => d.path)).toEqual(['b2bClientId']);
    const bad = await o.t.call({
      method: 'POST',
      url: path(),
      token: o.admin.token,
      payload: { ...body, weekdays: [7], endsOn: '2026-12-01' },
    });
    expect(bad.statusCode).toBe(400);
    // The system's standing-order fields are not anyone's to write on an order.
    const forged = await o.t.call({
      method: 'POST',
      url: `/api/companies/${o.companyId}/orders`,
      token: o.admin.token,
      payload: { ...body, standingOrderId: 'x', contact: { name: 'A', phone: '1' }, dueDate: '2026-11-25' },
    });
    expect(forged.statusCode).toBe(400);
  });
});

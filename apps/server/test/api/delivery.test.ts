/**
 * Deliveries: the day's stops by driver, the nearest-neighbour route from the bakery, the
 * driver reading and moving only its own stops, cash collected in the summary, a cancelled order
 * leaving the route, and another company's orders never showing.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SettingsInput, type DeliveryDay, type Order } from '@hornada/domain';
import { settings } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { json, type TestUser } from '../helpers/app';
import {
  ADDRESS,
  CONTACT,
  ORDER_SETTINGS,
  ordersCalls,
  setupOrdersApp,
  WEDNESDAY,
  type OrdersApp,
} from '../helpers/orders';

let o: OrdersApp;
const { staffOrder, patch, postOrder, get } = ordersCalls(() => o);

/** The bakery, in La Candelaria. */
const BAKERY = { lat: 4.5981, lng: -74.0758 };
/**
 * Known points around it: by nearest neighbour from the bakery the route is near (≈0.6 km), then mid
 * (≈1.6 km further north), then far (≈3 km beyond mid); `west` is close to the bakery but the nearest
 * neighbour of nothing after it, so it comes second. Input order is deliberately scrambled.
 */
const POINTS = {
  far: { lat: 4.656, lng: -74.06 },
  mid: { lat: 4.615, lng: -74.07 },
  near: { lat: 4.603, lng: -74.074 },
  west: { lat: 4.6, lng: -74.082 },
};

const deliveries = (user: TestUser | undefined, date = WEDNESDAY, companyId = o.companyId) =>
  o.t.call({ method: 'GET', url: `/api/companies/${companyId}/deliveries?date=${date}`, token: user?.token });

async function day(user: TestUser = o.admin): Promise<DeliveryDay> {
  const res = await deliveries(user);
  expect(res.statusCode, res.body).toBe(200);
  return json<{ data: DeliveryDay }>(res).data;
}

const route = (user: TestUser, deliveryAssistantId: string, key = newId()) =>
  o.t.call({
    method: 'POST',
    url: `/api/companies/${o.companyId}/deliveries/route`,
    token: user.token,
    headers: { 'idempotency-key': key },
    payload: { date: WEDNESDAY, deliveryAssistantId },
  });

/** A delivery order at a point (or with no coordinates), for a driver. */
async function stop(name: string, point: { lat: number; lng: number } | null, driver: string | null = null) {
  return staffOrder({
    contact: { ...CONTACT, name },
    address: { ...ADDRESS, line: `Calle ${name}`, ...(point ?? {}) },
    deliveryAssistantId: driver,
  });
}

async function walk(id: string, statuses: string[], user: TestUser = o.admin) {
  for (const status of statuses) {
    const res = await patch(id, user, { status });
    expect(res.statusCode, res.body).toBe(200);
  }
}

const ids: Record<string, string> = {};

beforeAll(async () => {
  o = await setupOrdersApp();
  await o.t.db
    .update(settings)
    .set({ data: SettingsInput.parse({ ...ORDER_SETTINGS, location: BAKERY }) })
    .where(eq(settings.companyId, o.companyId));
  for (const name of ['far', 'mid', 'near', 'west'] as const) {
    ids[name] = (await stop(name, POINTS[name], o.driver.uid)).id;
  }
  ids.nowhere = (await stop('nowhere', null, o.driver.uid)).id;
  ids.other = (await stop('other', POINTS.near, o.otherDriver.uid)).id;
  ids.unassigned = (await stop('unassigned', POINTS.mid)).id;
  // Another bakery's delivery that day, same driver id written nowhere: it must never show.
  const foreignAdmin = o.otherAdmin;
  const res = await postOrder(
    foreignAdmin.token,
    {
      contact: CONTACT,
      items: [{ productId: o.foreign, quantity: 1 }],
      fulfillment: 'delivery',
      address: { ...ADDRESS, ...POINTS.near },
      dueDate: WEDNESDAY,
      paymentMethod: 'cash',
    },
    o.otherCompanyId,
  );
  expect(res.statusCode, res.body).toBe(201);
  ids.foreign = json<{ data: Order }>(res).data.id;
});
afterAll(async () => {
  await o?.t.close();
});

describe('the route', () => {
  it('orders a driver’s stops nearest-neighbour from the bakery, stops without coordinates last', async () => {
    const res = await route(o.staff, o.driver.uid);
    expect(res.statusCode, res.body).toBe(200);
    const expected = [ids.near, ids.west, ids.mid, ids.far, ids.nowhere];
    // The one stop without a point is counted, so the office can say it went last rather than claim an order.
    expect(json<{ data: { orderIds: string[]; unplaced: number } }>(res).data).toEqual({
      orderIds: expected,
      unplaced: 1,
    });

    const d = await day();
    const mine = d.routes.find((r) => r.driver?.id === o.driver.uid)!;
    expect(mine.stops.map((s) => s.id)).toEqual(expected);
    expect(mine.stops.map((s) => s.routePosition)).toEqual([1, 2, 3, 4, 5]);
    expect(mine.stops.map((s) => s.noCoordinates)).toEqual([false, false, false, false, true]);
    // Each position written through the orders door: the history says who routed it.
    const near = json<{ data: Order }>(await get(ids.near!, o.admin)).data;
    expect(near.history.some((h) => h.field === 'routePosition' && h.by.uid === o.staff.uid)).toBe(true);
    // The unassigned stops come last, the other driver's untouched.
    expect(d.routes.at(-1)!.driver).toBeNull();
    expect(d.routes.at(-1)!.stops.map((s) => s.id)).toEqual([ids.unassigned]);
    expect(d.origin).toEqual(BAKERY);
  });

  it('is the office’s: a driver may not order routes, and a bakery without a location is told to set one', async () => {
    const res = await route(o.driver, o.driver.uid);
    expect(res.statusCode, res.body).toBe(403);
    const notDriver = await route(o.admin, o.customer.uid);
    expect(notDriver.statusCode, notDriver.body).toBe(400);
    await o.t.db
      .update(settings)
      .set({ data: SettingsInput.parse(ORDER_SETTINGS) })
      .where(eq(settings.companyId, o.companyId));
    const noOrigin = await route(o.admin, o.driver.uid);
    expect(noOrigin.statusCode, noOrigin.body).toBe(422);
    expect(json<{ code: string }>(noOrigin).code).toBe('delivery/no-origin');
    await o.t.db
      .update(settings)
      .set({ data: SettingsInput.parse({ ...ORDER_SETTINGS, location: BAKERY }) })
      .where(eq(settings.companyId, o.companyId));
  });
});

describe('the driver', () => {
  it('reads only its own stops', async () => {
    const d = await day(o.driver);
    expect(d.routes).toHaveLength(1);
    expect(d.routes[0]!.driver?.id).toBe(o.driver.uid);
    expect(d.routes[0]!.stops.map((s) => s.id)).not.toContain(ids.other);
    expect(d.drivers).toEqual([]);
    const theirs = await day(o.otherDriver);
    expect(theirs.routes.flatMap((r) => r.stops.map((s) => s.id))).toEqual([ids.other]);
    // Another driver's order is not there for it at all.
    expect((await get(ids.other!, o.driver)).statusCode).toBe(404);
    expect((await patch(ids.other!, o.driver, { status: 'out_for_delivery' })).statusCode).toBe(404);
  });

  it('may only make its moves: ready → out_for_delivery → delivered with the cash', async () => {
    const id = ids.near!;
    // Not ready yet: the driver cannot move it, nor cancel it, nor confirm it.
    expect((await patch(id, o.driver, { status: 'confirmed' })).statusCode).toBe(422);
    await walk(id, ['confirmed', 'in_production', 'ready']);
    const cancel = await patch(id, o.driver, { status: 'cancelled' });
    expect(cancel.statusCode, cancel.body).toBe(422);
    const reason = await patch(id, o.driver, { status: 'cancelled', cancelReason: 'No quiero' });
    expect(reason.statusCode, reason.body).toBe(403);
    const reassign = await patch(id, o.driver, { deliveryAssistantId: o.otherDriver.uid });
    expect([403, 422]).toContain(reassign.statusCode);
    await walk(id, ['out_for_delivery'], o.driver);
    const total = json<{ data: Order }>(await get(id, o.driver)).data.total;
    const done = await patch(id, o.driver, { status: 'delivered', cashCollected: total + 500 });
    expect(done.statusCode, done.body).toBe(200);
    expect(json<{ data: Order }>(done).data.paymentStatus).toBe('paid');
    // Delivered is final for the driver.
    expect((await patch(id, o.driver, { status: 'out_for_delivery' })).statusCode).toBe(422);
  });
});

describe('the summary', () => {
  it('shows the cash collected against the cash to collect, per driver and for the day', async () => {
    const d = await day();
    const mine = d.routes.find((r) => r.driver?.id === o.driver.uid)!;
    const near = mine.stops.find((s) => s.id === ids.near)!;
    expect(near.status).toBe('delivered');
    expect(near.cashCollected).toBe(near.total + 500);
    expect(mine.totals).toMatchObject({
      stops: 5,
      delivered: 1,
      pending: 4,
      cashToCollect: mine.stops.reduce((sum, s) => sum + s.total, 0),
      // What is still to collect: the stops whose cash was not collected yet.
      cashLeft: mine.stops.reduce((sum, s) => sum + s.total, 0) - near.total,
      cashCollected: near.total + 500,
      difference: 500,
    });
    expect(d.totals.cashCollected).toBe(near.total + 500);
    expect(d.totals.stops).toBe(7);
    // The driver's phone reads the same totals for its own route.
    expect((await day(o.driver)).totals).toEqual(mine.totals);
  });
});

describe('cancelled and foreign orders', () => {
  it('a cancelled order leaves the route and the next routing skips it', async () => {
    await walk(ids.mid!, ['confirmed']);
    const res = await patch(ids.mid!, o.admin, { status: 'cancelled', cancelReason: 'El cliente desistió' });
    expect(res.statusCode, res.body).toBe(200);
    const d = await day();
    expect(d.routes.flatMap((r) => r.stops.map((s) => s.id))).not.toContain(ids.mid);
    const again = await route(o.admin, o.driver.uid);
    expect(again.statusCode, again.body).toBe(200);
    // The delivered stop keeps position 1; the open ones follow it, nearest-neighbour from the bakery.
    expect(json<{ data: { orderIds: string[]; unplaced: number } }>(again).data).toEqual({
      orderIds: [ids.west, ids.far, ids.nowhere],
      unplaced: 1,
    });
    const mine = (await day()).routes.find((r) => r.driver?.id === o.driver.uid)!;
    expect(mine.stops.map((s) => [s.id, s.routePosition])).toEqual([
      [ids.near, 1],
      [ids.west, 2],
      [ids.far, 3],
      [ids.nowhere, 4],
    ]);
  });

  it('another company’s orders never appear, and its deliveries are not ours to read', async () => {
    const all = await day();
    expect(all.routes.flatMap((r) => r.stops.map((s) => s.id))).not.toContain(ids.foreign);
    const theirs = await deliveries(o.otherAdmin);
    expect(theirs.statusCode).toBe(404);
    const ours = await deliveries(o.otherAdmin, WEDNESDAY, o.otherCompanyId);
    expect(ours.statusCode, ours.body).toBe(200);
    const foreign = json<{ data: DeliveryDay }>(ours).data;
    expect(foreign.routes.flatMap((r) => r.stops.map((s) => s.id))).toEqual([ids.foreign]);
    expect(foreign.drivers.map((d) => d.id)).not.toContain(o.driver.uid);
  });

  it('guests and roles without the capability are refused', async () => {
    expect((await deliveries(undefined)).statusCode).toBe(401);
    expect((await deliveries(o.customer)).statusCode).toBe(403);
    expect((await deliveries(o.production)).statusCode).toBe(403);
    const bad = await o.t.call({
      method: 'GET',
      url: `/api/companies/${o.companyId}/deliveries?date=mañana`,
      token: o.admin.token,
    });
    expect(bad.statusCode).toBe(400);
  });
});

/**
 * The settings screen's rules on the server: a window that ends before it starts, windows
 * that overlap or repeat an id, a capacity lowered under what is booked (saved with a warning, the booked
 * orders kept and the window closed to new ones), staff who may read but not save, another company's
 * settings out of reach, and a saved change reaching the public read and delivery-days at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order, OfferedDay, Settings } from '@hornada/domain';
import { json } from '../helpers/app';
import { ORDER_SETTINGS, WEDNESDAY, ordersCalls, setupOrdersApp, type OrdersApp } from '../helpers/orders';

let o: OrdersApp;
const { webOrder, staffOrder, get, cart, checkout, checkoutBody } = ordersCalls(() => o);

beforeAll(async () => {
  o = await setupOrdersApp();
});
afterAll(async () => {
  await o?.t.close();
});

const url = (companyId = o.companyId) => `/api/companies/${companyId}/settings`;
const patchSettings = (payload: Record<string, unknown>, token = o.admin.token, companyId = o.companyId) =>
  o.t.call({ method: 'PATCH', url: url(companyId), token, payload });
const windows = (...list: { id: string; start: string; end: string; capacity?: number | null }[]) =>
  list.map((w) => ({ label: w.id, capacity: null, ...w }));

interface Problem {
  code: string;
  details: { path: string; message: string }[];
}

describe('delivery windows', () => {
  it('refuses a window that ends before (or when) it starts, naming its end', async () => {
    for (const [start, end] of [
      ['10:00', '09:00'],
      ['10:00', '10:00'],
    ] as const) {
      const res = await patchSettings({ deliveryWindows: windows({ id: 'x', start, end }) });
      expect(res.statusCode, res.body).toBe(400);
      expect(json<Problem>(res).details).toEqual([
        expect.objectContaining({ path: 'deliveryWindows.0.end', message: 'start must be before end' }),
      ]);
    }
  });

  it('refuses overlapping windows and repeated ids; windows that only touch are fine', async () => {
    const overlap = await patchSettings({
      deliveryWindows: windows(
        { id: 'a', start: '08:00', end: '11:00' },
        { id: 'b', start: '14:00', end: '18:00' },
        { id: 'c', start: '10:30', end: '12:00' },
      ),
    });
    expect(overlap.statusCode, overlap.body).toBe(400);
    expect(json<Problem>(overlap).details).toEqual([
      expect.objectContaining({ path: 'deliveryWindows.2.start', message: expect.stringContaining('Overlaps') }),
    ]);

    const inside = await patchSettings({
      deliveryWindows: windows({ id: 'a', start: '08:00', end: '18:00' }, { id: 'b', start: '09:00', end: '10:00' }),
    });
    expect(inside.statusCode, inside.body).toBe(400);

    const repeated = await patchSettings({
      deliveryWindows: windows({ id: 'a', start: '08:00', end: '09:00' }, { id: 'a', start: '10:00', end: '11:00' }),
    });
    expect(repeated.statusCode, repeated.body).toBe(400);
    expect(json<Problem>(repeated).details).toEqual([expect.objectContaining({ path: 'deliveryWindows.1.id' })]);

    const touching = await patchSettings({
      deliveryWindows: windows({ id: 'a', start: '08:00', end: '11:00' }, { id: 'b', start: '11:00', end: '14:00' }),
    });
    expect(touching.statusCode, touching.body).toBe(200);
    // The bakery's own windows back, for the tests below.
    expect((await patchSettings({ deliveryWindows: ORDER_SETTINGS.deliveryWindows })).statusCode).toBe(200);
  });

  it('keeps the booked orders when a capacity goes under them, warns, and takes no more in that window', async () => {
    await patchSettings({
      deliveryWindows: windows(
        { id: 'am', start: '07:00', end: '10:00', capacity: 5 },
        { id: 'pm', start: '14:00', end: '18:00', capacity: null },
      ),
    });
    const booked: Order[] = [];
    for (let i = 0; i < 3; i++) booked.push(await webOrder(4, { window: 'am' }));
    booked.push(await staffOrder({ window: 'am' }));
    // One cancelled order takes no place.
    const cancelled = await staffOrder({ window: 'am' });
    await o.t.call({
      method: 'PATCH',
      url: `/api/companies/${o.companyId}/orders/${cancelled.id}`,
      token: o.admin.token,
      payload: { status: 'cancelled', cancelReason: 'Prueba' },
    });

    const bookings = await o.t.call({ method: 'GET', url: `${url()}/window-bookings`, token: o.admin.token });
    expect(bookings.statusCode, bookings.body).toBe(200);
    expect(json<{ data: unknown[] }>(bookings).data).toEqual([{ windowId: 'am', date: WEDNESDAY, booked: 4 }]);

    const lowered = await patchSettings({
      deliveryWindows: windows(
        { id: 'am', start: '07:00', end: '10:00', capacity: 2 },
        { id: 'pm', start: '14:00', end: '18:00', capacity: null },
      ),
    });
    expect(lowered.statusCode, lowered.body).toBe(200);
    const body = json<{ data: Settings; warnings: Record<string, unknown>[] }>(lowered);
    expect(body.data.deliveryWindows[0]!.capacity).toBe(2);
    expect(body.warnings).toEqual([
      expect.objectContaining({
        path: 'deliveryWindows.0.capacity',
        windowId: 'am',
        date: WEDNESDAY,
        booked: 4,
        capacity: 2,
      }),
    ]);

    // Every booked order is still there, as it was.
    for (const order of booked) {
      const res = await get(order.id, o.admin);
      expect(res.statusCode).toBe(200);
      const now = json<{ data: Order }>(res).data;
      expect([now.status, now.window, now.dueDate]).toEqual([order.status, 'am', order.dueDate]);
    }
    // The window is full for the storefront: no place left, and a new web order there is refused.
    const days = json<{ data: OfferedDay[] }>(
      await o.t.call({ method: 'GET', url: `/api/companies/${o.companyId}/delivery-days?days=5` }),
    ).data;
    const am = days.find((d) => d.date === WEDNESDAY)!.windows.find((w) => w.id === 'am')!;
    expect([am.capacity, am.remaining]).toEqual([2, 0]);
    const c = await cart([{ productId: o.pan, quantity: 4 }]);
    const refused = await checkout(c, checkoutBody({ window: 'am' }));
    expect(refused.statusCode, refused.body).toBe(422);
    expect(json<Problem>(refused).code).toBe('orders/window-full');

    // Raised over the bookings again: no warning, and places are offered again.
    const raised = await patchSettings({
      deliveryWindows: windows(
        { id: 'am', start: '07:00', end: '10:00', capacity: 6 },
        { id: 'pm', start: '14:00', end: '18:00', capacity: null },
      ),
    });
    expect(json<{ warnings: unknown[] }>(raised).warnings).toEqual([]);
    const again = json<{ data: OfferedDay[] }>(
      await o.t.call({ method: 'GET', url: `/api/companies/${o.companyId}/delivery-days?days=5` }),
    ).data;
    expect(again.find((d) => d.date === WEDNESDAY)!.windows.find((w) => w.id === 'am')!.remaining).toBe(2);
  });
});

describe('who may save', () => {
  it('lets staff read every field but not save, by PUT or PATCH', async () => {
    const read = await o.t.call({ method: 'GET', url: url(), token: o.staff.token });
    expect(read.statusCode).toBe(200);
    const full = json<{ data: Settings }>(read).data;
    expect(full).toHaveProperty('targetMargin');
    const before = full.deliveryFee;
    expect((await patchSettings({ deliveryFee: before + 1 }, o.staff.token)).statusCode).toBe(403);
    expect(
      (await o.t.call({ method: 'PUT', url: url(), token: o.staff.token, payload: { ...full, deliveryFee: 1 } }))
        .statusCode,
    ).toBe(403);
    expect((await o.t.call({ method: 'GET', url: `${url()}/window-bookings`, token: o.staff.token })).statusCode).toBe(
      200,
    );
    const after = json<{ data: Settings }>(await o.t.call({ method: 'GET', url: url(), token: o.admin.token })).data;
    expect(after.deliveryFee).toBe(before);
  });

  it('keeps customers, guests and other companies out', async () => {
    expect((await patchSettings({ deliveryFee: 1 }, o.customer.token)).statusCode).toBe(403);
    expect((await patchSettings({ deliveryFee: 1 }, o.driver.token)).statusCode).toBe(403);
    expect((await o.t.call({ method: 'PATCH', url: url(), payload: { deliveryFee: 1 } })).statusCode).toBe(401);
    expect((await patchSettings({ deliveryFee: 1 }, o.otherAdmin.token)).statusCode).toBe(404);
    expect(
      (await o.t.call({ method: 'GET', url: `${url()}/window-bookings`, token: o.otherAdmin.token })).statusCode,
    ).toBe(404);
    expect(
      (await o.t.call({ method: 'GET', url: `${url()}/window-bookings`, token: o.customer.token })).statusCode,
    ).toBe(403);
    // The other company's settings did not move either.
    const other = json<{ data: Settings }>(await o.t.call({ method: 'GET', url: url(o.otherCompanyId) })).data;
    expect(other.deliveryFee).toBe(0);
  });
});

describe('a saved change reaches the storefront at once', () => {
  it('shows the new fee, name and blackout day in the public reads and delivery-days', async () => {
    const saved = await patchSettings({ deliveryFee: 7000, marketName: 'Horno Nuevo', blackoutDates: [WEDNESDAY] });
    expect(saved.statusCode, saved.body).toBe(200);
    const pub = json<{ data: Settings }>(await o.t.call({ method: 'GET', url: url() })).data;
    expect([pub.deliveryFee, pub.marketName, pub.blackoutDates]).toEqual([7000, 'Horno Nuevo', [WEDNESDAY]]);
    const config = json<{ data: { marketName: string } }>(await o.t.call({ method: 'GET', url: '/api/config' }));
    expect(config.data.marketName).toBeDefined();
    const days = json<{ data: OfferedDay[] }>(
      await o.t.call({ method: 'GET', url: `/api/companies/${o.companyId}/delivery-days?days=5` }),
    ).data;
    expect(days.map((d) => d.date)).not.toContain(WEDNESDAY);
    // A cart priced after the change carries the new fee.
    const c = await cart([{ productId: o.pan, quantity: 4 }]);
    const read = await o.t.call({ method: 'GET', url: `/api/carts/${c.id}`, headers: { 'x-session-id': c.session } });
    expect(json<{ data: { deliveryFee: number } }>(read).data.deliveryFee).toBe(7000);
  });
});

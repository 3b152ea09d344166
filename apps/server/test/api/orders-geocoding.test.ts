/**
 * Delivery addresses placed on the map: the geocoder (the local stand-in here, as the payment
 * sandbox stands in for the gateway) gives each queued address its point, once; a person's pin wins and may
 * move while the stop is still ahead; a new place is looked up again; the route places its stops first and
 * says how many it could not place. Only the back office pins, only its own company's orders.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SettingsInput, type Order } from '@hornada/domain';
import { settings } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { standInSearch } from '../../src/providers/geocoding';
import { systemActor } from '../../src/resources/actor';
import { json, type TestUser } from '../helpers/app';
import { ADDRESS, ORDER_SETTINGS, ordersCalls, setupOrdersApp, WEDNESDAY, type OrdersApp } from '../helpers/orders';

let o: OrdersApp;
const { cart, checkout, checkoutBody, staffOrder, patch, get } = ordersCalls(() => o);

/** Addresses the stand-in knows (providers/geocoding/stand-in.ts), and one it does not (ADDRESS). */
const KNOWN = {
  teusaquillo: {
    line: 'Calle 45 # 13-20',
    neighborhood: 'Teusaquillo',
    city: 'Bogotá',
    point: { lat: 4.6331, lng: -74.0678 },
  },
  chapinero: {
    line: 'Cra. 7 #60-12',
    neighborhood: 'Chapinero',
    city: 'Bogotá',
    point: { lat: 4.6458, lng: -74.0613 },
  },
  galerias: {
    line: 'Calle 53 # 21-40',
    neighborhood: 'Galerías',
    city: 'Bogotá',
    point: { lat: 4.6425, lng: -74.0721 },
  },
};
const addressOf = (k: keyof typeof KNOWN) => {
  const { point: _point, ...address } = KNOWN[k];
  return address;
};
const PIN = { lat: 4.6101, lng: -74.0702 };

const placing = () => o.t.app.modules.addressPlacing!;

async function read(id: string, user: TestUser = o.staff): Promise<Order> {
  const res = await get(id, user);
  expect(res.statusCode, res.body).toBe(200);
  return json<{ data: Order }>(res).data;
}

async function walk(id: string, statuses: string[]) {
  for (const status of statuses) {
    const res = await patch(id, o.admin, { status });
    expect(res.statusCode, res.body).toBe(200);
  }
}

beforeAll(async () => {
  o = await setupOrdersApp({ env: { GEOCODER: 'stand-in' } });
  await o.t.db
    .update(settings)
    .set({ data: SettingsInput.parse({ ...ORDER_SETTINGS, location: { lat: 4.5981, lng: -74.0758 } }) })
    .where(eq(settings.companyId, o.companyId));
});
afterAll(async () => {
  await o?.t.close();
});

describe('placing addresses', () => {
  it('gives a checkout’s and a staff order’s address its point, looks an unknown one up once, and writes no history', async () => {
    const web = await checkout(
      await cart([{ productId: o.pan, quantity: 4 }]),
      checkoutBody({ address: addressOf('teusaquillo') }),
    );
    expect(web.statusCode, web.body).toBe(201);
    const webOrder = json<{ data: Order }>(web).data;
    const staff = await staffOrder({ address: addressOf('chapinero') });
    const unknown = await staffOrder({ address: ADDRESS });
    // The shopper's answer is the guest view (no staff fields): staff read the order.
    for (const order of [await read(webOrder.id), staff, unknown]) {
      expect(order).toMatchObject({ geoSource: null, geoCheckedAt: null, address: { lat: null, lng: null } });
    }

    const run = await placing().place();
    expect(run).toEqual({ placed: 2, notFound: 1, skipped: 0 });
    const placedWeb = await read(webOrder.id);
    expect(placedWeb.address).toMatchObject({ line: KNOWN.teusaquillo.line, ...KNOWN.teusaquillo.point });
    expect(placedWeb.geoSource).toBe('geocoded');
    expect(placedWeb.geoCheckedAt).toBe(o.t.clock.now().toISOString());
    expect(placedWeb.history.map((h) => h.field)).not.toContain('address');
    expect((await read(staff.id)).address).toMatchObject(KNOWN.chapinero.point);
    const notFound = await read(unknown.id);
    expect(notFound).toMatchObject({ geoSource: null, address: { lat: null, lng: null } });
    expect(notFound.geoCheckedAt).not.toBeNull();

    // Each was looked up once: nothing is left in the queue.
    expect(await placing().place()).toEqual({ placed: 0, notFound: 0, skipped: 0 });
  });

  it('leaves a person’s pin alone: the shopper’s at checkout, staff’s while the order is in production', async () => {
    const web = await checkout(
      await cart([{ productId: o.pan, quantity: 4 }]),
      checkoutBody({ address: { ...addressOf('teusaquillo'), ...PIN } }),
    );
    expect(web.statusCode, web.body).toBe(201);
    const pinned = json<{ data: Order }>(web).data;
    expect((await read(pinned.id)).geoSource).toBe('pinned');

    const order = await staffOrder({ address: ADDRESS });
    await placing().place();
    await walk(order.id, ['confirmed', 'in_production']);
    const res = await patch(order.id, o.staff, { address: { ...ADDRESS, ...PIN } });
    expect(res.statusCode, res.body).toBe(200);
    const after = json<{ data: Order }>(res).data;
    expect(after).toMatchObject({ geoSource: 'pinned', address: { line: ADDRESS.line, ...PIN } });
    const line = after.history.at(-1)!;
    expect(line).toMatchObject({ field: 'address', by: { uid: o.staff.uid } });

    await placing().place();
    expect((await read(pinned.id)).address).toMatchObject(PIN);
    expect((await read(order.id)).address).toMatchObject(PIN);

    // In production the place itself no longer changes, only its pin.
    const moved = await patch(order.id, o.staff, { address: { ...ADDRESS, line: 'Calle 11 # 5-20', ...PIN } });
    expect(moved.statusCode, moved.body).toBe(422);
    expect(json<{ code: string }>(moved).code).toBe('orders/locked');
  });

  it('drops the old point when the address is another place, and looks the new one up; a pin taken away too', async () => {
    const order = await staffOrder({ address: addressOf('teusaquillo') });
    await placing().place();
    const placed = await read(order.id);
    expect(placed.address).toMatchObject(KNOWN.teusaquillo.point);

    // The editor sends the address back with the point it showed: the point belonged to the old place.
    const res = await patch(order.id, o.staff, { address: { ...placed.address, ...addressOf('galerias') } });
    expect(res.statusCode, res.body).toBe(200);
    expect(json<{ data: Order }>(res).data).toMatchObject({
      geoSource: null,
      geoCheckedAt: null,
      address: { line: KNOWN.galerias.line, lat: null, lng: null },
    });
    await placing().place();
    expect(await read(order.id)).toMatchObject({ geoSource: 'geocoded', address: KNOWN.galerias.point });

    // Staff pins it, then takes the pin away: the geocoder looks again.
    const pin = await patch(order.id, o.staff, { address: { ...addressOf('galerias'), ...PIN } });
    expect(json<{ data: Order }>(pin).data.geoSource).toBe('pinned');
    const unpin = await patch(order.id, o.staff, { address: { ...addressOf('galerias'), lat: null, lng: null } });
    expect(json<{ data: Order }>(unpin).data).toMatchObject({ geoSource: null, geoCheckedAt: null });
    await placing().place();
    expect(await read(order.id)).toMatchObject({ geoSource: 'geocoded', address: KNOWN.galerias.point });
  });

  it('never writes a point over a change made while it looked, nor the address’s text', async () => {
    const order = await staffOrder({ address: ADDRESS });
    const service = o.t.app.resources.get('orders');
    const edited = await patch(order.id, o.staff, { address: addressOf('teusaquillo') });
    expect(edited.statusCode, edited.body).toBe(200);
    // The answer found for the address as it was: refused, the order keeps the new one queued.
    await expect(
      service.update(systemActor('geocoding'), o.companyId, order.id, { address: { ...ADDRESS, ...PIN } }),
    ).rejects.toMatchObject({ statusCode: 409 });
    const now = await read(order.id);
    expect(now).toMatchObject({ geoSource: null, address: { line: KNOWN.teusaquillo.line, lat: null } });
    // Its line reaches the point only: another text is refused the same way.
    await expect(
      service.update(systemActor('geocoding'), o.companyId, order.id, {
        address: { ...addressOf('galerias'), ...PIN },
      }),
    ).rejects.toMatchObject({ statusCode: 409 });
    // And nothing but the address.
    await expect(service.update(systemActor('geocoding'), o.companyId, order.id, { notes: 'x' })).rejects.toMatchObject(
      { statusCode: 403 },
    );
  });
});

describe('who pins', () => {
  it('the back office of the order’s own bakery, with a point on the map', async () => {
    const order = await staffOrder({ address: ADDRESS, deliveryAssistantId: o.driver.uid });
    const pinned = { address: { ...ADDRESS, ...PIN } };
    // A driver (even its own stop's) and production may not; another bakery does not see the order.
    expect((await patch(order.id, o.driver, pinned)).statusCode).toBe(403);
    expect((await patch(order.id, o.production, pinned)).statusCode).toBe(403);
    const foreign = await o.t.call({
      method: 'PATCH',
      url: `/api/companies/${o.otherCompanyId}/orders/${order.id}`,
      token: o.otherAdmin.token,
      payload: pinned,
    });
    expect(foreign.statusCode).toBe(404);
    const other = await o.t.call({
      method: 'PATCH',
      url: `/api/companies/${o.companyId}/orders/${order.id}`,
      token: o.otherAdmin.token,
      payload: pinned,
    });
    expect(other.statusCode).toBe(404);
    // A point off the map, or half of one.
    for (const [bad, path] of [
      [{ lat: 91, lng: -74 }, 'address.lat'],
      [{ lat: 4.6, lng: -181 }, 'address.lng'],
      [{ lat: 4.6, lng: null }, 'address.lng'],
    ] as const) {
      const res = await patch(order.id, o.staff, { address: { ...ADDRESS, ...bad } });
      expect(res.statusCode, res.body).toBe(400);
      expect(json<{ details: { path: string }[] }>(res).details.map((d) => d.path)).toContain(path);
    }
    // A delivered stop's pin no longer moves.
    await walk(order.id, ['confirmed', 'in_production', 'ready', 'out_for_delivery', 'delivered']);
    const late = await patch(order.id, o.staff, pinned);
    expect(late.statusCode, late.body).toBe(422);
    expect((await read(order.id)).geoSource).toBeNull();
  });
});

describe('the route', () => {
  it('places its stops first and says how many it could not place', async () => {
    const driver = await o.t.user('delivery_assistant', o.companyId);
    const known = await staffOrder({ address: addressOf('chapinero'), deliveryAssistantId: driver.uid });
    const unknown = await staffOrder({
      address: { ...ADDRESS, line: 'Vereda El Placer, finca 3' },
      deliveryAssistantId: driver.uid,
    });
    const res = await o.t.call({
      method: 'POST',
      url: `/api/companies/${o.companyId}/deliveries/route`,
      token: o.staff.token,
      headers: { 'idempotency-key': newId() },
      payload: { date: WEDNESDAY, deliveryAssistantId: driver.uid },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(json<{ data: { orderIds: string[]; unplaced: number } }>(res).data).toEqual({
      orderIds: [known.id, unknown.id],
      unplaced: 1,
    });
    expect(await read(known.id)).toMatchObject({ geoSource: 'geocoded', routePosition: 1 });
    expect(await read(unknown.id)).toMatchObject({ geoSource: null, routePosition: 2 });
  });
});

describe('with Nominatim', () => {
  it('asks the service NOMINATIM_URL names over HTTP, as Nominatim answers, and places the order; the service down leaves it queued', async () => {
    // A local server answering Nominatim's /search as the stand-in's table says; it records what was asked.
    const asked: { q: string | null; countrycodes: string | null; agent: string | undefined }[] = [];
    const server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      asked.push({
        q: url.searchParams.get('q'),
        countrycodes: url.searchParams.get('countrycodes'),
        agent: req.headers['user-agent'],
      });
      // The service failing for one address: not an answer about it.
      if (url.searchParams.get('q')?.includes('85-33')) {
        res.statusCode = 503;
        res.end();
        return;
      }
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(url.pathname === '/search' ? standInSearch(url.searchParams.get('q') ?? '') : []));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const nominatim = await setupOrdersApp({
      env: {
        GEOCODER: 'nominatim',
        NOMINATIM_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        GEOCODER_CONTACT: 'soporte@panaderia.test',
      },
    });
    const post = (address: Record<string, unknown>) =>
      nominatim.t.call({
        method: 'POST',
        url: `/api/companies/${nominatim.companyId}/orders`,
        token: nominatim.staff.token,
        payload: {
          contact: { name: 'Ana Pérez', phone: '300 123 4567' },
          items: [{ productId: nominatim.pan, quantity: 2 }],
          fulfillment: 'delivery',
          address,
          dueDate: WEDNESDAY,
          window: 'am',
          paymentMethod: 'cash',
        },
      });
    try {
      const res = await post(addressOf('teusaquillo'));
      expect(res.statusCode, res.body).toBe(201);
      const id = json<{ data: Order }>(res).data.id;
      expect(await nominatim.t.app.modules.addressPlacing!.place()).toEqual({ placed: 1, notFound: 0, skipped: 0 });
      const placed = await nominatim.t.call({
        method: 'GET',
        url: `/api/companies/${nominatim.companyId}/orders/${id}`,
        token: nominatim.staff.token,
      });
      expect(json<{ data: Order }>(placed).data).toMatchObject({
        geoSource: 'geocoded',
        address: KNOWN.teusaquillo.point,
      });
      expect(asked).toEqual([
        {
          q: `${KNOWN.teusaquillo.line}, Bogotá`,
          countrycodes: 'co',
          agent: 'Hornada/1.0 (soporte@panaderia.test)',
        },
      ]);

      // The service down: the run stops there and the order stays queued for the next one.
      const down = await post({ ...ADDRESS, line: 'Carrera 15 # 85-33' });
      expect(down.statusCode, down.body).toBe(201);
      await expect(nominatim.t.app.modules.addressPlacing!.place()).rejects.toThrow(/503/);
      const queued = await nominatim.t.call({
        method: 'GET',
        url: `/api/companies/${nominatim.companyId}/orders/${json<{ data: Order }>(down).data.id}`,
        token: nominatim.staff.token,
      });
      expect(json<{ data: Order }>(queued).data).toMatchObject({ geoSource: null, geoCheckedAt: null });
    } finally {
      await nominatim.t.close();
      server.close();
    }
  });
});

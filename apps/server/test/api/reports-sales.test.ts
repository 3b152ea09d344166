/**
 * The sales report (docs/design.md §3 reports/sales): totals and every breakdown against a hand-built
 * week of orders (cancelled, other-company and out-of-range orders left out, a B2B client's prices, days
 * without sales), the CSV export (BOM, Spanish headers, plain integers, a formula cell defused), the
 * 366-day bound, and who may read it.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SettingsInput, type Order, type SalesReport } from '@hornada/domain';
import { productCollections, products, settings } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { json, type TestUser } from '../helpers/app';
import { ADDRESS, CONTACT, ORDER_SETTINGS, ordersCalls, setupOrdersApp, type OrdersApp } from '../helpers/orders';

let o: OrdersApp;
const { webOrder, staffOrder, postOrder, patch, b2bClient } = ordersCalls(() => o);
const HYPERLINK = '=HYPERLINK("http://evil.test","clic")';
let hyperlink: string;
let cafe: string;
let panes: string;
let tortas: string;
const placed: Record<string, Order> = {};

/** The report as `user` reads it (null: no token at all). */
const report = (query: string, user: TestUser | null = o.admin, companyId = o.companyId) =>
  o.t.call({ method: 'GET', url: `/api/companies/${companyId}/reports/sales?${query}`, token: user?.token });

const WEEK = 'from=2026-11-24&to=2026-11-30';

beforeAll(async () => {
  o = await setupOrdersApp();
  const now = o.t.clock.now();
  const collection = async (name: string) => {
    const id = newId();
    await o.t.db
      .insert(productCollections)
      .values({ id, companyId: o.companyId, name, createdAt: now, updatedAt: now });
    return id;
  };
  panes = await collection('Panes');
  tortas = await collection('Tortas');
  await o.t.db.update(products).set({ collectionId: panes }).where(eq(products.id, o.pan));
  await o.t.db.update(products).set({ collectionId: tortas }).where(eq(products.id, o.torta));
  hyperlink = newId();
  await o.t.db
    .insert(products)
    .values({ id: hyperlink, companyId: o.companyId, name: HYPERLINK, price: 3000, createdAt: now, updatedAt: now });
  await o.t.db
    .update(settings)
    .set({ data: SettingsInput.parse(ORDER_SETTINGS) })
    .where(eq(settings.companyId, o.otherCompanyId));
  cafe = await b2bClient({ businessName: 'Café La Esquina', prices: [{ productId: o.pan, price: 2000 }] });

  // The clock is Monday 23 Nov 2026 in Bogotá; the report reads Tue 24 to Mon 30.
  placed.web = await webOrder(4); // Wed 25: 4 pan 10,000 + delivery 5,000
  placed.staff = await staffOrder({
    items: [
      { productId: o.pan, quantity: 2 },
      { productId: o.torta, quantity: 1 },
    ],
  }); // Wed 25: 5,000 + 42,000 + delivery 5,000, paid below
  placed.b2b = await staffOrder({
    b2bClientId: cafe,
    paymentMethod: 'credit',
    dueDate: '2026-11-26',
    items: [
      { productId: o.pan, quantity: 10 },
      { productId: o.torta, quantity: 1 },
    ],
  }); // Thu 26: its own pan price 2,000 and torta's b2bPrice 35,000; free delivery from 50,000
  placed.link = await staffOrder({ dueDate: '2026-11-27', items: [{ productId: hyperlink, quantity: 1 }] });
  placed.lastDay = await staffOrder({ dueDate: '2026-11-30', items: [{ productId: o.galleta, quantity: 3 }] });
  // Left out: cancelled, the day after the range, another bakery's.
  placed.cancelled = await staffOrder({ dueDate: '2026-11-27', items: [{ productId: o.torta, quantity: 1 }] });
  placed.after = await staffOrder({ dueDate: '2026-12-01', items: [{ productId: o.torta, quantity: 5 }] });
  const foreign = await postOrder(
    o.otherAdmin.token,
    {
      contact: CONTACT,
      items: [{ productId: o.foreign, quantity: 500 }],
      fulfillment: 'delivery',
      address: ADDRESS,
      dueDate: '2026-11-25',
      window: 'am',
      paymentMethod: 'cash',
    },
    o.otherCompanyId,
  );
  expect(foreign.statusCode, foreign.body).toBe(201);

  for (const id of [placed.staff.id, placed.link.id]) {
    expect((await patch(id, o.staff, { paymentStatus: 'paid' })).statusCode).toBe(200);
  }
  const cancel = await patch(placed.cancelled.id, o.staff, { status: 'cancelled', cancelReason: 'No contestan' });
  expect(cancel.statusCode, cancel.body).toBe(200);
});
afterAll(async () => {
  await o?.t.close();
});

async function week(): Promise<SalesReport> {
  const res = await report(WEEK);
  expect(res.statusCode, res.body).toBe(200);
  return json<{ data: SalesReport }>(res).data;
}

describe('GET …/reports/sales', () => {
  it('prices the hand-built orders as expected (the set the report is checked against)', () => {
    expect(Object.fromEntries(Object.entries(placed).map(([k, v]) => [k, v.total]))).toEqual({
      web: 15_000,
      staff: 52_000,
      b2b: 55_000,
      link: 8_000,
      lastDay: 8_015,
      cancelled: 47_000,
      after: 210_000,
    });
    expect(placed.b2b!.items.map((l) => l.lineTotal)).toEqual([20_000, 35_000]);
  });

  it('sums the totals, paid against unpaid, leaving out cancelled, other-company and out-of-range orders', async () => {
    const r = await week();
    expect([r.from, r.to]).toEqual(['2026-11-24', '2026-11-30']);
    expect(r.totals).toEqual({
      revenue: 138_015,
      paid: 60_000,
      unpaid: 78_015,
      refunded: 0,
      refundedOrders: 0,
      orders: 5,
      averageTicket: 27_603,
    });
  });

  it('lists every day of the range, the days without sales as zeros', async () => {
    expect((await week()).byDay).toEqual([
      { date: '2026-11-24', revenue: 0, orders: 0 },
      { date: '2026-11-25', revenue: 67_000, orders: 2 },
      { date: '2026-11-26', revenue: 55_000, orders: 1 },
      { date: '2026-11-27', revenue: 8_000, orders: 1 },
      { date: '2026-11-28', revenue: 0, orders: 0 },
      { date: '2026-11-29', revenue: 0, orders: 0 },
      { date: '2026-11-30', revenue: 8_015, orders: 1 },
    ]);
  });

  it("breaks lines down by product and collection at the price sold (a B2B client's included)", async () => {
    const r = await week();
    expect(r.byProduct).toEqual([
      { productId: o.torta, name: 'Torta de chocolate', quantity: 2, revenue: 77_000, paid: 42_000, unpaid: 35_000 },
      { productId: o.pan, name: 'Pan campesino', quantity: 16, revenue: 35_000, paid: 5_000, unpaid: 30_000 },
      { productId: o.galleta, name: 'Galleta de avena', quantity: 3, revenue: 3_015, paid: 0, unpaid: 3_015 },
      { productId: hyperlink, name: HYPERLINK, quantity: 1, revenue: 3_000, paid: 3_000, unpaid: 0 },
    ]);
    expect(r.byCollection).toEqual([
      { collectionId: tortas, name: 'Tortas', quantity: 2, revenue: 77_000, paid: 42_000, unpaid: 35_000 },
      { collectionId: panes, name: 'Panes', quantity: 16, revenue: 35_000, paid: 5_000, unpaid: 30_000 },
      { collectionId: null, name: 'Sin colección', quantity: 4, revenue: 6_015, paid: 3_000, unpaid: 3_015 },
    ]);
  });

  it('breaks orders down by channel (every channel) and by B2B client', async () => {
    const r = await week();
    expect(r.byChannel).toEqual([
      { channel: 'web', orders: 1, revenue: 15_000, paid: 0, unpaid: 15_000 },
      { channel: 'staff', orders: 3, revenue: 68_015, paid: 60_000, unpaid: 8_015 },
      { channel: 'b2b', orders: 1, revenue: 55_000, paid: 0, unpaid: 55_000 },
    ]);
    expect(r.byB2bClient).toEqual([
      { b2bClientId: cafe, name: 'Café La Esquina', orders: 1, revenue: 55_000, paid: 0, unpaid: 55_000 },
    ]);
  });

  it("reads days in the bakery's zone: a one-day range holds only that day's orders", async () => {
    const res = await report('from=2026-11-30&to=2026-11-30');
    const r = json<{ data: SalesReport }>(res).data;
    expect(r.totals).toMatchObject({ orders: 1, revenue: 8_015 });
    expect(r.byDay).toEqual([{ date: '2026-11-30', revenue: 8_015, orders: 1 }]);
  });

  it('answers an empty range with zeros and empty breakdowns', async () => {
    const r = json<{ data: SalesReport }>(await report('from=2025-01-01&to=2025-01-03')).data;
    expect(r.totals).toEqual({
      revenue: 0,
      paid: 0,
      unpaid: 0,
      refunded: 0,
      refundedOrders: 0,
      orders: 0,
      averageTicket: 0,
    });
    expect(r.byDay.map((d) => d.revenue)).toEqual([0, 0, 0]);
    expect([r.byProduct, r.byCollection, r.byB2bClient]).toEqual([[], [], []]);
    expect(r.byChannel.map((c) => c.orders)).toEqual([0, 0, 0]);
  });

  it('reads at most 366 days: a leap year is fine, a day more is a 400 saying so', async () => {
    const leap = await report('from=2028-01-01&to=2028-12-31');
    expect(leap.statusCode, leap.body).toBe(200);
    expect(json<{ data: SalesReport }>(leap).data.byDay).toHaveLength(366);
    const long = await report('from=2026-01-01&to=2027-01-02');
    expect(long.statusCode).toBe(400);
    expect(json(long)).toMatchObject({ code: 'reports/range-too-long' });
    const reversed = await report('from=2026-11-30&to=2026-11-24');
    expect(reversed.statusCode).toBe(400);
    expect(json(reversed)).toMatchObject({ code: 'reports/invalid-range' });
    for (const bad of ['from=2026-11-24', 'from=ayer&to=hoy', `${WEEK}&format=xlsx`, `${WEEK}&extra=1`]) {
      expect((await report(bad)).statusCode, bad).toBe(400);
    }
  });

  it('bounds the years a day may name: a far-future or far-past range is a 400, never a 500', async () => {
    for (const range of [
      'from=9999-01-01&to=9999-01-02',
      'from=9999-12-31&to=9999-12-31',
      'from=2101-01-01&to=2101-01-31',
      'from=0001-01-01&to=0001-01-02',
      'from=1999-12-31&to=2000-01-01',
    ]) {
      for (const format of ['json', 'csv']) {
        const res = await report(`${range}&format=${format}`);
        expect(res.statusCode, `${range} ${format}: ${res.body}`).toBe(400);
        expect(json(res), range).toMatchObject({ code: 'days/out-of-range' });
      }
    }
    // The edges of the bound are days like any other.
    expect((await report('from=2000-01-01&to=2000-01-02')).statusCode).toBe(200);
    expect((await report('from=2100-12-30&to=2100-12-31')).statusCode).toBe(200);
  });

  it('bounds the years of the production and delivery days too', async () => {
    const call = (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) =>
      o.t.call({ method, url: `/api/companies/${o.companyId}${url}`, token: o.admin.token, payload });
    for (const day of ['9999-12-31', '0001-01-01', '2101-01-01']) {
      for (const res of [
        await call('GET', `/production?date=${day}`),
        await call('GET', `/deliveries?date=${day}`),
        await call('POST', '/deliveries/route', { date: day, deliveryAssistantId: o.driver.uid }),
      ]) {
        expect(res.statusCode, `${day}: ${res.body}`).toBe(400);
        expect(json(res)).toMatchObject({ code: 'days/out-of-range' });
      }
    }
    expect((await call('GET', '/production?date=2026-11-25')).statusCode).toBe(200);
    expect((await call('GET', '/deliveries?date=2026-11-25')).statusCode).toBe(200);
  });

  it('is for the back office: another bakery gets a 404, roles without reports:read a 403, a guest a 401', async () => {
    expect((await report(WEEK, o.staff)).statusCode).toBe(200);
    expect((await report(WEEK, o.otherAdmin)).statusCode).toBe(404);
    // The other bakery's admin reads its own report: its order only, never ours.
    const theirs = json<{ data: SalesReport }>(await report(WEEK, o.otherAdmin, o.otherCompanyId)).data;
    expect(theirs.totals.orders).toBe(1);
    expect(theirs.byProduct.map((p) => p.productId)).toEqual([o.foreign]);
    for (const user of [o.customer, o.driver, o.production]) {
      const res = await report(WEEK, user);
      expect(res.statusCode).toBe(403);
      expect((await report(`${WEEK}&format=csv`, user)).statusCode).toBe(403);
    }
    expect((await report(WEEK, null)).statusCode).toBe(401);
  });
});

describe('GET …/reports/sales?format=csv', () => {
  it('answers UTF-8 with a BOM, Spanish headers, plain integers and a defused formula cell', async () => {
    const res = await report(`${WEEK}&format=csv`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="ventas-2026-11-24-a-2026-11-30.csv"');
    expect([...res.rawPayload.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = res.rawPayload.toString('utf8').slice(1).split('\r\n');
    expect(lines[0]).toBe('Sección,Concepto,Pedidos,Unidades,Ventas,Pagado,Por cobrar');
    expect(lines[1]).toBe('Resumen,2026-11-24 a 2026-11-30,5,,138015,60000,78015');
    expect(lines).toContain('Día,2026-11-28,0,,0,,');
    expect(lines).toContain('Producto,Torta de chocolate,,2,77000,42000,35000');
    // The formula cell begins with a quote mark, and is quoted as it holds quotes and a comma.
    expect(lines).toContain(`Producto,"'=HYPERLINK(""http://evil.test"",""clic"")",,1,3000,3000,0`);
    expect(lines.some((l) => /(^|,)=/.test(l))).toBe(false);
    expect(lines).toContain('Colección,Sin colección,,4,6015,3000,3015');
    expect(lines).toContain('Canal,Mayorista,1,,55000,0,55000');
    expect(lines).toContain('Cliente B2B,Café La Esquina,1,,55000,0,55000');
    expect(lines.at(-1)).toBe('');
  });
});

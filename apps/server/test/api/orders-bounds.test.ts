/**
 * Bounds on what one holder can book (holes 3 and 5): unpaid web orders a day per holder
 * (session or customer), address and phone, under concurrency; the staff's list of suspicious orders;
 * the order total cap (100,000,000, a 422 naming `total`, past 2^31 too) on checkout, staff creation
 * and edits; the 62-day booking horizon on carts, checkout and staff orders; five open carts a holder;
 * and the cleanup of carts untouched for 30 days, driven by the app's clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import {
  CART_OPEN_PER_HOLDER,
  MONEY_MAX,
  SettingsInput,
  type Cart,
  type OfferedDay,
  type Order,
} from '@hornada/domain';
import { products, settings } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { json } from '../helpers/app';
import {
  ADDRESS,
  newSession,
  ORDER_SETTINGS,
  ordersCalls,
  setupOrdersApp,
  WEDNESDAY,
  type OrdersApp,
} from '../helpers/orders';

let o: OrdersApp;
const { checkoutBody, postOrder, patch, get } = ordersCalls(() => o);

const DAY_MS = 86_400_000;
/** Monday 23 Nov 2026 + 61 days: the last day the 62-day horizon offers (a Saturday, a delivery day). */
const LAST_DAY = '2027-01-23';
/** The next delivery day after it (a Monday). */
const BEYOND = '2027-01-25';

beforeAll(async () => {
  o = await setupOrdersApp({
    env: {
      CHECKOUT_UNPAID_PER_HOLDER: '3',
      CHECKOUT_UNPAID_PER_PHONE: '3',
      CHECKOUT_UNPAID_PER_ADDRESS: '5',
      CHECKOUT_WINDOW_SHARE_PER_ADDRESS: '50',
    },
  });
});
afterAll(async () => {
  await o?.t.close();
});

interface Guest {
  session: string;
  ip: string;
  phone: string;
}
let serial = 0;
/** A guest of their own browser session, network address and phone unless told otherwise. */
function guest(over: Partial<Guest> = {}): Guest {
  serial++;
  return {
    session: over.session ?? newSession(),
    ip: over.ip ?? `10.1.${Math.floor(serial / 200)}.${(serial % 200) + 1}`,
    phone: over.phone ?? `310 555 ${String(serial).padStart(4, '0')}`,
  };
}

async function cartOf(g: Guest, extra: Record<string, unknown> = {}, items = [{ productId: o.pan, quantity: 4 }]) {
  const res = await o.t.call({
    method: 'POST',
    url: '/api/carts',
    remoteAddress: g.ip,
    headers: { 'x-session-id': g.session },
    payload: { companyId: o.companyId, items, ...extra },
  });
  expect(res.statusCode, res.body).toBe(201);
  return json<{ data: Cart }>(res).data.id;
}

const readCart = (g: Guest, id: string) =>
  o.t.call({ method: 'GET', url: `/api/carts/${id}`, headers: { 'x-session-id': g.session } });

const checkoutAs = (g: Guest, cartId: string, extra: Record<string, unknown> = {}) =>
  o.t.call({
    method: 'POST',
    url: `/api/carts/${cartId}/checkout`,
    remoteAddress: g.ip,
    headers: { 'x-session-id': g.session, 'idempotency-key': newId() },
    payload: checkoutBody({ contact: { name: 'Ana Pérez', phone: g.phone }, ...extra }),
  });

const book = async (g: Guest, extra: Record<string, unknown> = {}) => checkoutAs(g, await cartOf(g), extra);
const orderOf = (res: { body: string }) => json<{ data: Order }>(res).data;

function expectTooMany(res: { statusCode: number; body: string; headers: Record<string, unknown> }) {
  expect(res.statusCode, res.body).toBe(429);
  expect(json(res)).toMatchObject({ code: 'orders/too-many-unpaid' });
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
}

describe('unpaid web orders a holder may book (hole 3)', () => {
  it('refuses a flood from one session, address and phone after the bound, while a second guest still books', async () => {
    const flood = guest();
    for (let i = 0; i < 3; i++) {
      const res = await book(flood);
      expect(res.statusCode, res.body).toBe(201);
    }
    expectTooMany(await book(flood));
    expectTooMany(await book(flood, { window: 'pm' }));
    const second = await book(guest());
    expect(second.statusCode, second.body).toBe(201);
  });

  it('bounds each of session, phone and address on its own', async () => {
    const session = newSession();
    for (let i = 0; i < 3; i++) expect((await book(guest({ session }))).statusCode).toBe(201);
    expectTooMany(await book(guest({ session })));

    // The same phone however it is written.
    const phones = ['311 444 0001', '+57 311 444 0001', '3114440001', '(311) 444-0001'];
    for (const phone of phones.slice(0, 3)) expect((await book(guest({ phone }))).statusCode).toBe(201);
    const samePhone = await book(guest({ phone: phones[3] }));
    expectTooMany(samePhone);
    expect(json<{ details: { path: string }[] }>(samePhone).details).toEqual([
      expect.objectContaining({ path: 'contact.phone' }),
    ]);

    const ip = '10.9.9.9';
    for (let i = 0; i < 5; i++) expect((await book(guest({ ip }))).statusCode).toBe(201);
    expectTooMany(await book(guest({ ip })));
  });

  it('holds the bound when one session checks out five carts at once', async () => {
    const session = newSession();
    const carts = [];
    for (let i = 0; i < 5; i++) carts.push({ g: guest({ session }), id: await cartOf(guest({ session })) });
    const results = await Promise.all(carts.map((c) => checkoutAs(c.g, c.id)));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([201, 201, 201, 429, 429]);
  });

  it('counts only unpaid orders of the day: a cancelled one frees a place, and the next day starts again', async () => {
    const g = guest();
    const placed = [];
    for (let i = 0; i < 3; i++) placed.push(orderOf(await book(g)));
    expectTooMany(await book(g));
    const cancelled = await patch(placed[0]!.id, o.staff, { status: 'cancelled', cancelReason: 'Duplicado' });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect((await book(g)).statusCode).toBe(201);
    expectTooMany(await book(g));
    const monday = o.t.clock.now();
    o.t.clock.advance(DAY_MS);
    try {
      const tomorrow = await book(g, { dueDate: '2026-11-26' });
      expect(tomorrow.statusCode, tomorrow.body).toBe(201);
    } finally {
      o.t.clock.set(monday);
    }
  });

  it('shows staff the web orders that share a phone with two or more unpaid ones of their day, and they cancel them', async () => {
    const phone = '312 888 0000';
    const placed = [];
    for (const written of [phone, '+57 312-888-0000', phone])
      placed.push(orderOf(await book(guest({ phone: written }))));
    const innocent = orderOf(await book(guest()));
    const url = `/api/companies/${o.companyId}/suspicious-orders`;
    const flagged = async () => {
      const res = await o.t.call({ method: 'GET', url, token: o.staff.token });
      expect(res.statusCode, res.body).toBe(200);
      return json<{ data: { id: string; number: number; samePhone: number }[] }>(res).data;
    };
    const before = await flagged();
    for (const p of placed) expect(before).toContainEqual(expect.objectContaining({ id: p.id, samePhone: 3 }));
    expect(before.map((f) => f.id)).not.toContain(innocent.id);

    // One click: the status move every staff cancel goes through, with its reason and history.
    const res = await patch(placed[0]!.id, o.staff, { status: 'cancelled', cancelReason: 'Pedido sospechoso' });
    expect(res.statusCode, res.body).toBe(200);
    const after = (await flagged()).map((f) => f.id);
    for (const p of placed) expect(after).not.toContain(p.id);

    // Staff only; another company's admin never learns these orders exist.
    expect((await o.t.call({ method: 'GET', url })).statusCode).toBe(401);
    for (const u of [o.customer, o.driver, o.production]) {
      expect((await o.t.call({ method: 'GET', url, token: u.token })).statusCode).toBe(403);
    }
    expect((await o.t.call({ method: 'GET', url, token: o.otherAdmin.token })).statusCode).toBe(404);
    expect((await o.t.call({ method: 'GET', url, token: o.admin.token })).statusCode).toBe(200);
  });
});

describe("a share of a window's places per network address", () => {
  // A small window: five places, as in the review's report.
  const SMALL = { id: 'cinco', label: 'Noche', start: '20:00', end: '21:00', capacity: 5 };
  beforeAll(async () => {
    await o.t.db
      .update(settings)
      .set({
        data: SettingsInput.parse({ ...ORDER_SETTINGS, deliveryWindows: [...ORDER_SETTINGS.deliveryWindows!, SMALL] }),
      })
      .where(eq(settings.companyId, o.companyId));
  });
  afterAll(async () => {
    await o.t.db
      .update(settings)
      .set({ data: SettingsInput.parse(ORDER_SETTINGS) })
      .where(eq(settings.companyId, o.companyId));
  });

  const shareTaken = (res: { statusCode: number; body: string }) => {
    expect(res.statusCode, res.body).toBe(429);
    expect(json(res)).toMatchObject({ code: 'orders/window-share-taken', details: [{ path: 'window' }] });
  };

  it('lets one address with new sessions and phones take at most half (rounded up) of a small window; a second shopper still books', async () => {
    const ip = '10.77.0.1';
    for (let i = 0; i < 3; i++) {
      const res = await book(guest({ ip }), { dueDate: '2026-11-27', window: 'cinco' });
      expect(res.statusCode, res.body).toBe(201);
    }
    shareTaken(await book(guest({ ip }), { dueDate: '2026-11-27', window: 'cinco' }));
    // The same address still books another window, and the same window on another day.
    expect((await book(guest({ ip }), { dueDate: '2026-11-27', window: 'am' })).statusCode).toBe(201);
    expect((await book(guest({ ip }), { dueDate: '2026-11-28', window: 'cinco' })).statusCode).toBe(201);
    // Two other shoppers take the last two places; then the window is full for everyone.
    for (let i = 0; i < 2; i++) {
      const res = await book(guest(), { dueDate: '2026-11-27', window: 'cinco' });
      expect(res.statusCode, res.body).toBe(201);
    }
    const full = await book(guest(), { dueDate: '2026-11-27', window: 'cinco' });
    expect(full.statusCode, full.body).toBe(422);
    expect(json(full)).toMatchObject({ code: 'orders/window-full' });
  });

  it('holds the share when one address checks out five carts at once, and a cancelled order gives its place back', async () => {
    const ip = '10.77.0.2';
    const guests = Array.from({ length: 5 }, () => guest({ ip }));
    const carts = await Promise.all(guests.map((g) => cartOf(g)));
    const results = await Promise.all(
      guests.map((g, i) => checkoutAs(g, carts[i]!, { dueDate: '2026-12-01', window: 'cinco' })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 201, 201, 429, 429]);
    for (const r of results.filter((r) => r.statusCode === 429)) shareTaken(r);
    // Staff cancel one: the address may book its place again.
    const placed = orderOf(results.find((r) => r.statusCode === 201)!);
    const cancelled = await patch(placed.id, o.staff, { status: 'cancelled', cancelReason: 'Pedido sospechoso' });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect((await book(guest({ ip }), { dueDate: '2026-12-01', window: 'cinco' })).statusCode).toBe(201);
    shareTaken(await book(guest({ ip }), { dueDate: '2026-12-01', window: 'cinco' }));
  });

  it('reads the address as Fastify resolves it: an X-Forwarded-For of no trusted proxy changes nothing', async () => {
    const ip = '10.77.0.4';
    const results = [];
    for (let i = 0; i < 4; i++) {
      const g = guest({ ip });
      const id = await cartOf(g);
      results.push(
        await o.t.call({
          method: 'POST',
          url: `/api/carts/${id}/checkout`,
          remoteAddress: ip,
          headers: { 'x-session-id': g.session, 'idempotency-key': newId(), 'x-forwarded-for': `203.0.113.${i + 1}` },
          payload: checkoutBody({
            contact: { name: 'Ana Pérez', phone: g.phone },
            dueDate: '2026-12-03',
            window: 'cinco',
          }),
        }),
      );
    }
    expect(results.map((r) => r.statusCode)).toEqual([201, 201, 201, 429]);
    shareTaken(results[3]!);
  });

  it("leaves the back office's orders out of an address's share", async () => {
    const ip = '10.77.0.3';
    for (let i = 0; i < 2; i++) {
      const res = await postOrder(o.staff.token, {
        contact: { name: 'Ana Pérez', phone: '300 123 4567' },
        items: [{ productId: o.pan, quantity: 4 }],
        fulfillment: 'pickup',
        dueDate: '2026-12-02',
        window: 'cinco',
        paymentMethod: 'cash',
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    for (let i = 0; i < 3; i++) {
      const res = await book(guest({ ip }), { dueDate: '2026-12-02', window: 'cinco' });
      expect(res.statusCode, res.body).toBe(201);
    }
  });
});

describe('the order total cap (hole 5)', () => {
  let dear: string;
  beforeAll(async () => {
    dear = newId();
    const now = o.t.clock.now();
    await o.t.db.insert(products).values({
      id: dear,
      companyId: o.companyId,
      name: 'Torta de bodas',
      price: MONEY_MAX,
      createdAt: now,
      updatedAt: now,
    });
  });
  const body = (quantity: number) => ({
    contact: { name: 'Ana Pérez', phone: '300 123 4567' },
    items: [{ productId: dear, quantity }],
    fulfillment: 'delivery',
    address: ADDRESS,
    dueDate: WEDNESDAY,
    window: 'am',
    paymentMethod: 'cash',
  });

  it('refuses a staff order over 100,000,000 with a 422 naming total, past 2^31 too', async () => {
    for (const quantity of [2, 30, 1000]) {
      const res = await postOrder(o.staff.token, body(quantity));
      expect(res.statusCode, res.body).toBe(422);
      expect(json(res)).toMatchObject({ code: 'orders/total-too-large', details: [{ path: 'total' }] });
    }
    const atCap = await postOrder(o.staff.token, body(1));
    expect(atCap.statusCode, atCap.body).toBe(201);
    expect(orderOf(atCap).total).toBe(MONEY_MAX);
  });

  it('refuses an edit that takes the total over the cap, and the order stays as it was', async () => {
    const placed = orderOf(await postOrder(o.staff.token, body(1)));
    for (const quantity of [2, 30]) {
      const res = await patch(placed.id, o.staff, { items: [{ productId: dear, quantity }] });
      expect(res.statusCode, res.body).toBe(422);
      expect(json(res)).toMatchObject({ code: 'orders/total-too-large', details: [{ path: 'total' }] });
    }
    const now = orderOf(await get(placed.id, o.staff));
    expect([now.total, now.items[0]!.quantity, now.history.length]).toEqual([MONEY_MAX, 1, placed.history.length]);
  });

  it('refuses a checkout over the cap and keeps the cart open', async () => {
    const g = guest();
    const id = await cartOf(g, {}, [{ productId: dear, quantity: 1000 }]);
    const res = await checkoutAs(g, id);
    expect(res.statusCode, res.body).toBe(422);
    expect(json(res)).toMatchObject({ code: 'orders/total-too-large', details: [{ path: 'total' }] });
    expect((await readCart(g, id)).statusCode).toBe(200);
  });
});

describe('the 62-day booking horizon (hole 5)', () => {
  const beyond = (res: { statusCode: number; body: string }) => {
    expect(res.statusCode, res.body).toBe(422);
    expect(json(res)).toMatchObject({ code: 'orders/beyond-horizon', details: [{ path: 'dueDate' }] });
  };

  it('carts take a due day up to the horizon and refuse one beyond it', async () => {
    const g = guest();
    const id = await cartOf(g, { dueDate: LAST_DAY });
    for (const dueDate of [BEYOND, '2099-06-01', '2099-06-01T05:00:00.000Z']) {
      beyond(
        await o.t.call({
          method: 'POST',
          url: '/api/carts',
          headers: { 'x-session-id': g.session },
          payload: { companyId: o.companyId, items: [{ productId: o.pan, quantity: 4 }], dueDate },
        }),
      );
      beyond(
        await o.t.call({
          method: 'PUT',
          url: `/api/carts/${id}`,
          headers: { 'x-session-id': g.session },
          payload: { items: [{ productId: o.pan, quantity: 4 }], dueDate },
        }),
      );
    }
    const kept = json<{ data: Cart }>(await readCart(g, id)).data;
    expect(kept.dueDate).toBe('2027-01-23T05:00:00.000Z');
  });

  it('checkout refuses a day beyond the horizon and books the last one', async () => {
    const g = guest();
    const id = await cartOf(g);
    beyond(await checkoutAs(g, id, { dueDate: BEYOND }));
    beyond(await checkoutAs(g, id, { dueDate: '2099-06-01' }));
    const last = await checkoutAs(g, id, { dueDate: LAST_DAY });
    expect(last.statusCode, last.body).toBe(201);
  });

  it('staff orders: neither created nor moved beyond the horizon', async () => {
    const order = {
      contact: { name: 'Ana Pérez', phone: '300 123 4567' },
      items: [{ productId: o.pan, quantity: 2 }],
      fulfillment: 'pickup',
      window: 'am',
      paymentMethod: 'cash',
    };
    beyond(await postOrder(o.staff.token, { ...order, dueDate: '2099-06-01' }));
    beyond(await postOrder(o.staff.token, { ...order, dueDate: BEYOND }));
    const placed = await postOrder(o.staff.token, { ...order, dueDate: LAST_DAY });
    expect(placed.statusCode, placed.body).toBe(201);
    beyond(await patch(orderOf(placed).id, o.staff, { dueDate: BEYOND }));
    beyond(await patch(orderOf(placed).id, o.admin, { dueDate: '2099-06-01T05:00:00.000Z' }));
  });

  it('delivery-days offers nothing beyond the horizon', async () => {
    const res = await o.t.call({
      method: 'GET',
      url: `/api/companies/${o.companyId}/delivery-days?from=2027-01-20&days=14`,
    });
    expect(res.statusCode, res.body).toBe(200);
    const days = json<{ data: OfferedDay[] }>(res).data.map((d) => d.date);
    expect(days.at(-1)).toBe(LAST_DAY);
    const far = await o.t.call({ method: 'GET', url: `/api/companies/${o.companyId}/delivery-days?from=2099-06-01` });
    expect(json<{ data: OfferedDay[] }>(far).data).toEqual([]);
  });
});

describe('open carts a holder keeps (hole 5)', () => {
  it('keeps five open carts a session: a sixth replaces the one untouched longest', async () => {
    const g = guest();
    const other = guest();
    const othersCart = await cartOf(other);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      o.t.clock.advance(1000);
      ids.push(await cartOf(g));
    }
    // Touching the oldest makes the second the one untouched longest.
    o.t.clock.advance(1000);
    const put = await o.t.call({
      method: 'PUT',
      url: `/api/carts/${ids[0]}`,
      headers: { 'x-session-id': g.session },
      payload: { items: [{ productId: o.pan, quantity: 5 }] },
    });
    expect(put.statusCode, put.body).toBe(200);
    o.t.clock.advance(1000);
    const sixth = await cartOf(g);
    expect((await readCart(g, ids[1]!)).statusCode).toBe(404);
    for (const id of [ids[0]!, ...ids.slice(2), sixth]) expect((await readCart(g, id)).statusCode).toBe(200);
    expect((await readCart(other, othersCart)).statusCode).toBe(200);
  });

  it('holds five under concurrent creation from one session', async () => {
    const g = guest();
    const made = await Promise.all(
      Array.from({ length: 8 }, () =>
        o.t.call({
          method: 'POST',
          url: '/api/carts',
          headers: { 'x-session-id': g.session },
          payload: { companyId: o.companyId, items: [{ productId: o.pan, quantity: 1 }] },
        }),
      ),
    );
    expect(made.every((r) => r.statusCode === 201)).toBe(true);
    const open = await Promise.all(made.map((r) => readCart(g, json<{ data: Cart }>(r).data.id)));
    expect(open.filter((r) => r.statusCode === 200)).toHaveLength(5);
  });

  it("keeps the domain's bound: the database's trigger closes carts beyond CART_OPEN_PER_HOLDER", async () => {
    const { rows } = await o.t.db.execute<{ args: string }>(
      sql`SELECT encode(tgargs, 'escape') AS args FROM pg_trigger WHERE tgname = 'carts_keep_newest'`,
    );
    expect(rows.map((r) => r.args)).toEqual([`${CART_OPEN_PER_HOLDER}\\000`]);
  });

  it('keeps five open carts a customer', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      o.t.clock.advance(1000);
      const res = await o.t.call({
        method: 'POST',
        url: '/api/carts',
        token: o.otherCustomer.token,
        payload: { companyId: o.companyId, items: [{ productId: o.pan, quantity: 1 }] },
      });
      expect(res.statusCode, res.body).toBe(201);
      ids.push(json<{ data: Cart }>(res).data.id);
    }
    const read = await Promise.all(
      ids.map((id) => o.t.call({ method: 'GET', url: `/api/carts/${id}`, token: o.otherCustomer.token })),
    );
    expect(read.map((r) => r.statusCode)).toEqual([404, 200, 200, 200, 200, 200]);
  });
});

describe('abandoned carts (hole 5)', () => {
  it('are deleted 30 days after they were last touched; a cart touched since stays', async () => {
    const a = guest();
    const b = guest();
    const abandoned = await cartOf(a);
    const kept = await cartOf(b);
    o.t.clock.advance(20 * DAY_MS);
    const put = await o.t.call({
      method: 'PUT',
      url: `/api/carts/${kept}`,
      headers: { 'x-session-id': b.session },
      payload: { items: [{ productId: o.pan, quantity: 6 }] },
    });
    expect(put.statusCode, put.body).toBe(200);
    o.t.clock.advance(11 * DAY_MS);
    // Any cart made runs the cleanup when it is due (at most once an hour of the app's clock).
    await cartOf(guest());
    expect((await readCart(a, abandoned)).statusCode).toBe(404);
    expect((await readCart(b, kept)).statusCode).toBe(200);
  });
});

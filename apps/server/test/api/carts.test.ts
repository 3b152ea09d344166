/**
 * Carts (docs/design.md §3, §4): the holder (X-Session-Id or the cart's customer, anyone else 404), prices
 * from the catalogue only, the line and quantity limits, unavailable products (refused when added,
 * flagged when saved), totals from the settings, and a guest's cart joining the customer's account.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { MAX_BODY_BYTES, SettingsInput, type Cart } from '@hornada/domain';
import { carts, products, settings } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { json, setupTestApp, type TestApp, type TestUser } from '../helpers/app';

let t: TestApp;
let companyId: string;
let otherCompanyId: string;
let admin: TestUser;
let staff: TestUser;
let customer: TestUser;
let otherCustomer: TestUser;
/** Active products of the company: pan 2,500, torta 40,000; and one of the other company. */
let pan: string;
let torta: string;
let foreign: string;

const SESSION = 'AbCdEfGhIjKlMnOpQr12';
const OTHER_SESSION = 'ZyXwVuTsRqPoNmLkJi98';
let serial = 0;
/** A fresh session id, so carts of one test do not meet another's. */
const session = () => `S${String(++serial).padStart(19, '0')}`;

async function product(company: string, fields: Partial<typeof products.$inferInsert> = {}): Promise<string> {
  const id = newId();
  const now = t.clock.now();
  await t.db.insert(products).values({
    id,
    companyId: company,
    name: 'Pan',
    price: 1000,
    createdAt: now,
    updatedAt: now,
    images: [{ path: `products/${id}/main.webp`, alt: 'Foto', width: 960, height: 720, widths: [320] }],
    ...fields,
  });
  return id;
}

/** What a shop needs to take orders (its setup checklist's minimum): a WhatsApp, a window, transfer details. */
const OPEN_SHOP = {
  whatsapp: '+57 300 000 0000',
  deliveryWindows: [{ id: 'am', label: 'Mañana', start: '08:00', end: '12:00' }],
  transferInstructions: 'Nequi 300 000 0000',
};

async function setSettings(fields: Partial<z.input<typeof SettingsInput>>) {
  const data = SettingsInput.parse({ marketName: 'Panadería Uno', ...OPEN_SHOP, ...fields });
  await t.db.update(settings).set({ data }).where(eq(settings.companyId, companyId));
}

type Headers = { session?: string; token?: string };
const headersOf = (h: Headers) => (h.session ? { 'x-session-id': h.session } : {});

const create = (payload: Record<string, unknown>, h: Headers = { session: SESSION }) =>
  t.call({
    method: 'POST',
    url: '/api/carts',
    payload: { companyId, ...payload },
    headers: headersOf(h),
    token: h.token,
  });
const read = (id: string, h: Headers = { session: SESSION }) =>
  t.call({ method: 'GET', url: `/api/carts/${id}`, headers: headersOf(h), token: h.token });
const replace = (id: string, payload: Record<string, unknown>, h: Headers = { session: SESSION }) =>
  t.call({ method: 'PUT', url: `/api/carts/${id}`, payload, headers: headersOf(h), token: h.token });
const claim = (id: string, h: Headers) =>
  t.call({ method: 'POST', url: `/api/carts/${id}/claim`, headers: headersOf(h), token: h.token });
const mine = (token?: string) => t.call({ method: 'GET', url: '/api/carts/mine', token });

const cartOf = (res: { body: string }) => json<{ data: Cart }>(res).data;

async function made(payload: Record<string, unknown>, h: Headers = { session: SESSION }): Promise<Cart> {
  const res = await create(payload, h);
  expect(res.statusCode, res.body).toBe(201);
  return cartOf(res);
}

beforeAll(async () => {
  t = await setupTestApp();
  companyId = await t.company('Panadería Uno');
  otherCompanyId = await t.company('Panadería Dos');
  admin = await t.user('company_admin', companyId);
  staff = await t.user('company_staff', companyId);
  customer = await t.user('company_customer', companyId);
  otherCustomer = await t.user('company_customer', companyId);
  pan = await product(companyId, { name: 'Pan de queso', price: 2500, b2bPrice: 2000 });
  torta = await product(companyId, { name: 'Torta de chocolate', price: 40_000 });
  foreign = await product(otherCompanyId, { name: 'Pan ajeno', price: 100 });
  await setSettings({});
});
afterAll(() => t.close());

describe('create, read and replace', () => {
  it('round-trips a cart, filling names, prices and images from the catalogue', async () => {
    await setSettings({
      deliveryFee: 5000,
      deliveryWindows: [{ id: 'am', label: 'Mañana', start: '08:00', end: '12:00' }],
    });
    const res = await create({
      items: [
        { productId: pan, quantity: 3 },
        { productId: torta, quantity: 1 },
      ],
      contact: { name: 'Ana Gómez', phone: '300 000 0000', email: 'Ana@Correo.co' },
      fulfillment: 'delivery',
      address: { line: 'Calle 1 # 2-3', city: 'Bogotá' },
      dueDate: '2026-11-25',
      window: 'am',
      notes: 'Tocar el timbre',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const cart = cartOf(res);
    expect(cart).toMatchObject({
      companyId,
      customerId: null,
      items: [
        { productId: pan, quantity: 3, name: 'Pan de queso', unitPrice: 2500, lineTotal: 7500, available: true },
        { productId: torta, quantity: 1, name: 'Torta de chocolate', unitPrice: 40_000, lineTotal: 40_000 },
      ],
      contact: { name: 'Ana Gómez', phone: '300 000 0000', email: 'ana@correo.co' },
      address: { line: 'Calle 1 # 2-3', city: 'Bogotá', neighborhood: null },
      // The day starts at 05:00 UTC in Bogotá (docs/design.md §3).
      dueDate: '2026-11-25T05:00:00.000Z',
      window: 'am',
      subtotal: 47_500,
      deliveryFee: 5000,
      total: 52_500,
    });
    expect(cart.items[0]!.image).toMatchObject({ path: `products/${pan}/main.webp`, width: 960 });
    // Never the wholesale price, nor the session id.
    expect(res.body).not.toContain('2000');
    expect(res.body).not.toContain(SESSION);

    const got = await read(cart.id);
    expect(got.statusCode).toBe(200);
    expect(cartOf(got)).toEqual(cart);

    // What was read goes back as it is: read-only fields (totals, prices, names) are ignored.
    const back = { ...cart, items: cart.items.map((l) => ({ ...l, quantity: l.quantity + 1 })), notes: null };
    const put = await replace(cart.id, back);
    expect(put.statusCode, put.body).toBe(200);
    expect(cartOf(put)).toMatchObject({
      items: [{ quantity: 4, lineTotal: 10_000 }, { quantity: 2 }],
      dueDate: '2026-11-25T05:00:00.000Z',
      notes: null,
      subtotal: 90_000,
    });
    expect(cartOf(await read(cart.id))).toEqual(cartOf(put));
  });

  it('refuses unknown fields by name, and a PUT that omits optional fields resets them', async () => {
    const cart = await made({ items: [{ productId: pan, quantity: 1 }], notes: 'x' });
    const res = await replace(cart.id, { items: [{ productId: pan, quantity: 1, colour: 'red' }], size: 2 });
    expect(res.statusCode).toBe(400);
    const paths = json<{ details: { path: string }[] }>(res).details.map((d) => d.path);
    expect(paths).toEqual(expect.arrayContaining(['items.0.colour', 'size']));
    const put = await replace(cart.id, { items: [{ productId: pan, quantity: 2 }] });
    expect(cartOf(put)).toMatchObject({ notes: null, fulfillment: 'delivery', contact: null });
  });

  it('merges a product sent twice, and refuses lines that add up past 1,000', async () => {
    const cart = await made({
      items: [
        { productId: pan, quantity: 2 },
        { productId: torta, quantity: 1 },
        { productId: pan, quantity: 5 },
      ],
    });
    expect(cart.items.map((l) => [l.productId, l.quantity])).toEqual([
      [pan, 7],
      [torta, 1],
    ]);
    const res = await create({
      items: [
        { productId: pan, quantity: 600 },
        { productId: pan, quantity: 401 },
      ],
    });
    expect(res.statusCode).toBe(400);
    expect(json(res)).toMatchObject({ code: 'validation', details: [{ path: 'items.1.quantity' }] });
  });

  it('takes a day as YYYY-MM-DD or as the instant a GET returned, and checks the window', async () => {
    const cart = await made({ items: [{ productId: pan, quantity: 1 }], dueDate: '2026-12-01T05:00:00.000Z' });
    expect(cart.dueDate).toBe('2026-12-01T05:00:00.000Z');
    const bad = await create({ items: [{ productId: pan, quantity: 1 }], window: 'noche' });
    expect(bad.statusCode).toBe(400);
    expect(json(bad)).toMatchObject({ details: [{ path: 'window' }] });
    const badDay = await create({ items: [{ productId: pan, quantity: 1 }], dueDate: '25/11/2026' });
    expect(badDay.statusCode).toBe(400);
  });

  it('answers 404 for a company that does not exist', async () => {
    const res = await t.call({
      method: 'POST',
      url: '/api/carts',
      headers: { 'x-session-id': SESSION },
      payload: { companyId: 'no-such-company', items: [{ productId: pan, quantity: 1 }] },
    });
    expect(res.statusCode).toBe(404);
    expect(json(res)).toMatchObject({ code: 'not_found' });
  });
});

describe('the holder', () => {
  it('is the session that made the cart; no header, another session or a bad header never reach it', async () => {
    const cart = await made({ items: [{ productId: pan, quantity: 1 }] });
    expect((await read(cart.id)).statusCode).toBe(200);
    for (const h of [{}, { session: OTHER_SESSION }, { token: customer.token }, { token: staff.token }]) {
      const res = await read(cart.id, h);
      expect(res.statusCode, JSON.stringify(h)).toBe(404);
      expect(json(res)).toMatchObject({ code: 'not_found', message: 'Cart not found' });
      expect((await replace(cart.id, { items: [{ productId: pan, quantity: 9 }] }, h)).statusCode).toBe(404);
    }
    // The same answer as an id that does not exist: nothing confirms the cart is there.
    expect(json(await read('no-such-cart', { session: OTHER_SESSION }))).toEqual(json(await read(cart.id, {})));
    // Staff and the admin read orders, not carts: a guest's cart stays the guest's.
    expect((await read(cart.id, { token: admin.token })).statusCode).toBe(404);
    expect(cartOf(await read(cart.id)).items[0]!.quantity).toBe(1);
  });

  it('refuses a session id that is not 20 letters or digits (400), and a guest cart without one', async () => {
    for (const bad of ['short', 'AbCdEfGhIjKlMnOpQr1-', 'AbCdEfGhIjKlMnOpQr123']) {
      const res = await create({ items: [{ productId: pan, quantity: 1 }] }, { session: bad });
      expect(res.statusCode, bad).toBe(400);
      expect(json(res)).toMatchObject({ details: [{ path: 'headers.x-session-id' }] });
    }
    const none = await create({ items: [{ productId: pan, quantity: 1 }] }, {});
    expect(none.statusCode).toBe(400);
    expect(json(none)).toMatchObject({ details: [{ path: 'headers.x-session-id' }] });
  });

  it('keeps only a hash of the session id', async () => {
    const s = session();
    const cart = await made({ items: [{ productId: pan, quantity: 1 }] }, { session: s });
    const [row] = await t.db.select().from(carts).where(eq(carts.id, cart.id));
    expect(row!.sessionHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(s);
  });

  it("is the customer for a signed-in customer's cart, by bearer alone", async () => {
    const cart = await made(
      { items: [{ productId: torta, quantity: 1 }] },
      { token: customer.token, session: session() },
    );
    expect(cart.customerId).toBe(customer.uid);
    expect((await read(cart.id, { token: customer.token })).statusCode).toBe(200);
    expect(
      (await replace(cart.id, { items: [{ productId: torta, quantity: 2 }] }, { token: customer.token })).statusCode,
    ).toBe(200);
    expect((await read(cart.id, { token: otherCustomer.token })).statusCode).toBe(404);
    expect((await read(cart.id, { token: staff.token })).statusCode).toBe(404);
  });
});

describe('prices and limits', () => {
  it('never uses prices or totals sent by the client', async () => {
    const res = await create({
      items: [{ productId: pan, quantity: 2, unitPrice: 1, lineTotal: 2, name: 'Gratis', available: true }],
      subtotal: 2,
      total: 2,
      deliveryFee: 0,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(cartOf(res)).toMatchObject({
      items: [{ unitPrice: 2500, lineTotal: 5000, name: 'Pan de queso' }],
      subtotal: 5000,
    });
    expect(cartOf(res).total).toBeGreaterThanOrEqual(5000);
  });

  it('refuses quantities 0, -1, 1.5 and 1,001 (400) and takes 1 and 1,000', async () => {
    for (const quantity of [0, -1, 1.5, 1001, '2']) {
      const res = await create({ items: [{ productId: pan, quantity }] });
      expect(res.statusCode, String(quantity)).toBe(400);
      expect(json(res)).toMatchObject({ code: 'validation', details: [{ path: 'items.0.quantity' }] });
    }
    for (const quantity of [1, 1000])
      expect((await create({ items: [{ productId: pan, quantity }] })).statusCode).toBe(201);
  });

  it('takes 1 to 100 lines: none and 101 are 400', async () => {
    const ids = await Promise.all(
      Array.from({ length: 101 }, (_, i) => product(companyId, { name: `P${i}`, price: 10 })),
    );
    const lines = ids.map((productId) => ({ productId, quantity: 1 }));
    const hundred = await create({ items: lines.slice(0, 100) });
    expect(hundred.statusCode, hundred.body).toBe(201);
    expect(cartOf(hundred)).toMatchObject({ subtotal: 1000 });
    expect(cartOf(hundred).items).toHaveLength(100);
    for (const items of [lines, []]) {
      const res = await create({ items });
      expect(res.statusCode).toBe(400);
      expect(json(res)).toMatchObject({ details: [{ path: 'items' }] });
    }
  });

  it("refuses an unknown product or another company's (400 naming the line)", async () => {
    for (const productId of [foreign, 'no-such-product']) {
      const res = await create({
        items: [
          { productId: pan, quantity: 1 },
          { productId, quantity: 1 },
        ],
      });
      expect(res.statusCode).toBe(400);
      expect(json(res)).toMatchObject({ code: 'validation', details: [{ path: 'items.1.productId' }] });
    }
  });
});

describe('unavailable products', () => {
  it('refuses adding an inactive or deleted product (422 with a message)', async () => {
    const inactive = await product(companyId, { active: false });
    const deleted = await product(companyId, { deletedAt: t.clock.now() });
    for (const productId of [inactive, deleted]) {
      const res = await create({ items: [{ productId, quantity: 1 }] });
      expect(res.statusCode).toBe(422);
      expect(json(res)).toEqual({
        message: 'This product is no longer available: items.0.productId',
        error: 'This product is no longer available: items.0.productId',
        code: 'cart/product-unavailable',
        details: [{ path: 'items.0.productId', message: 'This product is no longer available' }],
      });
    }
    const cart = await made({ items: [{ productId: pan, quantity: 1 }] });
    const res = await replace(cart.id, {
      items: [
        { productId: pan, quantity: 1 },
        { productId: inactive, quantity: 1 },
      ],
    });
    expect(res.statusCode).toBe(422);
    expect(json(res)).toMatchObject({ details: [{ path: 'items.1.productId' }] });
  });

  it('keeps and flags a saved line whose product became inactive, outside the totals', async () => {
    await setSettings({ deliveryFee: 3000 });
    const soon = await product(companyId, { name: 'Roscón', price: 9000 });
    const cart = await made({
      items: [
        { productId: soon, quantity: 2 },
        { productId: pan, quantity: 1 },
      ],
    });
    expect(cart.subtotal).toBe(20_500);
    await t.db.update(products).set({ active: false }).where(eq(products.id, soon));
    const res = await read(cart.id);
    expect(res.statusCode).toBe(200);
    expect(cartOf(res)).toMatchObject({
      items: [
        { productId: soon, quantity: 2, name: 'Roscón', unitPrice: 9000, lineTotal: 0, available: false },
        { productId: pan, available: true, lineTotal: 2500 },
      ],
      subtotal: 2500,
      total: 5500,
    });
    // Sent back as read, the flagged line stays (it is not being added).
    const put = await replace(cart.id, cartOf(res));
    expect(put.statusCode, put.body).toBe(200);
    expect(cartOf(put).items[0]).toMatchObject({ productId: soon, available: false });
    // Deleted since: still kept and flagged.
    await t.db.update(products).set({ deletedAt: t.clock.now() }).where(eq(products.id, soon));
    expect(cartOf(await read(cart.id)).items[0]).toMatchObject({ available: false, name: 'Roscón' });
  });
});

describe('totals from the settings', () => {
  it('charges delivery below the free-delivery amount, not from it, and never for pickup', async () => {
    await setSettings({ deliveryFee: 6000, freeDeliveryFrom: 50_000, minimumOrder: 0 });
    const below = await made({ items: [{ productId: torta, quantity: 1 }] });
    expect(below).toMatchObject({ subtotal: 40_000, deliveryFee: 6000, total: 46_000 });
    const at = await made({ items: [{ productId: pan, quantity: 20 }] });
    expect(at).toMatchObject({ subtotal: 50_000, deliveryFee: 0, total: 50_000 });
    const pickup = await made({ items: [{ productId: torta, quantity: 1 }], fulfillment: 'pickup' });
    expect(pickup).toMatchObject({ fulfillment: 'pickup', deliveryFee: 0, total: 40_000 });
    // A settings change shows at the next read.
    await setSettings({ deliveryFee: 7000 });
    expect(cartOf(await read(at.id))).toMatchObject({ deliveryFee: 7000, total: 57_000 });
  });

  it('refuses pickup when the bakery does not offer it (422)', async () => {
    await setSettings({ pickupEnabled: false });
    const res = await create({ items: [{ productId: pan, quantity: 1 }], fulfillment: 'pickup' });
    expect(res.statusCode).toBe(422);
    expect(json(res)).toMatchObject({ code: 'cart/pickup-unavailable', details: [{ path: 'fulfillment' }] });
  });

  it('says how much is missing for the minimum order', async () => {
    await setSettings({ minimumOrder: 30_000 });
    expect(await made({ items: [{ productId: pan, quantity: 4 }] })).toMatchObject({
      subtotal: 10_000,
      minimumOrder: 30_000,
      missingForMinimum: 20_000,
    });
    expect(await made({ items: [{ productId: torta, quantity: 1 }] })).toMatchObject({ missingForMinimum: 0 });
  });
});

describe("a guest's cart joins the customer's on sign-in", () => {
  it('claims the cart, merges the older open cart (capped at 1,000) and removes it', async () => {
    const buyer = await t.user('company_customer', companyId);
    const older = await made(
      {
        items: [
          { productId: pan, quantity: 900 },
          { productId: torta, quantity: 1 },
        ],
        contact: { name: 'Luis', phone: '310' },
      },
      { token: buyer.token },
    );
    expect(cartOf(await mine(buyer.token)).id).toBe(older.id);

    const s = session();
    const guest = await made({ items: [{ productId: pan, quantity: 200 }] }, { session: s });
    expect((await claim(guest.id, { session: s })).statusCode).toBe(401);
    expect((await claim(guest.id, { session: OTHER_SESSION, token: buyer.token })).statusCode).toBe(404);
    expect((await claim(guest.id, { session: s, token: staff.token })).statusCode).toBe(403);

    const res = await claim(guest.id, { session: s, token: buyer.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(cartOf(res)).toMatchObject({
      id: guest.id,
      customerId: buyer.uid,
      items: [
        { productId: pan, quantity: 1000 },
        { productId: torta, quantity: 1 },
      ],
      contact: { name: 'Luis', phone: '310' },
    });
    expect((await read(older.id, { token: buyer.token })).statusCode).toBe(404);
    expect(cartOf(await mine(buyer.token)).id).toBe(guest.id);
    // Now the customer's: the session alone no longer reads it (a shared device after sign-out).
    expect((await read(guest.id, { session: s })).statusCode).toBe(404);
    expect((await read(guest.id, { token: buyer.token })).statusCode).toBe(200);
    // Claiming again is harmless.
    expect(cartOf(await claim(guest.id, { token: buyer.token })).items).toHaveLength(2);
  });

  it('answers mine with null when there is no open cart, and 401 to a guest', async () => {
    const fresh = await t.user('company_customer', companyId);
    expect(json(await mine(fresh.token))).toEqual({ data: null });
    expect((await mine()).statusCode).toBe(401);
  });
});

describe('bodies, limits and the document', () => {
  it('refuses a deeply nested body (400) and a huge one (413) like every route', async () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100; i++) deep = [deep];
    const nested = await create({ items: [{ productId: pan, quantity: 1 }], notes: deep });
    expect(nested.statusCode).toBe(400);
    expect(json(nested)).toMatchObject({ message: expect.stringContaining('nested too deeply') });
    const huge = await create({ items: [{ productId: pan, quantity: 1 }], notes: 'x'.repeat(MAX_BODY_BYTES) });
    expect(huge.statusCode).toBe(413);
  });

  it('counts writes against the write limit', async () => {
    const limited = await setupTestApp({ env: { RATE_LIMIT_WRITES: '2' } });
    try {
      const c = await limited.company();
      await limited.db
        .update(settings)
        .set({ data: SettingsInput.parse({ marketName: 'Panadería', ...OPEN_SHOP }) })
        .where(eq(settings.companyId, c));
      const p = newId();
      const now = limited.clock.now();
      await limited.db
        .insert(products)
        .values({ id: p, companyId: c, name: 'Pan', price: 10, createdAt: now, updatedAt: now });
      const post = () =>
        limited.call({
          method: 'POST',
          url: '/api/carts',
          headers: { 'x-session-id': SESSION },
          payload: { companyId: c, items: [{ productId: p, quantity: 1 }] },
        });
      expect((await post()).statusCode).toBe(201);
      expect((await post()).statusCode).toBe(201);
      const res = await post();
      expect(res.statusCode).toBe(429);
      expect(res.headers['retry-after']).toBeDefined();
    } finally {
      await limited.close();
    }
  });

  it('puts the cart paths in the OpenAPI document', async () => {
    const doc = json<{ paths: Record<string, Record<string, { tags?: string[] }>> }>(
      await t.call({ method: 'GET', url: '/api/docs/json' }),
    );
    for (const [path, method] of [
      ['/api/carts', 'post'],
      ['/api/carts/mine', 'get'],
      ['/api/carts/{id}', 'get'],
      ['/api/carts/{id}', 'put'],
      ['/api/carts/{id}/claim', 'post'],
    ] as const) {
      expect(doc.paths[path]?.[method]?.tags, `${method} ${path}`).toEqual(['carts']);
    }
  });
});

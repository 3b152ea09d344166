/**
 * Every bakery a shop (docs/design.md §4): a request's host picks the storefront's bakery — the bare
 * PUBLIC_URL host the market, `{slug}.{host}` a bakery made with createBakery, a custom domain of its
 * settings — and carts, guest order links, the config, the sitemap and mail follow it; a host that names
 * no bakery is a 404, and no Host header reaches another bakery's cache.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cart, Order } from '@hornada/domain';
import { companies } from '../../src/db/schema';
import { identityCalls, json, setupTestApp, TestClock, type TestApp, type TestUser } from '../helpers/app';
import { PASSWORD } from '../helpers/identity';
import { waitForMail } from '../helpers/mail';
import { CONTACT, MONDAY_10AM, NO_CHECKOUT_BOUNDS, newSession, WEDNESDAY } from '../helpers/orders';

const MARKET = 'tienda.test';
const CARLOS = 'horno-de-carlos.tienda.test';

let t: TestApp;
let root: TestUser;
let marketId: string;
let marketProduct: string;
let carlos: { companyId: string; token: string };
let carlosProduct: string;

const at = (host: string, opts: Parameters<TestApp['call']>[0]) =>
  t.call({ ...opts, headers: { ...(opts.headers as Record<string, string> | undefined), host } });
const configAt = (host: string) => at(host, { method: 'GET', url: '/api/config' });
const dataOf = <T>(res: { body: string }) => json<{ data: T }>(res).data;

/** A product made through the API by a bakery's admin. */
async function product(companyId: string, token: string, name: string, extra: Record<string, unknown> = {}) {
  const res = await t.call({
    method: 'POST',
    url: `/api/companies/${companyId}/products`,
    token,
    payload: { name, price: 3000, ...extra },
  });
  expect(res.statusCode, res.body).toBe(201);
  return dataOf<{ id: string }>(res).id;
}

/** A guest's cart of four of a product, made at a host. */
const cartAt = async (host: string, companyId: string, productId: string, session = newSession()) => {
  const res = await at(host, {
    method: 'POST',
    url: '/api/carts',
    headers: { 'x-session-id': session },
    payload: { companyId, items: [{ productId, quantity: 4 }] },
  });
  return { res, session, id: res.statusCode === 201 ? dataOf<Cart>(res).id : '' };
};

/** A guest's checkout of a cart at a host: picked up at the bakery, paid in cash. */
const checkoutAt = (host: string, c: { id: string; session: string }, key = `shops-${c.id}`) =>
  at(host, {
    method: 'POST',
    url: `/api/carts/${c.id}/checkout`,
    headers: { 'x-session-id': c.session, 'idempotency-key': key },
    payload: { contact: CONTACT, fulfillment: 'pickup', dueDate: WEDNESDAY, window: 'am', paymentMethod: 'cash' },
  });

/** The settings a shop opens with: contact, days and a window, payment methods with transfer instructions. */
const OPEN_SETTINGS = {
  timeZone: 'America/Bogota',
  whatsapp: '+57 300 555 0101',
  deliveryDays: [1, 2, 3, 4, 5, 6],
  deliveryWindows: [{ id: 'am', label: 'Franja de la mañana', start: '07:00', end: '10:00', capacity: null }],
  orderLeadHours: 12,
  paymentMethods: ['cash', 'transfer'],
  transferInstructions: 'Nequi 300 555 0101',
};

beforeAll(async () => {
  t = await setupTestApp({
    clock: new TestClock(new Date(MONDAY_10AM)),
    env: {
      PUBLIC_URL: `http://${MARKET}`,
      RATE_LIMIT_WRITES: '0',
      RATE_LIMIT_SIGNIN_ADDRESS: '100000',
      RATE_LIMIT_REGISTER_ADDRESS: '100000',
      ...NO_CHECKOUT_BOUNDS,
    },
  });
  root = await t.user('system_admin', null);
  // The first company is the market (no MARKET_COMPANY_ID, no demo).
  marketId = await t.company('Panadería del Mercado');
  const marketAdmin = await t.user('company_admin', marketId);
  await t.call({
    method: 'PATCH',
    url: `/api/companies/${marketId}/settings`,
    token: marketAdmin.token,
    payload: OPEN_SETTINGS,
  });
  marketProduct = await product(marketId, marketAdmin.token, 'Pan del mercado');
  carlos = await identityCalls(t, PASSWORD).bakery('carlos@horno.co', { name: 'Horno de Carlos' });
  carlosProduct = await product(carlos.companyId, carlos.token, 'Pan de Carlos');
});
afterAll(async () => {
  await t?.close();
});

describe('slugs', () => {
  it('makes a unique, safe host label from the bakery name', async () => {
    const calls = identityCalls(t, PASSWORD);
    const slugOf = async (email: string, name: string) => {
      const { companyId } = await calls.bakery(email, { name });
      const res = await t.call({ method: 'GET', url: `/api/companies/${companyId}/setup`, token: root.token });
      expect(res.statusCode, res.body).toBe(200);
      return new URL(dataOf<{ shopUrl: string }>(res).shopUrl).hostname.replace(`.${MARKET}`, '');
    };
    expect(await slugOf('carlos2@horno.co', 'Horno de Carlos')).toBe('horno-de-carlos-2');
    expect(await slugOf('www@horno.co', 'WWW')).toBe('www-panaderia');
    expect(await slugOf('api@horno.co', ' API ')).toBe('api-panaderia');
    expect(await slugOf('nandu@horno.co', 'Panadería Ñandú & Cía.')).toBe('panaderia-nandu-cia');
    expect(await slugOf('pan@horno.co', 'パン屋')).toBe('panaderia');
    expect(await slugOf('xn@horno.co', 'xn--80ak6aa92e')).toBe('xn-80ak6aa92e');
  });
});

describe('the host picks the shop', () => {
  it('answers the market on the bare host and the bakery on its slug, with its own origin', async () => {
    expect(dataOf(await configAt(MARKET))).toMatchObject({
      companyId: marketId,
      marketName: 'Panadería del Mercado',
      publicUrl: `http://${MARKET}`,
    });
    // Case and a port (a proxy's, a developer's) do not change the shop; the origin is never the header's.
    for (const host of [CARLOS, 'HORNO-DE-CARLOS.Tienda.Test:8080', `${CARLOS}.`]) {
      expect(dataOf(await configAt(host)), host).toMatchObject({
        companyId: carlos.companyId,
        marketName: 'Horno de Carlos',
        publicUrl: `http://${CARLOS}`,
      });
    }
  });

  it('is a Spanish 404 for a host that names no bakery', async () => {
    for (const host of [
      `nadie.${MARKET}`,
      `www.${MARKET}`,
      `xn--horno.${MARKET}`,
      `a.${CARLOS}`,
      'evil.example',
      'tienda.test.evil.example',
      'bad host',
    ]) {
      const res = await configAt(host);
      expect(res.statusCode, host).toBe(404);
      expect(json(res), host).toMatchObject({ code: 'shops/unknown-host' });
      const sitemap = await at(host, { method: 'GET', url: '/sitemap.xml' });
      expect(sitemap.statusCode, host).toBe(404);
    }
  });

  it('answers a custom domain of the settings, which another shop cannot take', async () => {
    const patch = (companyId: string, token: string, domains: string[]) =>
      t.call({ method: 'PATCH', url: `/api/companies/${companyId}/settings`, token, payload: { domains } });
    expect((await configAt('pan.carlos.co')).statusCode).toBe(404);
    const ok = await patch(carlos.companyId, carlos.token, ['Pan.Carlos.CO.']);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(dataOf(ok)).toMatchObject({ domains: ['pan.carlos.co'] });
    expect(dataOf(await configAt('pan.carlos.co'))).toMatchObject({
      companyId: carlos.companyId,
      publicUrl: 'http://pan.carlos.co',
    });
    const other = await identityCalls(t, PASSWORD).bakery('ladron@horno.co', { name: 'Otro Horno' });
    for (const domain of ['pan.carlos.co', MARKET, `horno-de-carlos.${MARKET}`]) {
      const taken = await patch(other.companyId, other.token, [domain]);
      expect(taken.statusCode, domain).toBe(409);
      expect(json(taken)).toMatchObject({ code: 'shops/domain-taken' });
    }
    const bad = await patch(other.companyId, other.token, ['https://pan.co/tienda']);
    expect(bad.statusCode).toBe(400);
    // Removed from the settings, the domain names no bakery again.
    expect((await patch(carlos.companyId, carlos.token, [])).statusCode).toBe(200);
    expect((await configAt('pan.carlos.co')).statusCode).toBe(404);
  });

  it('lists the host bakery on its own origin in the sitemap and robots.txt', async () => {
    const sitemap = (await at(CARLOS, { method: 'GET', url: '/sitemap.xml' })).body;
    expect(sitemap).toContain(`<loc>http://${CARLOS}/products/show/${carlosProduct}</loc>`);
    expect(sitemap).not.toContain(marketProduct);
    const market = (await at(MARKET, { method: 'GET', url: '/sitemap.xml' })).body;
    expect(market).toContain(`<loc>http://${MARKET}/products/show/${marketProduct}</loc>`);
    expect(market).not.toContain(carlosProduct);
    expect((await at(CARLOS, { method: 'GET', url: '/robots.txt' })).body).toContain(
      `Sitemap: http://${CARLOS}/sitemap.xml`,
    );
  });
});

describe('tenancy by host', () => {
  it("keeps a bakery's cart and guest order at its own host", async () => {
    await t.call({
      method: 'PATCH',
      url: `/api/companies/${carlos.companyId}/settings`,
      token: carlos.token,
      payload: OPEN_SETTINGS,
    });
    // A cart of another bakery cannot be made at this host, whatever companyId the body names.
    const foreign = await cartAt(CARLOS, marketId, marketProduct);
    expect(foreign.res.statusCode).toBe(404);
    const c = await cartAt(CARLOS, carlos.companyId, carlosProduct);
    expect(c.res.statusCode, c.res.body).toBe(201);
    const read = (host: string) =>
      at(host, { method: 'GET', url: `/api/carts/${c.id}`, headers: { 'x-session-id': c.session } });
    expect((await read(CARLOS)).statusCode).toBe(200);
    // The same holder at the market's host: not found (nor at a host of no bakery).
    expect((await read(MARKET)).statusCode).toBe(404);
    expect((await read(`nadie.${MARKET}`)).statusCode).toBe(404);
    const put = await at(MARKET, {
      method: 'PUT',
      url: `/api/carts/${c.id}`,
      headers: { 'x-session-id': c.session },
      payload: { items: [{ productId: carlosProduct, quantity: 9 }] },
    });
    expect(put.statusCode).toBe(404);

    const checkout = (host: string) => checkoutAt(host, c);
    expect((await checkout(MARKET)).statusCode).toBe(404);
    const placed = await checkout(CARLOS);
    expect(placed.statusCode, placed.body).toBe(201);
    const order = dataOf<Order & { accessToken: string }>(placed);
    expect(order.companyId).toBe(carlos.companyId);
    const link = (host: string) => at(host, { method: 'GET', url: `/api/orders/link/${order.accessToken}` });
    expect((await link(CARLOS)).statusCode).toBe(200);
    expect((await link(MARKET)).statusCode).toBe(404);
    // The market's carts are the market's alone, at its own host.
    const m = await cartAt(MARKET, marketId, marketProduct);
    expect(m.res.statusCode, m.res.body).toBe(201);
    expect(
      (await at(CARLOS, { method: 'GET', url: `/api/carts/${m.id}`, headers: { 'x-session-id': m.session } }))
        .statusCode,
    ).toBe(404);
  });

  it("brings a shopper paying online back to the bakery's own shop, also on a new attempt", async () => {
    const settings = await t.call({
      method: 'PATCH',
      url: `/api/companies/${carlos.companyId}/settings`,
      token: carlos.token,
      payload: { paymentMethods: ['cash', 'transfer', 'online'] },
    });
    expect(settings.statusCode, settings.body).toBe(200);
    const c = await cartAt(CARLOS, carlos.companyId, carlosProduct);
    const placed = await at(CARLOS, {
      method: 'POST',
      url: `/api/carts/${c.id}/checkout`,
      headers: { 'x-session-id': c.session, 'idempotency-key': `online-${c.id}` },
      payload: { contact: CONTACT, fulfillment: 'pickup', dueDate: WEDNESDAY, window: 'am', paymentMethod: 'online' },
    });
    expect(placed.statusCode, placed.body).toBe(201);
    const order = dataOf<{ accessToken: string; payment: { checkoutUrl: string } }>(placed);
    const back = `http://${CARLOS}/respuesta-de-pago?pedido=${encodeURIComponent(order.accessToken)}`;
    expect(new URL(order.payment.checkoutUrl).searchParams.get('redirect-url')).toBe(back);
    const again = await at(CARLOS, { method: 'POST', url: `/api/orders/link/${order.accessToken}/payment` });
    expect(again.statusCode, again.body).toBe(201);
    expect(new URL(dataOf<{ checkoutUrl: string }>(again).checkoutUrl).searchParams.get('redirect-url')).toBe(back);
  });

  it("never serves one bakery's public cache to another, whatever the Host header says", async () => {
    const list = (host: string, companyId: string) =>
      at(host, { method: 'GET', url: `/api/companies/${companyId}/products` });
    // Warm the cache through a forged host first: the entry is keyed by the path's bakery, not the header.
    const forged = await list('horno-de-carlos.tienda.test', marketId);
    const names = (res: { body: string }) => json<{ data: { name: string }[] }>(res).data.map((p) => p.name);
    expect(names(forged)).toEqual(['Pan del mercado']);
    expect(names(await list(MARKET, marketId))).toEqual(['Pan del mercado']);
    expect(names(await list(CARLOS, carlos.companyId))).toEqual(['Pan de Carlos']);
    // A config read through a bakery's host leaves the market's config the market's.
    await configAt(CARLOS);
    await configAt('evil.example');
    expect(dataOf(await configAt(MARKET))).toMatchObject({ companyId: marketId, publicUrl: `http://${MARKET}` });
    // The sitemap, computed from the cache after the forged read, still names only the market's URLs.
    const sitemap = (await at(MARKET, { method: 'GET', url: '/sitemap.xml' })).body;
    expect(sitemap).not.toContain(CARLOS);
    expect(sitemap).not.toContain('evil.example');
  });
});

describe('setup checklist', () => {
  it('keeps a new shop "opening" until its minimum is met, for its owner only', async () => {
    const calls = identityCalls(t, PASSWORD);
    const owner = await calls.bakery('lucia@horno.co', { name: 'Hornito de Lucía', phone: null });
    const host = `hornito-de-lucia.${MARKET}`;
    const setup = () => t.call({ method: 'GET', url: `/api/companies/${owner.companyId}/setup`, token: owner.token });
    let res = await setup();
    expect(res.statusCode, res.body).toBe(200);
    expect(dataOf(res)).toEqual({
      items: [
        { id: 'logoAndContact', done: false, required: false },
        { id: 'delivery', done: false, required: true },
        { id: 'product', done: false, required: false },
        { id: 'payments', done: false, required: true },
      ],
      ready: false,
      shopUrl: `http://${host}/`,
    });
    expect(dataOf(await configAt(host))).toMatchObject({ opening: true, marketName: 'Hornito de Lucía' });
    // Another bakery's admin and the owner's own staff do not read it.
    expect(
      (await t.call({ method: 'GET', url: `/api/companies/${owner.companyId}/setup`, token: carlos.token })).statusCode,
    ).toBe(404);
    const staff = await t.user('company_staff', owner.companyId);
    expect(
      (await t.call({ method: 'GET', url: `/api/companies/${owner.companyId}/setup`, token: staff.token })).statusCode,
    ).toBe(403);

    const patched = await t.call({
      method: 'PATCH',
      url: `/api/companies/${owner.companyId}/settings`,
      token: owner.token,
      payload: OPEN_SETTINGS,
    });
    expect(patched.statusCode, patched.body).toBe(200);
    // Days, windows, payments and a WhatsApp, but no product yet: still opening.
    expect(dataOf(await configAt(host))).toMatchObject({ opening: true });
    await product(owner.companyId, owner.token, 'Pan de yuca');
    res = await setup();
    expect(dataOf(res)).toMatchObject({ ready: true });
    expect(dataOf(await configAt(host))).toMatchObject({ opening: false });
  });
});

describe('a shop that says "Abrimos pronto"', () => {
  it('refuses its carts and checkout until the minimum is met, while staff still enter orders', async () => {
    const owner = await identityCalls(t, PASSWORD).bakery('rosa@horno.co', { name: 'Horno de Rosa', phone: null });
    const host = `horno-de-rosa.${MARKET}`;
    const pan = await product(owner.companyId, owner.token, 'Pan de Rosa');
    const settings = (payload: Record<string, unknown>) =>
      t.call({ method: 'PATCH', url: `/api/companies/${owner.companyId}/settings`, token: owner.token, payload });
    const refused = (res: { statusCode: number; body: string }) => {
      expect(res.statusCode, res.body).toBe(422);
      expect(json(res)).toMatchObject({ code: 'shops/opening' });
    };
    expect(dataOf(await configAt(host))).toMatchObject({ opening: true });
    refused((await cartAt(host, owner.companyId, pan)).res);

    // Open: a guest fills a cart. Its WhatsApp removed, the shop says "Abrimos pronto" again: the cart can
    // be neither changed nor checked out, though it can still be read.
    expect((await settings(OPEN_SETTINGS)).statusCode).toBe(200);
    const c = await cartAt(host, owner.companyId, pan);
    expect(c.res.statusCode, c.res.body).toBe(201);
    expect((await settings({ whatsapp: null })).statusCode).toBe(200);
    expect(dataOf(await configAt(host))).toMatchObject({ opening: true });
    refused(
      await at(host, {
        method: 'PUT',
        url: `/api/carts/${c.id}`,
        headers: { 'x-session-id': c.session },
        payload: { items: [{ productId: pan, quantity: 6 }] },
      }),
    );
    refused(await checkoutAt(host, c));
    expect(
      (await at(host, { method: 'GET', url: `/api/carts/${c.id}`, headers: { 'x-session-id': c.session } })).statusCode,
    ).toBe(200);

    // The bakery's own staff take a phoned order in the back office all the same.
    const staffOrder = await t.call({
      method: 'POST',
      url: `/api/companies/${owner.companyId}/orders`,
      token: owner.token,
      payload: {
        contact: CONTACT,
        items: [{ productId: pan, quantity: 2 }],
        fulfillment: 'pickup',
        dueDate: WEDNESDAY,
        window: 'am',
        paymentMethod: 'cash',
      },
    });
    expect(staffOrder.statusCode, staffOrder.body).toBe(201);

    // Open again: the same cart is checked out.
    expect((await settings({ whatsapp: '+57 300 555 0102' })).statusCode).toBe(200);
    const placed = await checkoutAt(host, c);
    expect(placed.statusCode, placed.body).toBe(201);
  });
});

describe('the host behind a proxy', () => {
  it('ignores X-Forwarded-Host without TRUST_PROXY: the Host header alone picks the shop', async () => {
    const forged = await at(MARKET, {
      method: 'GET',
      url: '/api/config',
      headers: { 'x-forwarded-host': CARLOS },
    });
    expect(dataOf(forged)).toMatchObject({ companyId: marketId, publicUrl: `http://${MARKET}` });
    const back = await at(CARLOS, { method: 'GET', url: '/api/config', headers: { 'x-forwarded-host': MARKET } });
    expect(dataOf(back)).toMatchObject({ companyId: carlos.companyId, publicUrl: `http://${CARLOS}` });
  });

  it("believes a trusted proxy's X-Forwarded-Host, never a direct client's", async () => {
    // A second deployment behind a proxy at 10.0.0.2: a market and a bakery of slug "horno-proxy".
    const p = await setupTestApp({ env: { PUBLIC_URL: `http://${MARKET}`, TRUST_PROXY: '10.0.0.2' } });
    try {
      const market = await p.company('Mercado del Proxy');
      const bakery = await p.company('Horno del Proxy');
      await p.db.update(companies).set({ slug: 'horno-proxy' }).where(eq(companies.id, bakery));
      const shopHost = `horno-proxy.${MARKET}`;
      const config = async (remoteAddress: string, host: string, forwarded?: string) => {
        const res = await p.call({
          method: 'GET',
          url: '/api/config',
          remoteAddress,
          headers: { host, ...(forwarded ? { 'x-forwarded-host': forwarded } : {}) },
        });
        return { status: res.statusCode, ...(res.statusCode === 200 ? dataOf<{ companyId: string }>(res) : {}) };
      };
      // Through the proxy: the host the shopper asked for, whatever the proxy's own Host to the app.
      expect(await config('10.0.0.2', 'app1:3000', shopHost)).toMatchObject({
        companyId: bakery,
        publicUrl: `http://${shopHost}`,
      });
      expect(await config('10.0.0.2', 'app1:3000', `nadie.${MARKET}`)).toMatchObject({ status: 404 });
      expect(await config('10.0.0.2', shopHost)).toMatchObject({ companyId: bakery });
      // A client reaching the app directly cannot switch the shop with the header, nor leave an answer
      // behind for the host it named: the next requests still get their own shops.
      expect(await config('203.0.113.7', MARKET, shopHost)).toMatchObject({ companyId: market });
      expect(await config('203.0.113.7', shopHost, MARKET)).toMatchObject({ companyId: bakery });
      expect(await config('203.0.113.7', MARKET, `nadie.${MARKET}`)).toMatchObject({ companyId: market });
      expect(await config('10.0.0.2', 'app1:3000', MARKET)).toMatchObject({ companyId: market });
      expect(await config('10.0.0.2', 'app1:3000', shopHost)).toMatchObject({ companyId: bakery });
      const sitemap = await p.call({
        method: 'GET',
        url: '/sitemap.xml',
        remoteAddress: '203.0.113.7',
        headers: { host: MARKET, 'x-forwarded-host': shopHost },
      });
      expect(sitemap.body).toContain(`http://${MARKET}/`);
      expect(sitemap.body).not.toContain(shopHost);
    } finally {
      await p.close();
    }
  });
});

describe("the back office's shop", () => {
  it("names the user's own bakery and its shop, whatever host it is asked on", async () => {
    const shopOf = (companyId: string, token?: string, host = MARKET) =>
      at(host, { method: 'GET', url: `/api/companies/${companyId}/shop`, ...(token ? { token } : {}) });
    const own = await shopOf(carlos.companyId, carlos.token);
    expect(own.statusCode, own.body).toBe(200);
    expect(dataOf(own)).toEqual({ name: 'Horno de Carlos', url: `http://${CARLOS}/`, logo: null });
    const staff = await t.user('company_staff', carlos.companyId);
    expect(dataOf(await shopOf(carlos.companyId, staff.token, 'localhost'))).toEqual(dataOf(own));
    // The market's own shop is the bare host; a system admin reads any.
    expect(dataOf(await shopOf(marketId, root.token))).toEqual({
      name: 'Panadería del Mercado',
      url: `http://${MARKET}/`,
      logo: null,
    });
    expect((await shopOf(carlos.companyId)).statusCode).toBe(401);
    expect((await shopOf(marketId, carlos.token)).statusCode).toBe(404);
  });

  it("carries the logo saved in the settings, to the office's header and the shop's config", async () => {
    const logo = { path: `${carlos.companyId}/logo-carlos.webp`, alt: 'Un horno' };
    const saved = await t.call({
      method: 'PATCH',
      url: `/api/companies/${carlos.companyId}/settings`,
      token: carlos.token,
      payload: { logo },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    try {
      const shop = await at(MARKET, {
        method: 'GET',
        url: `/api/companies/${carlos.companyId}/shop`,
        token: carlos.token,
      });
      expect(dataOf(shop)).toMatchObject({ name: 'Horno de Carlos', logo: { path: logo.path } });
      expect(dataOf(await configAt(CARLOS))).toMatchObject({ companyId: carlos.companyId, logo: { path: logo.path } });
      // The market's shop keeps its own (none).
      expect(dataOf(await configAt(MARKET))).toMatchObject({ companyId: marketId, logo: null });
    } finally {
      await t.call({
        method: 'PATCH',
        url: `/api/companies/${carlos.companyId}/settings`,
        token: carlos.token,
        payload: { logo: null },
      });
    }
  });
});

describe('mail', () => {
  it("signs a bakery's mail with its name and links a shopper to its shop", async () => {
    const res = await t.call({
      method: 'POST',
      url: `/api/companies/${carlos.companyId}/users`,
      token: carlos.token,
      payload: { email: 'clienta@carlos.co', name: 'Clienta', role: 'company_customer', invite: true },
    });
    expect(res.statusCode, res.body).toBe(201);
    const mail = await waitForMail(t, root.token, 'clienta@carlos.co', /./);
    expect(mail.subject + mail.text).toContain('Horno de Carlos');
    expect(mail.text).toContain(`http://${CARLOS}/restablecer-contrasena?token=`);
  });
});

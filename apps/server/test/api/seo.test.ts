/**
 * /sitemap.xml and /robots.txt: the sitemap lists the home page, the active collections and products and
 * the privacy page as absolute URLs on PUBLIC_URL (an inactive row never appears, and one taken off leaves
 * at once), robots.txt keeps crawlers out of the private areas and names the sitemap; both revalidate.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, setupTestApp, type TestApp, type TestUser } from '../helpers/app';

const ORIGIN = 'https://pan.example.co';
let t: TestApp;
let companyId: string;
let admin: TestUser;

beforeAll(async () => {
  t = await setupTestApp({ env: { PUBLIC_URL: `${ORIGIN}/` } });
  companyId = await t.company('Panadería del mapa');
  admin = await t.user('company_admin', companyId);
});
afterAll(async () => {
  await t?.close();
});

async function create(resource: string, payload: Record<string, unknown>): Promise<string> {
  const res = await t.call({
    method: 'POST',
    url: `/api/companies/${companyId}/${resource}`,
    token: admin.token,
    payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  return json<{ data: { id: string } }>(res).data.id;
}

const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]);

describe('GET /sitemap.xml', () => {
  it('lists home, active collections and products, and privacy, on PUBLIC_URL', async () => {
    const panes = await create('productCollections', { name: 'Panes' });
    const hidden = await create('productCollections', { name: 'Temporada', active: false });
    const pan = await create('products', { name: 'Pan & mantequilla', price: 4500, collectionId: panes });
    const natilla = await create('products', { name: 'Natilla', price: 9000, active: false });

    const res = await t.call({ method: 'GET', url: '/sitemap.xml' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/xml/);
    expect(res.headers['cache-control']).toMatch(/no-cache/);
    expect(res.body).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>/);
    expect(res.body).toContain('xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"');
    expect(locs(res.body)).toEqual([
      `${ORIGIN}/`,
      `${ORIGIN}/productos/${panes}`,
      `${ORIGIN}/products/show/${pan}`,
      `${ORIGIN}/privacy`,
    ]);
    expect(res.body).not.toContain(hidden);
    expect(res.body).not.toContain(natilla);
    expect(res.body).toMatch(/<lastmod>\d{4}-\d{2}-\d{2}<\/lastmod>/);

    // 304 while nothing changed; a product taken off leaves the sitemap at once (the public cache).
    const etag = String(res.headers.etag);
    const same = await t.call({ method: 'GET', url: '/sitemap.xml', headers: { 'if-none-match': etag } });
    expect(same.statusCode).toBe(304);
    const off = await t.call({
      method: 'PATCH',
      url: `/api/companies/${companyId}/products/${pan}`,
      token: admin.token,
      payload: { active: false },
    });
    expect(off.statusCode).toBe(200);
    const after = await t.call({ method: 'GET', url: '/sitemap.xml', headers: { 'if-none-match': etag } });
    expect(after.statusCode).toBe(200);
    expect(after.body).not.toContain(pan);
  });
});

describe('GET /robots.txt', () => {
  it('allows the storefront, keeps crawlers out of the private areas and the API, names the sitemap', async () => {
    const res = await t.call({ method: 'GET', url: '/robots.txt' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const lines = res.body.split('\n');
    expect(lines).toContain('User-agent: *');
    expect(lines).toContain('Allow: /');
    for (const p of ['/dashboard', '/driver', '/production', '/customer', '/api', '/carrito', '/resumen-de-pedido']) {
      expect(lines).toContain(`Disallow: ${p}`);
    }
    expect(lines).toContain(`Sitemap: ${ORIGIN}/sitemap.xml`);
    const again = await t.call({
      method: 'GET',
      url: '/robots.txt',
      headers: { 'if-none-match': String(res.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it('gives the public config the PUBLIC_URL origin', async () => {
    const res = await t.call({ method: 'GET', url: '/api/config' });
    expect(json<{ data: { publicUrl: string } }>(res).data.publicUrl).toBe(ORIGIN);
  });
});

import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures';
import { formatMoney } from '@hornada/domain/format';
import { expectNoSeriousAxeViolations, marketCompanyId } from './support/session';

/**
 * What a crawler and a link preview read (issue "Storefront and cart"): each page's head in the HTML the
 * server sends (no JavaScript), the product's JSON-LD, the sitemap and robots.txt; compression and the
 * assets' caching; axe on the public pages.
 */

interface Product {
  id: string;
  name: string;
  price: number;
  collectionId: string | null;
}
interface Collection {
  id: string;
  name: string;
}

/** Text as React writes it into HTML. */
const html = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;');
const unescapeAttr = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The content of `<meta property|name="key" content="…">` in raw HTML. */
function meta(doc: string, key: string): string | undefined {
  const m = new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)"`).exec(doc);
  return m ? unescapeAttr(m[1]!) : undefined;
}

async function catalogue(request: APIRequestContext) {
  const base = `/api/companies/${await marketCompanyId(request)}`;
  const get = async <T>(url: string) => ((await (await request.get(url)).json()) as { data: T[] }).data;
  return {
    collections: await get<Collection>(`${base}/productCollections?sort=sortOrder&per_page=500`),
    products: await get<Product>(`${base}/products?sort=sortOrder&per_page=500`),
  };
}

test.describe('what crawlers and link previews read', () => {
  test('a product page carries its name, price, Open Graph tags and schema.org Product without JavaScript', async ({
    request,
    baseURL,
  }) => {
    const { products } = await catalogue(request);
    const product = products[0]!;
    const path = `/products/show/${product.id}`;
    const res = await request.get(path);
    expect(res.status()).toBe(200);
    const doc = await res.text();
    expect(doc).toContain(`<h1 class="text-2xl font-bold sm:text-3xl">${html(product.name)}</h1>`);
    expect(doc).toContain(formatMoney(product.price));
    expect(meta(doc, 'og:title')).toContain(product.name);
    expect(meta(doc, 'og:type')).toBe('product');
    expect(meta(doc, 'og:url')).toBe(`${baseURL}${path}`);
    expect(doc).toContain(`<link rel="canonical" href="${baseURL}${path}"/>`);
    expect(meta(doc, 'description')).toContain(formatMoney(product.price));
    expect(meta(doc, 'product:price:amount')).toBe(String(product.price));
    expect(meta(doc, 'product:price:currency')).toBe('COP');
    expect(meta(doc, 'twitter:card')).toBe('summary_large_image');
    expect(meta(doc, 'robots')).toBeUndefined();

    // An absolute image on PUBLIC_URL (the e2e server's origin), with its size, that really answers.
    const image = meta(doc, 'og:image')!;
    expect(image.startsWith(`${baseURL}/files/`), image).toBe(true);
    expect(Number(meta(doc, 'og:image:width'))).toBeGreaterThan(0);
    expect(Number(meta(doc, 'og:image:height'))).toBeGreaterThan(0);
    expect(meta(doc, 'og:image:alt')).toBeTruthy();
    const picture = await request.get(image);
    expect(picture.status()).toBe(200);
    expect(picture.headers()['content-type']).toMatch(/^image\//);

    // All in <head> (React hoists what the page renders), and the JSON-LD a data block in the page.
    const head = doc.slice(0, doc.indexOf('</head>'));
    for (const tag of ['<title>', 'property="og:image"', 'rel="canonical"', 'name="description"']) {
      expect(head, tag).toContain(tag);
    }
    const blocks = [...doc.matchAll(/<script type="application\/ld\+json">([^<]*)<\/script>/g)];
    expect(blocks).toHaveLength(1);
    const ld = JSON.parse(blocks[0]![1]!) as {
      '@context': string;
      '@type': string;
      name: string;
      image: string[];
      offers: { '@type': string; price: number; priceCurrency: string; availability: string; url: string };
    };
    expect(ld['@context']).toBe('https://schema.org');
    expect(ld['@type']).toBe('Product');
    expect(ld.name).toBe(product.name);
    expect(ld.image).toEqual([image]);
    expect(ld.offers).toMatchObject({
      '@type': 'Offer',
      price: product.price,
      priceCurrency: 'COP',
      availability: 'https://schema.org/InStock',
      url: `${baseURL}${path}`,
    });
  });

  test('the home page holds every collection and the first products, with its own head', async ({
    request,
    baseURL,
  }) => {
    const { collections, products } = await catalogue(request);
    const doc = await (await request.get('/')).text();
    for (const c of collections) expect(doc, c.name).toContain(html(c.name));
    // The first products of each collection, as the page orders them.
    for (const c of collections) {
      for (const p of products.filter((x) => x.collectionId === c.id).slice(0, 2)) {
        expect(doc, p.name).toContain(`>${html(p.name)}</a>`);
      }
    }
    expect(meta(doc, 'og:type')).toBe('website');
    expect(meta(doc, 'og:url')).toBe(`${baseURL}/`);
    expect(meta(doc, 'og:locale')).toBe('es_CO');
    expect(meta(doc, 'og:site_name')).toBe('Panadería La Espiga');
    expect(meta(doc, 'og:image')?.startsWith(`${baseURL}/files/`)).toBe(true);
    expect(meta(doc, 'description')).toBeTruthy();
  });

  test('pages that are no search result say noindex', async ({ request }) => {
    for (const path of ['/carrito', '/resumen-de-pedido/abc', '/respuesta-de-pago', '/login', '/dashboard']) {
      expect(meta(await (await request.get(path)).text(), 'robots'), path).toBe('noindex');
    }
    for (const path of ['/', '/privacy']) {
      expect(meta(await (await request.get(path)).text(), 'robots'), path).toBeUndefined();
    }
  });

  test('the sitemap lists home, every active collection and product, and privacy; each URL opens', async ({
    request,
    baseURL,
  }) => {
    const { collections, products } = await catalogue(request);
    const res = await request.get('/sitemap.xml');
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toContain('application/xml');
    const locs = [...(await res.text()).matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]!);
    expect(locs).toEqual([
      `${baseURL}/`,
      ...collections.map((c) => `${baseURL}/productos/${c.id}`),
      ...products.map((p) => `${baseURL}/products/show/${p.id}`),
      `${baseURL}/privacy`,
    ]);
    // The paths the server spells are the web app's: every one is a page, and its canonical URL is itself.
    for (const loc of locs) {
      const page = await request.get(loc);
      expect(page.status(), loc).toBe(200);
      expect(await page.text(), loc).toContain(`<link rel="canonical" href="${loc}"/>`);
    }
  });

  test('robots.txt keeps crawlers out of the private areas and names the sitemap', async ({ request, baseURL }) => {
    const res = await request.get('/robots.txt');
    expect(res.status()).toBe(200);
    const lines = (await res.text()).split('\n');
    expect(lines).toContain('Allow: /');
    for (const p of ['/dashboard', '/driver', '/production', '/customer', '/api', '/carrito', '/resumen-de-pedido']) {
      expect(lines).toContain(`Disallow: ${p}`);
    }
    expect(lines).toContain(`Sitemap: ${baseURL}/sitemap.xml`);
  });

  test('pages and scripts come compressed; hashed assets cache for a year, pages revalidate', async ({ request }) => {
    const home = await request.get('/', { headers: { 'accept-encoding': 'br, gzip' } });
    expect(home.headers()['content-encoding']).toBe('br');
    expect(home.headers()['cache-control']).toBe('no-cache');
    const entry = /<script type="module" src="([^"]+)"/.exec(await home.text())![1]!;
    const script = await request.get(entry, { headers: { 'accept-encoding': 'gzip' } });
    expect(script.status()).toBe(200);
    expect(script.headers()['content-encoding']).toBe('gzip');
    expect(script.headers()['content-type']).toContain('javascript');
    expect(script.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(script.headers()['vary']).toMatch(/accept-encoding/i);
  });
});

test.describe('accessibility of the public pages', () => {
  test('home, a collection, a product and the privacy page have no serious axe violation', async ({
    page,
    request,
  }) => {
    const { collections, products } = await catalogue(request);
    for (const path of ['/', `/productos/${collections[0]!.id}`, `/products/show/${products[0]!.id}`, '/privacy']) {
      await page.goto(path);
      // Hydrated: the header's session slot is filled in (a guest's "Ingresar").
      await expect(page.getByRole('banner').getByRole('link', { name: 'Ingresar' })).toBeVisible();
      await expectNoSeriousAxeViolations(page, path);
    }
  });
});

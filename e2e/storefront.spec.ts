import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { formatMoney } from '@hornada/domain/format';
import { DEMO, apiToken, marketCompanyId, shot } from './support/session';

const MONEY = /^\$\d{1,3}(,\d{3})*$/;

/** Scrolls through the page so lazy images load, then waits until every image has decoded. */
async function loadAllImages(page: Page) {
  await page.evaluate(async () => {
    const step = window.innerHeight;
    for (let y = 0; y < document.body.scrollHeight; y += step) {
      window.scrollTo(0, y);
      await new Promise((r) => setTimeout(r, 50));
    }
    window.scrollTo(0, 0);
  });
  await expect
    .poll(() => page.locator('img').evaluateAll((imgs) => imgs.filter((i) => !(i as HTMLImageElement).complete).length))
    .toBe(0);
  const broken = await page
    .locator('img')
    .evaluateAll((imgs) =>
      imgs.filter((i) => (i as HTMLImageElement).naturalWidth === 0).map((i) => i.getAttribute('src')),
    );
  expect(broken, 'images that did not load').toEqual([]);
}

test.describe('storefront page', () => {
  test('shows the market name and the seeded catalogue by collection', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: 'Panadería La Espiga' })).toBeVisible();
    await expect(page).toHaveTitle('Panadería La Espiga');
    await expect(page.getByRole('heading', { level: 2 })).toHaveText([
      'Panes',
      'Pandebonos y almojábanas',
      'Tortas y postres',
      'Galletas',
      'Bebidas',
    ]);
    const cards = page.locator('li.card');
    expect(await cards.count()).toBeGreaterThanOrEqual(20);
    // The seasonal product is inactive: the public never sees it.
    await expect(page.getByText('Natilla (temporada)')).toHaveCount(0);

    // Money as the spec writes it: "$4,500".
    const prices = await cards.locator('.price').allTextContents();
    expect(prices.length).toBe(await cards.count());
    for (const price of prices) expect(price).toMatch(MONEY);
    await expect(cards.filter({ hasText: /^Pandebono/ }).locator('.price')).toHaveText('$2,500');

    // Images: responsive, sized, the first few eager and the rest lazy, and they really load.
    const first = cards.first().locator('img');
    await expect(first).toHaveAttribute('srcset', /\/files\/products\/.+-\d+\.webp \d+w/);
    await expect(first).toHaveAttribute('width', /^\d+$/);
    await expect(first).toHaveAttribute('height', /^\d+$/);
    await expect(first).toHaveAttribute('alt', /\S/);
    await expect(first).toHaveAttribute('loading', 'eager');
    await expect(cards.nth(10).locator('img')).toHaveAttribute('loading', 'lazy');
    await expect(first).toHaveJSProperty('complete', true);
    expect(await first.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

    await expect(page.locator('footer').getByRole('link', { name: 'Política de privacidad' })).toHaveAttribute(
      'href',
      '/privacy',
    );
    await loadAllImages(page);
    await page.screenshot({ path: shot('storefront.png'), fullPage: true });
  });

  test('fits a phone screen', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 2, name: 'Panes' })).toBeVisible();
    await loadAllImages(page);
    const width = await page.evaluate(() => document.scrollingElement!.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await page.screenshot({ path: shot('storefront-mobile.png'), fullPage: true });
  });

  test('is in the HTML the server sends, and an unknown page is a Spanish 404', async ({ request }) => {
    const home = await request.get('/');
    expect(home.status()).toBe(200);
    expect(home.headers()['content-type']).toContain('text/html');
    const html = await home.text();
    expect(html).toContain('<title>Panadería La Espiga</title>');
    for (const name of ['Panes', 'Pandebonos y almojábanas', 'Tortas y postres', 'Galletas', 'Bebidas']) {
      expect(html).toContain(name);
    }
    expect(html).toMatch(/class="price[^"]*">\$\d{1,3}(,\d{3})*</);

    const missing = await request.get('/no-existe');
    expect(missing.status()).toBe(404);
    expect(await missing.text()).toContain('No encontramos esta página');
  });

  test('shows the Spanish 404 page in the browser', async ({ page, expectConsoleErrors }) => {
    expectConsoleErrors(404);
    await page.goto('/no-existe');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('No encontramos esta página');
    await expect(page).toHaveTitle('Página no encontrada');
    await page.getByRole('link', { name: 'Ir a la tienda' }).click();
    await expect(page).toHaveURL('/');
  });

  test('every public page renders on the server and hydrates without an error', async ({
    page,
    request,
    expectConsoleErrors,
  }) => {
    // The summary of a cart that does not exist: its read is a 404, and the page says so.
    expectConsoleErrors(404);
    const config = (await (await request.get('/api/config')).json()) as { data: { companyId: string } };
    const base = `/api/companies/${config.data.companyId}`;
    const [collection] = (
      (await (await request.get(`${base}/productCollections?sort=sortOrder`)).json()) as {
        data: { id: string; name: string }[];
      }
    ).data;
    const [product] = (
      (await (await request.get(`${base}/products?sort=sortOrder`)).json()) as {
        data: { id: string; name: string }[];
      }
    ).data;
    const pages = [
      { path: `/productos/${collection!.id}`, h1: collection!.name },
      { path: `/products/show/${product!.id}`, h1: product!.name },
      { path: '/privacy', h1: 'Política de privacidad' },
      { path: '/carrito', h1: 'Carrito' },
      { path: '/resumen-de-pedido/abcdefghijklmnopqrstuv', h1: 'Resumen del pedido' },
      { path: '/respuesta-de-pago', h1: 'Respuesta del pago' },
    ];
    for (const p of pages) {
      const html = await (await request.get(p.path)).text();
      expect(html, p.path).toContain(p.h1.replace(/&/g, '&amp;'));
      await page.goto(p.path);
      await expect(page.getByRole('heading', { level: 1 }), p.path).toHaveText(p.h1);
      // Hydrated: the header's session slot is filled in (a guest's "Ingresar").
      await expect(page.getByRole('banner').getByRole('link', { name: 'Ingresar' })).toBeVisible();
    }
    await page.goto('/resumen-de-pedido/abcdefghijklmnopqrstuv');
    await expect(page.getByText('No encontramos este carrito.')).toBeVisible();
    // An unknown product or collection is the Spanish 404 page, with status 404.
    for (const path of ['/products/show/no-existe', '/productos/no-existe']) {
      const res = await request.get(path);
      expect(res.status(), path).toBe(404);
      expect(await res.text()).toContain('No encontramos esta página');
    }
  });

  test('a price change and a product taken off reach an open page without a reload', async ({
    page,
    playwright,
    baseURL,
  }) => {
    const api = await playwright.request.newContext({ baseURL });
    const companyId = await marketCompanyId(api);
    const token = await apiToken(api, DEMO.admin);
    const products = (
      (await (await api.get(`/api/companies/${companyId}/products?sort=sortOrder`)).json()) as {
        data: { id: string; name: string; price: number }[];
      }
    ).data;
    const product = products[1]!;
    const patch = (data: Record<string, unknown>) =>
      api.patch(`/api/companies/${companyId}/products/${product.id}`, {
        headers: { authorization: `Bearer ${token}` },
        data,
      });
    const card = page.locator('li.card').filter({ has: page.getByRole('link', { name: product.name, exact: true }) });
    const streamOpen = page.waitForResponse((r) => r.url().includes(`/api/companies/${companyId}/changes`));
    await page.goto('/');
    expect((await streamOpen).status()).toBe(200);
    await expect(card.locator('.price')).toHaveText(formatMoney(product.price));
    try {
      expect((await patch({ price: product.price + 700 })).status()).toBe(200);
      await expect(card.locator('.price')).toHaveText(formatMoney(product.price + 700), { timeout: 2_000 });
      expect((await patch({ active: false })).status()).toBe(200);
      await expect(card).toHaveCount(0, { timeout: 2_000 });

      // The product's own page, open when it is taken off, says so.
      await patch({ active: true });
      const reopened = page.waitForResponse((r) => r.url().includes(`/api/companies/${companyId}/changes`));
      await page.goto(`/products/show/${product.id}`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(product.name);
      await reopened;
      expect((await patch({ active: false })).status()).toBe(200);
      await expect(page.getByText('Este producto ya no está disponible.')).toBeVisible({ timeout: 2_000 });
    } finally {
      await patch({ price: product.price, active: true });
      await api.dispose();
    }
  });
});

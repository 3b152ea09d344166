import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

/** Screenshots a person looks at after a run: e2e/test-results/<name> (gitignored). */
const shot = (name: string) => fileURLToPath(new URL(`./test-results/${name}`, import.meta.url));

const PRODUCTS = '**/api/companies/*/products?*';
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

    await expect(page.locator('footer')).toHaveText('Hornada');
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

  test('says it is loading while the products are on their way', async ({ page }) => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route(PRODUCTS, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/');
    await expect(page.getByRole('status')).toHaveText('Cargando productos…');
    await expect(page.locator('main')).toHaveAttribute('aria-busy', 'true');
    release();
    await expect(page.getByRole('heading', { level: 2, name: 'Panes' })).toBeVisible();
    await expect(page.locator('main')).toHaveAttribute('aria-busy', 'false');
  });

  test('explains a failure in Spanish and retries', async ({ page, expectConsoleErrors }) => {
    expectConsoleErrors(500);
    let fail = true;
    await page.route(PRODUCTS, (route) =>
      fail
        ? route.fulfill({
            status: 500,
            contentType: 'application/json',
            body: JSON.stringify({
              message: 'Internal server error',
              error: 'Internal server error',
              code: 'internal',
            }),
          })
        : route.continue(),
    );
    await page.goto('/');
    await expect(page.getByRole('alert')).toContainText('Algo salió mal de nuestro lado');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Panadería La Espiga');
    await page.screenshot({ path: shot('storefront-error.png') });
    fail = false;
    await page.getByRole('button', { name: 'Reintentar' }).click();
    await expect(page.getByRole('heading', { level: 2, name: 'Panes' })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
  });

  test('says so when the bakery has no products', async ({ page }) => {
    await page.route(PRODUCTS, (route) => route.fulfill({ json: { data: [], total: 0, page: 1, perPage: 100 } }));
    await page.goto('/');
    await expect(page.getByText('Esta panadería aún no tiene productos publicados.')).toBeVisible();
    await expect(page.getByRole('heading', { level: 2 })).toHaveCount(0);
  });

  test('lists products without a collection under "Otros productos"', async ({ page }) => {
    await page.route(PRODUCTS, async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { data: { name: string; collectionId: string | null }[] };
      body.data[0]!.collectionId = null;
      await route.fulfill({ response, json: body });
    });
    await page.goto('/');
    const headings = page.getByRole('heading', { level: 2 });
    await expect(headings.last()).toHaveText('Otros productos');
    await expect(page.getByRole('region', { name: 'Otros productos' }).locator('li.card')).toHaveCount(1);
  });
});

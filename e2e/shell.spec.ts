import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { clockOffsetMs } from './support/clock';
import { DEMO, apiToken, marketCompanyId, shot } from './support/session';

const menuButton = (page: Page) => page.getByRole('banner').getByRole('button', { name: 'Productos' });
const menuPanel = async (page: Page) =>
  page.locator(`#${CSS_ESCAPE(await menuButton(page).getAttribute('aria-controls'))}`);
const CSS_ESCAPE = (id: string | null) => (id ?? '').replace(/:/g, '\\:');

interface Named {
  id: string;
  name: string;
  collectionId?: string | null;
}

/** Hydrated, and the session known: the header's account slot is filled (a guest's "Ingresar"). */
const hydrated = (page: Page) => expect(page.getByRole('banner').getByRole('link', { name: 'Ingresar' })).toBeVisible();

async function catalogue(page: Page) {
  const companyId = await marketCompanyId(page.request);
  const read = async (resource: string) =>
    (
      (await (
        await page.request.get(`/api/companies/${companyId}/${resource}?per_page=500&sort=sortOrder`)
      ).json()) as {
        data: Named[];
      }
    ).data;
  return { companyId, collections: await read('productCollections'), products: await read('products') };
}

test.describe('header and Products menu', () => {
  test('the menu links are in the HTML the server sends', async ({ page }) => {
    const { collections, products } = await catalogue(page);
    expect(collections.length).toBeGreaterThanOrEqual(5);
    const html = await (await page.request.get('/privacy')).text();
    for (const c of collections) expect(html).toContain(`href="/productos/${c.id}"`);
    for (const p of products) expect(html).toContain(`href="/products/show/${p.id}"`);
    // Closed until opened: present, but hidden.
    expect(html).toMatch(/aria-expanded="false"/);
  });

  test('opens on hover and closes 150 to 400 ms after the pointer leaves', async ({ page }) => {
    // The page's clock, not the machine's: the delay is read off timers the test moves itself, so a busy
    // machine can neither close the menu early nor late in the test's eyes. (With E2E_NOW the fixture has
    // already installed it.)
    if (clockOffsetMs === 0) await page.clock.install();
    await page.goto('/');
    await hydrated(page);
    const panel = await menuPanel(page);
    await menuButton(page).hover();
    await expect(panel).toBeVisible();
    await expect(menuButton(page)).toHaveAttribute('aria-expanded', 'true');
    // From here time moves only when the test says so.
    await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1_000));

    await page.mouse.move(5, 600);
    await page.clock.runFor(149);
    await expect(panel).toBeVisible();
    await page.clock.runFor(251);
    await expect(panel).toBeHidden();
    await expect(menuButton(page)).toHaveAttribute('aria-expanded', 'false');

    // Coming back before the delay keeps it open, however long the pointer then stays.
    await menuButton(page).hover();
    await expect(panel).toBeVisible();
    await page.mouse.move(5, 600);
    await page.clock.runFor(100);
    await menuButton(page).hover();
    await page.clock.runFor(1_000);
    await expect(panel).toBeVisible();
  });

  test('closes on scroll', async ({ page }) => {
    await page.goto('/');
    await hydrated(page);
    await menuButton(page).click();
    const panel = await menuPanel(page);
    await expect(panel).toBeVisible();
    await page.mouse.move(5, 600);
    await page.evaluate(() => window.scrollBy(0, 300));
    await expect(panel).toBeHidden();
  });

  test('works with the keyboard', async ({ page }) => {
    const { collections } = await catalogue(page);
    await page.goto('/');
    await hydrated(page);
    const button = menuButton(page);
    const panel = await menuPanel(page);
    await button.focus();
    await page.keyboard.press('Enter');
    await expect(panel).toBeVisible();
    await page.keyboard.press('Enter');
    await expect(panel).toBeHidden();
    await page.keyboard.press(' ');
    await expect(panel).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(panel).toBeHidden();
    await expect(button).toBeFocused();

    // ArrowDown opens and walks the links; Escape closes and gives focus back.
    await page.keyboard.press('ArrowDown');
    await expect(panel.getByRole('link', { name: collections[0]!.name, exact: true })).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(panel.getByRole('link').nth(1)).toBeFocused();
    await page.keyboard.press('End');
    await expect(panel.getByRole('link').last()).toBeFocused();
    await page.keyboard.press('Home');
    await expect(panel.getByRole('link').first()).toBeFocused();
    await page.keyboard.press('ArrowUp');
    await expect(panel.getByRole('link').last()).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(panel).toBeHidden();
    await expect(button).toBeFocused();

    // Enter on a link follows it.
    await page.keyboard.press('ArrowDown');
    await expect(panel.getByRole('link').first()).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(`/productos/${collections[0]!.id}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(collections[0]!.name);
  });

  test('toggles on tap on a touch screen', async ({ browser }) => {
    const context = await browser.newContext({ hasTouch: true, isMobile: true, viewport: { width: 375, height: 740 } });
    const page = await context.newPage();
    await page.goto('/');
    await hydrated(page);
    const panel = await menuPanel(page);
    await menuButton(page).tap();
    await expect(panel).toBeVisible();
    await page.screenshot({ path: shot('menu-open-375.png') });
    await menuButton(page).tap();
    await expect(panel).toBeHidden();
    await context.close();
  });

  test('a product renamed through the API shows renamed in the open menu, without a reload', async ({
    page,
    playwright,
    baseURL,
  }) => {
    const { companyId, products } = await catalogue(page);
    const product = products[0]!;
    // The test's own API client, with its own cookies: the page must stay a guest's.
    const request = await playwright.request.newContext({ baseURL });
    const token = await apiToken(request, DEMO.admin);
    const rename = (name: string) =>
      request.patch(`/api/companies/${companyId}/products/${product.id}`, {
        headers: { authorization: `Bearer ${token}` },
        data: { name },
      });
    // The change must come after the shared stream opened: a page learns only what happens while it listens.
    const streamOpen = page.waitForResponse((r) => r.url().includes(`/api/companies/${companyId}/changes`));
    await page.goto('/');
    await hydrated(page);
    await menuButton(page).click();
    const panel = await menuPanel(page);
    await expect(panel.getByRole('link', { name: product.name, exact: true })).toBeVisible();
    expect((await streamOpen).status()).toBe(200);
    const renamed = `${product.name} recién horneado`;
    try {
      expect((await rename(renamed)).status()).toBe(200);
      await expect(panel.getByRole('link', { name: renamed, exact: true })).toBeVisible({ timeout: 2_000 });
      await expect(panel).toBeVisible();
    } finally {
      await rename(product.name);
    }
    await request.dispose();
    await expect(panel.getByRole('link', { name: product.name, exact: true })).toBeVisible({ timeout: 2_000 });
  });

  test('screenshots of the header with the open menu', async ({ page }) => {
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto('/');
      await hydrated(page);
      await menuButton(page).click();
      await expect(await menuPanel(page)).toBeVisible();
      await page.screenshot({ path: shot(`header-menu-${width}.png`) });
      const overflow = await page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    }
  });
});

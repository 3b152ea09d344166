import type { Page } from '@playwright/test';
import { formatMoney } from '@hornada/domain/format';
import { expect, test } from './fixtures';
import { openFirstCollection } from './support/guest-checkout';
import {
  DEMO,
  accountButton,
  apiToken,
  expectNoSeriousAxeViolations,
  marketCompanyId,
  shot,
  signIn,
} from './support/session';

/** The demo bakery's settings (seed): delivery $6,000, free from $80,000, minimum order $20,000. */
const DELIVERY_FEE = 6000;
const MINIMUM = 20000;

const money = (text: string | null) => Number((text ?? '').replace(/[^0-9]/g, ''));

async function totals(page: Page) {
  const aside = page.getByRole('complementary', { name: 'Resumen' });
  return {
    subtotal: money(await aside.locator('.subtotal').textContent()),
    total: money(await aside.locator('.total').textContent()),
  };
}

test.describe('cart', () => {
  test('home → collection → product → cart; it survives a reload; quantities, removal, minimum and totals', async ({
    page,
  }) => {
    await page.goto('/');
    await expect(page.getByRole('banner').getByRole('link', { name: 'Ingresar' })).toBeVisible();
    // Home → the first collection's page → its first product.
    await openFirstCollection(page);
    await expect(page).toHaveURL(/\/productos\//);
    const card = page.locator('li.card').first();
    const name = (await card.getByRole('heading', { level: 3 }).textContent())!.trim();
    const price = money(await card.locator('.price').textContent());
    await card.getByRole('link', { name }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
    await page.getByRole('button', { name: 'Agregar uno' }).click();
    await page.getByRole('button', { name: 'Agregar al carrito' }).click();
    await expect(page.getByRole('status').filter({ hasText: `Agregaste 2 × ${name} al carrito.` })).toBeVisible();
    await expect(page.getByRole('banner').getByRole('link', { name: 'Carrito, 2 productos' })).toBeVisible();

    await page.getByRole('button', { name: 'Ver carrito' }).click();
    await expect(page).toHaveURL('/carrito');
    const line = page.getByRole('list', { name: 'Productos en tu carrito' }).getByRole('listitem');
    await expect(line).toHaveCount(1);
    await expect(line.getByRole('link', { name })).toBeVisible();
    await expect(line.locator('.line-total')).toHaveText(formatMoney(price * 2));

    // It survives a reload (local storage, then the server cart).
    await page.reload();
    await expect(line.getByRole('link', { name })).toBeVisible();
    await expect(line.getByRole('group', { name: `Cantidad de ${name}` })).toContainText('2');

    // Prices and totals come from the server: subtotal, delivery fee, total; under the minimum, a notice.
    await expect.poll(async () => (await totals(page)).subtotal).toBe(price * 2);
    if (price * 2 < MINIMUM) {
      await expect(page.locator('.minimum-notice')).toContainText(`te faltan ${formatMoney(MINIMUM - price * 2)}`);
      await expect(page.getByRole('button', { name: 'Continuar' })).toBeDisabled();
    }
    // Raise the quantity until the minimum is reached: the notice goes and the way on opens.
    const needed = Math.max(2, Math.ceil(MINIMUM / price));
    for (let q = 2; q < needed; q++) await line.getByRole('button', { name: `Agregar uno de ${name}` }).click();
    await expect(line.getByRole('group', { name: `Cantidad de ${name}` })).toContainText(String(needed));
    await expect.poll(async () => (await totals(page)).subtotal).toBe(price * needed);
    await expect(page.locator('.minimum-notice')).toHaveCount(0);
    const { subtotal, total } = await totals(page);
    expect(total).toBe(subtotal + (subtotal >= 80000 ? 0 : DELIVERY_FEE));
    await page.screenshot({ path: shot('cart-1280.png'), fullPage: true });
    await expectNoSeriousAxeViolations(page, '/carrito');

    // One less: the totals follow.
    await line.getByRole('button', { name: `Quitar uno de ${name}` }).click();
    await expect.poll(async () => (await totals(page)).subtotal).toBe(price * (needed - 1));

    // Continue: the saved cart, read-only, with its total.
    await line.getByRole('button', { name: `Agregar uno de ${name}` }).click();
    await expect(page.getByRole('button', { name: 'Continuar' })).toBeEnabled();
    await page.getByRole('button', { name: 'Continuar' }).click();
    await expect(page).toHaveURL(/\/resumen-de-pedido\/[\w-]+$/);
    await expect(page.getByRole('list', { name: 'Tu pedido' })).toContainText(name);
    await expect(page.locator('.total')).toHaveText(formatMoney(total));

    // Remove: the cart is empty.
    await page.goto('/carrito');
    await line.getByRole('button', { name: `Quitar ${name} del carrito` }).click();
    await expect(page.getByText('Tu carrito está vacío.')).toBeVisible();
    await expect(page.getByRole('banner').getByRole('link', { name: 'Carrito', exact: true })).toBeVisible();
  });

  test("a product page's code that arrives late loses no tap: the button waits, then adds", async ({ page }) => {
    const products = (
      (await (
        await page.request.get(`/api/companies/${await marketCompanyId(page.request)}/products?per_page=1`)
      ).json()) as {
        data: { id: string; name: string }[];
      }
    ).data;
    const [product] = products;
    // The product page's own chunk comes a second late (a slow phone network).
    let release!: () => void;
    const late = new Promise<void>((r) => (release = r));
    await page.route('**/assets/product-page-*.js', async (route) => {
      await late;
      await route.continue();
    });
    await page.goto(`/products/show/${product!.id}`);
    const add = page.getByRole('button', { name: 'Agregar al carrito' });
    // The server's page is there at once; its button says it is not ready yet instead of reloading the page.
    await expect(add).toBeVisible();
    await expect(add).toBeDisabled();
    release();
    await expect(add).toBeEnabled();
    await add.click();
    await expect(page.getByRole('status').filter({ hasText: `Agregaste ${product!.name} al carrito.` })).toBeVisible();
    await expect(page.getByRole('banner').getByRole('link', { name: 'Carrito, 1 producto' })).toBeVisible();
  });

  test('a cart holding a product taken off says so, and does not charge it', async ({ page, playwright, baseURL }) => {
    const api = await playwright.request.newContext({ baseURL });
    const companyId = await marketCompanyId(api);
    const token = await apiToken(api, DEMO.admin);
    const products = (
      (await (await api.get(`/api/companies/${companyId}/products?sort=-price&per_page=2`)).json()) as {
        data: { id: string; name: string; price: number }[];
      }
    ).data;
    const [kept, takenOff] = products as [(typeof products)[0], (typeof products)[0]];
    const setActive = (active: boolean) =>
      api.patch(`/api/companies/${companyId}/products/${takenOff.id}`, {
        headers: { authorization: `Bearer ${token}` },
        data: { active },
      });
    try {
      for (const p of [kept, takenOff]) {
        await page.goto(`/products/show/${p.id}`);
        await expect(page.getByRole('banner').getByRole('link', { name: 'Ingresar' })).toBeVisible();
        await page.getByRole('button', { name: 'Agregar al carrito' }).click();
      }
      await page.goto('/carrito');
      await expect.poll(async () => (await totals(page)).subtotal).toBe(kept.price + takenOff.price);
      expect((await setActive(false)).status()).toBe(200);
      await page.reload();
      await expect(page.getByRole('alert')).toContainText('ya no está disponible');
      const line = page.getByRole('listitem').filter({ hasText: takenOff.name });
      await expect(line).toContainText('Ya no está disponible');
      await expect.poll(async () => (await totals(page)).subtotal).toBe(kept.price);
      await page.screenshot({ path: shot('cart-unavailable-1280.png'), fullPage: true });
      await line.getByRole('button', { name: `Quitar ${takenOff.name} del carrito` }).click();
      await expect(page.getByRole('alert')).toHaveCount(0);
    } finally {
      await setActive(true);
      await api.dispose();
    }
  });

  test("a guest's cart joins the customer's when they sign in", async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('banner').getByRole('link', { name: 'Ingresar' })).toBeVisible();
    const card = page.locator('li.card').nth(2);
    const name = (await card.getByRole('heading', { level: 3 }).textContent())!.trim();
    await card.getByRole('button', { name: `Agregar ${name} al carrito` }).click();
    await page.getByRole('banner').getByRole('link', { name: 'Ingresar' }).click();
    await signIn(page, DEMO.customer);
    await expect(accountButton(page, 'Ana')).toBeVisible();
    await page.goto('/carrito');
    await expect(page.getByRole('list', { name: 'Productos en tu carrito' })).toContainText(name);
    // Another browser of the same customer finds it after signing in.
    const other = await page.context().browser()!.newContext();
    const second = await other.newPage();
    await second.goto('/login');
    await signIn(second, DEMO.customer);
    await expect(accountButton(second, 'Ana')).toBeVisible();
    await second.goto('/carrito');
    await expect(second.getByRole('list', { name: 'Productos en tu carrito' })).toContainText(name);
    await other.close();
  });

  test('no storefront page overflows a 375 px screen; screenshots', async ({ page, request }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    const companyId = await marketCompanyId(request);
    const [collection] = (
      (await (await request.get(`/api/companies/${companyId}/productCollections?sort=sortOrder`)).json()) as {
        data: { id: string }[];
      }
    ).data;
    const [product] = (
      (await (await request.get(`/api/companies/${companyId}/products?sort=sortOrder`)).json()) as {
        data: { id: string }[];
      }
    ).data;
    await page.goto(`/products/show/${product!.id}`);
    await page.getByRole('button', { name: 'Agregar al carrito' }).click();
    const pages = {
      home: '/',
      collection: `/productos/${collection!.id}`,
      product: `/products/show/${product!.id}`,
      cart: '/carrito',
      privacy: '/privacy',
    };
    for (const [name, path] of Object.entries(pages)) {
      for (const width of [375, 1280]) {
        await page.setViewportSize({ width, height: 812 });
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        if (name === 'cart') await expect(page.locator('.total')).toBeVisible();
        const overflow = await page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth);
        expect(overflow, `${path} at ${width} px`).toBeLessThanOrEqual(0);
        await page.screenshot({ path: shot(`${name}-${width}.png`) });
      }
    }
  });
});

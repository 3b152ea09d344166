import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { ownAppUrl } from './support/apps';
import { shotsAtBothWidths } from './support/admin-api';
import { newBakery, unique, type NewBakery } from './support/new-bakery';
import { accountButton, expectNoSeriousAxeViolations } from './support/session';

/**
 * A shopper's cart around an order, at a new bakery's own host (issue "Second bakery"): an online order she
 * leaves unpaid at the gateway still empties her cart, and "Pedir de nuevo" puts that order back in her cart
 * merged with what it holds (one line a product, never doubled, however often she asks) and says so.
 */

let api: APIRequestContext;
let bakery: NewBakery;
const PAN = 'Pan de bono';
const ALMOJABANA = 'Almojábana';
const products: Record<string, string> = {};
const shopper = { email: '', password: 'pandebono-con-cafe-49' };
let orderNumber = 0;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ playwright }) => {
  api = await playwright.request.newContext({ baseURL: ownAppUrl() });
  bakery = await newBakery(api, `Horno de Lucía ${unique('r').slice(-5)}`);
  await bakery.call('PATCH', 'settings', {
    timeZone: 'America/Bogota',
    phone: '300 555 0199',
    deliveryDays: [0, 1, 2, 3, 4, 5, 6],
    orderLeadHours: 0,
    deliveryWindows: [{ id: 'dia', label: 'Todo el día', start: '06:00', end: '23:30', capacity: null }],
    paymentMethods: ['cash', 'online'],
  });
  for (const [name, price] of [
    [PAN, 1800],
    [ALMOJABANA, 2000],
  ] as const) {
    products[name] = (await bakery.call<{ id: string }>('POST', 'products', { name, price })).id;
  }
  // Her own account at the bakery's shop (the host names the bakery).
  shopper.email = `${unique('lucia')}@cliente.test`;
  const res = await api.post('/api/identity/shoppers', {
    headers: { host: new URL(bakery.shopUrl).host },
    data: { ...shopper, name: 'lucía de la hoz' },
  });
  expect(res.status(), await res.text()).toBe(201);
});
test.afterAll(async () => {
  await api?.dispose();
});

async function signInAtShop(page: Page) {
  await page.goto(`${bakery.shopUrl}login`);
  await page.getByLabel('Correo electrónico').fill(shopper.email);
  await page.getByLabel('Contraseña', { exact: true }).fill(shopper.password);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  await expect(accountButton(page, 'Lucía')).toBeVisible();
}

async function addToCart(page: Page, name: string) {
  await page.goto(`${bakery.shopUrl}products/show/${products[name]}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
  await page.getByRole('button', { name: 'Agregar al carrito' }).click();
  await expect(page.getByRole('button', { name: 'Ver carrito' })).toBeVisible();
}

const cartLines = (page: Page) => page.getByRole('list', { name: 'Productos en tu carrito' }).getByRole('listitem');
const quantityOf = (page: Page, name: string) => page.getByRole('group', { name: `Cantidad de ${name}` });

test('an online order left unpaid at the gateway empties her cart', async ({ page }) => {
  test.setTimeout(90_000);
  await signInAtShop(page);
  await addToCart(page, PAN);
  await page.getByRole('button', { name: 'Ver carrito' }).click();
  await cartLines(page)
    .getByRole('button', { name: `Agregar uno de ${PAN}` })
    .click();
  await cartLines(page)
    .getByRole('button', { name: `Agregar uno de ${PAN}` })
    .click();
  await expect(quantityOf(page, PAN)).toContainText('3');
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(page).toHaveURL(/\/resumen-de-pedido\/[\w-]+$/);
  await page.getByLabel('Teléfono').fill('311 555 0129');
  await page.getByLabel('Dirección').fill('Calle 72 # 10-34');
  await page.getByRole('radiogroup', { name: 'Horario' }).getByRole('radio', { disabled: false }).first().check();
  await page.getByRole('radio', { name: /Pago en línea/ }).check();
  await page.getByRole('button', { name: 'Realizar pedido' }).click();
  // At the gateway she pays nothing and goes back to the shop.
  await expect(page).toHaveURL(/\/pasarela-de-prueba\?/);
  const reference = new URL(page.url()).searchParams.get('reference')!;
  orderNumber = Number(reference.split('-')[0]);
  expect(orderNumber).toBeGreaterThan(0);
  await page.goto(bakery.shopUrl);
  await expect(page.getByRole('banner').getByRole('link', { name: 'Carrito', exact: true })).toBeVisible();
  await page.goto(`${bakery.shopUrl}carrito`);
  await expect(page.getByText('Tu carrito está vacío.')).toBeVisible();
  // Signed in again on another visit, nothing of the order comes back from her account.
  await page.reload();
  await expect(page.getByText('Tu carrito está vacío.')).toBeVisible();
});

test('«Pedir de nuevo» merges the order into her cart, one line a product, never doubled', async ({ page }) => {
  test.setTimeout(90_000);
  await signInAtShop(page);
  // Her cart already holds one pan de bono (the order had 3) and an almojábana.
  await addToCart(page, PAN);
  await addToCart(page, ALMOJABANA);
  await page.goto(`${bakery.shopUrl}customer/history`);
  await expect(page.getByRole('heading', { level: 1, name: 'Mis pedidos' })).toBeVisible();
  const again = page.getByRole('button', { name: `Pedir de nuevo el pedido #${orderNumber}` });
  await again.click();
  await expect(page).toHaveURL(`${bakery.shopUrl}carrito`);
  await expect(page.getByText(`Tu carrito ya tenía los productos del pedido #${orderNumber}.`)).toBeVisible();
  await expect(
    page.getByText(`${PAN} ya estaba en tu carrito: no lo repetimos, quedó con la cantidad mayor.`),
  ).toBeVisible();
  await expect(cartLines(page)).toHaveCount(2);
  await expect(quantityOf(page, PAN)).toContainText('3');
  await expect(quantityOf(page, ALMOJABANA)).toContainText('1');
  await expectNoSeriousAxeViolations(page, 'the cart after «Pedir de nuevo»');
  await shotsAtBothWidths(page, 'cart-reorder-merged');

  // Asking again changes nothing: still one line of pan de bono, still 3.
  await page.goto(`${bakery.shopUrl}customer/history`);
  await again.click();
  await expect(page).toHaveURL(`${bakery.shopUrl}carrito`);
  await expect(cartLines(page)).toHaveCount(2);
  await expect(quantityOf(page, PAN)).toContainText('3');
  await expect(page.getByRole('banner').getByRole('link', { name: 'Carrito, 4 productos' })).toBeVisible();
});

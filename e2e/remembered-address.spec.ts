import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { ownAppUrl } from './support/apps';
import { shotsAtBothWidths } from './support/admin-api';
import { newBakery, unique, type NewBakery } from './support/new-bakery';
import { accountButton, expectNoSeriousAxeViolations } from './support/session';

/**
 * "Recordar estos datos" at a new bakery's own host, not the demo's: a signed-in shopper's first order keeps
 * her phone and delivery address in her account, and her second order offers them already filled in.
 */

let api: APIRequestContext;
let bakery: NewBakery;
let productId: string;
const PRODUCT = 'Roscón de arequipe';
const shopper = { email: '', password: 'roscon-con-chocolate-49' };

test.beforeAll(async ({ playwright }) => {
  api = await playwright.request.newContext({ baseURL: ownAppUrl() });
  bakery = await newBakery(api, `Panadería Sabana ${unique('m').slice(-5)}`);
  await bakery.call('PATCH', 'settings', {
    timeZone: 'America/Bogota',
    whatsapp: '+57 300 555 0177',
    deliveryDays: [0, 1, 2, 3, 4, 5, 6],
    orderLeadHours: 0,
    deliveryWindows: [{ id: 'dia', label: 'Todo el día', start: '06:00', end: '23:30', capacity: null }],
    paymentMethods: ['cash'],
  });
  productId = (await bakery.call<{ id: string }>('POST', 'products', { name: PRODUCT, price: 4500 })).id;
  shopper.email = `${unique('camila')}@cliente.test`;
  const res = await api.post('/api/identity/shoppers', {
    headers: { host: new URL(bakery.shopUrl).host },
    data: { ...shopper, name: 'camila del mar suárez' },
  });
  expect(res.status(), await res.text()).toBe(201);
});
test.afterAll(async () => {
  await api?.dispose();
});

/** Signed in at her bakery's shop: its product into the cart, then the order summary. */
async function toSummary(page: Page) {
  await page.goto(`${bakery.shopUrl}products/show/${productId}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(PRODUCT);
  await page.getByRole('button', { name: 'Agregar al carrito' }).click();
  await page.getByRole('button', { name: 'Ver carrito' }).click();
  await expect(page).toHaveURL(`${bakery.shopUrl}carrito`);
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(page).toHaveURL(/\/resumen-de-pedido\/[\w-]+$/);
}

async function placeWithCash(page: Page): Promise<number> {
  await page.getByRole('radiogroup', { name: 'Horario' }).getByRole('radio', { disabled: false }).first().check();
  await page.getByRole('radio', { name: /Efectivo/ }).check();
  await page.getByRole('button', { name: 'Realizar pedido' }).click();
  await expect(page).toHaveURL(/\/respuesta-de-pago\?pedido=/);
  const heading = page.getByRole('heading', { level: 1 });
  await expect(heading).toHaveText(/^Pedido #\d+$/);
  return Number((await heading.textContent())!.replace(/\D/g, ''));
}

test('her second order at the bakery’s own host offers the phone and address she saved', async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto(`${bakery.shopUrl}login`);
  await page.getByLabel('Correo electrónico').fill(shopper.email);
  await page.getByLabel('Contraseña', { exact: true }).fill(shopper.password);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
  await expect(accountButton(page, 'Camila')).toBeVisible();

  // First order: she types her phone and address; «Recordar estos datos» is on.
  await toSummary(page);
  await expect(page.getByLabel('Nombre')).toHaveValue('Camila del Mar Suárez');
  await expect(page.getByLabel('Teléfono')).toHaveValue('');
  await page.getByLabel('Teléfono').fill('312 555 0148');
  await page.getByLabel('Dirección').fill('Carrera 9 # 81-20');
  await page.getByLabel('Barrio').fill('El Retiro');
  await expect(page.getByRole('checkbox', { name: 'Recordar estos datos para mis próximos pedidos' })).toBeChecked();
  const first = await placeWithCash(page);
  expect(first).toBeGreaterThan(0);

  // Second order, in her bakery's shop again: both are offered, filled in.
  await toSummary(page);
  await expect(page.getByLabel('Tus direcciones')).toBeVisible();
  await expect(page.getByLabel('Teléfono')).toHaveValue('312 555 0148');
  await expect(page.getByLabel('Dirección')).toHaveValue('Carrera 9 # 81-20');
  await expect(page.getByLabel('Barrio')).toHaveValue('El Retiro');
  await expectNoSeriousAxeViolations(page, 'her second order’s summary, filled in');
  await shotsAtBothWidths(page, 'remembered-address-second-order');
  const second = await placeWithCash(page);
  expect(second).toBe(first + 1);
});

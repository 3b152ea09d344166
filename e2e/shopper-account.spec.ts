import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO_MINIMUM_ORDER, openFirstCollection } from './support/guest-checkout';
import { mailed, mailedLink } from './support/outbox';
import { DEMO, accountButton, apiToken, expectNoSeriousAxeViolations, marketCompanyId, shot } from './support/session';

/**
 * As a shopper lives them: an account made on /registro, verified through the mailed
 * link; a first order keeps its phone and address (unless she says not to); the next order finds
 * them filled in; the order's confirmation and its
 * "va en camino" reach the mailbox, signed by the bakery.
 */
const money = (text: string | null) => Number((text ?? '').replace(/[^0-9]/g, ''));

/** Home → a collection's first product → enough of it for the minimum → the order summary. */
async function toSummary(page: Page) {
  await page.goto('/');
  await openFirstCollection(page);
  const card = page.locator('li.card').first();
  const product = (await card.getByRole('heading', { level: 3 }).textContent())!.trim();
  const price = money(await card.locator('.price').textContent());
  await card.getByRole('link', { name: product }).click();
  await page.getByRole('button', { name: 'Agregar al carrito' }).click();
  await page.getByRole('button', { name: 'Ver carrito' }).click();
  const line = page.getByRole('list', { name: 'Productos en tu carrito' }).getByRole('listitem');
  const quantity = Math.max(1, Math.ceil(DEMO_MINIMUM_ORDER / price));
  for (let q = 1; q < quantity; q++) await line.getByRole('button', { name: `Agregar uno de ${product}` }).click();
  await expect(line.getByRole('group', { name: `Cantidad de ${product}` })).toContainText(String(quantity));
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(page).toHaveURL(/\/resumen-de-pedido\/[\w-]+$/);
}

async function placeWith(page: Page, method: RegExp): Promise<number> {
  await page.getByRole('radiogroup', { name: 'Horario' }).getByRole('radio', { disabled: false }).first().check();
  await page.getByRole('radio', { name: method }).check();
  await page.getByRole('button', { name: 'Realizar pedido' }).click();
  await expect(page).toHaveURL(/\/respuesta-de-pago\?pedido=/);
  const heading = page.getByRole('heading', { level: 1 });
  await expect(heading).toHaveText(/^Pedido #\d+$/);
  return Number((await heading.textContent())!.replace(/\D/g, ''));
}

test('a shopper registers on /registro, verifies by mail, and orders with the address filled in', async ({
  page,
  playwright,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const api = await playwright.request.newContext({ baseURL });
  const email = `valentina.${Date.now()}@cliente.test`;

  // The login page leads to /registro.
  await page.goto('/login');
  await page.getByRole('link', { name: 'Crea tu cuenta para pedir más rápido' }).click();
  await expect(page).toHaveURL('/registro');
  await expect(page.getByRole('heading', { level: 1, name: 'Crea tu cuenta' })).toBeVisible();
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: shot('registro-375.png'), fullPage: true });
  await expectNoSeriousAxeViolations(page, '/registro');
  await page.getByLabel('Nombre').fill('valentina rojas de la cruz');
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Contraseña', { exact: true }).fill('pandebono-con-cafe-29');
  await page.getByRole('button', { name: 'Crear cuenta' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Te enviamos un correo para confirmar' })).toBeVisible();
  await expect(accountButton(page, 'Valentina')).toBeVisible();

  // The mailed link verifies the address.
  const link = await mailedLink(api, email, /^Confirma tu correo/);
  await page.goto(link.replace(/^https?:\/\/[^/]+/, ''));
  await expect(page.getByText('¡Listo! Tu correo quedó verificado.')).toBeVisible();

  // A first order keeps its phone and address in the account unless she says not to.
  await toSummary(page);
  await expect(page.getByLabel('Nombre')).toHaveValue('Valentina Rojas de la Cruz');
  await page.getByLabel('Teléfono').fill('311 555 0129');
  await page.getByLabel('Dirección').fill('Calle 72 # 10-34');
  await page.getByLabel('Barrio').fill('Chapinero');
  const remember = page.getByRole('checkbox', { name: 'Recordar estos datos para mis próximos pedidos' });
  await expect(remember).toBeChecked();
  await expect(remember).toHaveAccessibleDescription('Tu teléfono y esta dirección quedan guardados en tu cuenta.');
  const first = await placeWith(page, /Transferencia/);
  await mailed(api, email, new RegExp(`^Recibimos tu pedido #${first} · `));

  // The next order finds it filled in.
  await toSummary(page);
  await expect(page.getByLabel('Tus direcciones')).toBeVisible();
  await expect(page.getByLabel('Dirección')).toHaveValue('Calle 72 # 10-34');
  await expect(page.getByLabel('Barrio')).toHaveValue('Chapinero');
  await expect(page.getByLabel('Correo')).toHaveValue(email);
  await expect(page.getByLabel('Teléfono')).toHaveValue('311 555 0129');
  await expectNoSeriousAxeViolations(page, 'resumen con el teléfono y la dirección recordados');
  await page.screenshot({ path: shot('summary-prefilled-375.png'), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: shot('summary-prefilled-1280.png'), fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  // The last way they paid is chosen for them (the demo lists cash first).
  await expect(page.getByRole('radio', { name: /Transferencia/ })).toBeChecked();
  const second = await placeWith(page, /Efectivo/);
  const confirmation = await mailed(api, email, new RegExp(`^Recibimos tu pedido #${second} · Panadería La Espiga$`));
  expect(confirmation.text).toContain('Total:');
  expect(confirmation.text).toContain('/respuesta-de-pago?pedido=');

  // The bakery sends it out: "va en camino" reaches the mailbox.
  const companyId = await marketCompanyId(api);
  const staff = await apiToken(api, DEMO.staff);
  const headers = { authorization: `Bearer ${staff}` };
  const found = (await (await api.get(`/api/companies/${companyId}/orders?number=${second}`, { headers })).json()) as {
    data: { id: string }[];
  };
  const id = found.data[0]!.id;
  // Staff read customers only: the admin reads the team.
  const admin = { authorization: `Bearer ${await apiToken(api, DEMO.admin)}` };
  const drivers = (await (
    await api.get(`/api/companies/${companyId}/users?role=delivery_assistant&per_page=100`, { headers: admin })
  ).json()) as { data: { id: string; email: string }[] };
  const driver = drivers.data.find((u) => u.email === DEMO.driver)!;
  for (const data of [
    { status: 'confirmed' },
    { status: 'in_production' },
    { status: 'ready' },
    { deliveryAssistantId: driver.id },
    { status: 'out_for_delivery' },
  ]) {
    const res = await api.patch(`/api/companies/${companyId}/orders/${id}`, { headers, data });
    expect(res.status(), await res.text()).toBe(200);
  }
  await mailed(api, email, new RegExp(`^Tu pedido #${second} está confirmado · `));
  const onTheWay = await mailed(api, email, new RegExp(`^Tu pedido #${second} va en camino · Panadería La Espiga$`));
  expect(onTheWay.text).toContain('va en camino');
  await api.dispose();
});

test('a guest ticks «crear mi cuenta» at checkout and is mailed a link to choose a password', async ({
  page,
  playwright,
  baseURL,
}) => {
  const api = await playwright.request.newContext({ baseURL });
  const email = `invitado.${Date.now()}@cliente.test`;
  await toSummary(page);
  await expect(page.getByRole('link', { name: 'Crea tu cuenta para pedir más rápido' })).toBeVisible();
  await page.getByLabel('Nombre').fill('Julio Cortés');
  await page.getByLabel('Teléfono').fill('311 555 0140');
  await page.getByLabel('Correo').fill(email);
  await page.getByLabel('Dirección').fill('Carrera 13 # 60-12');
  await page.getByLabel(/^Crear mi cuenta con este correo/).check();
  await placeWith(page, /Efectivo/);
  const link = await mailedLink(api, email, /te invita a crear tu contraseña/);
  expect(link).toContain('/restablecer-contrasena?token=');
  await api.dispose();
  // The link reads as the shop's invitation, not as a reset.
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: 'Crea tu contraseña' })).toBeVisible();
  await expect(page.getByText('Panadería La Espiga te invitó.')).toBeVisible();
  await page.getByLabel('Tu contraseña').fill('almojabana-caliente');
  await page.getByRole('button', { name: 'Crear mi contraseña' }).click();
  await expect(page.getByRole('status')).toContainText('Ya puedes entrar');
});

import { formatMoney } from '@hornada/domain/format';
import { expect, test } from './fixtures';
import { DEMO, apiToken, expectNoSeriousAxeViolations, marketCompanyId, shot } from './support/session';
import { openFirstCollection } from './support/guest-checkout';

/** The demo bakery's minimum order (seed): $20,000. */
const MINIMUM = 20000;
const money = (text: string | null) => Number((text ?? '').replace(/[^0-9]/g, ''));

test.describe('checkout', () => {
  test('a guest orders end to end with cash; staff confirms and the confirmation follows without a reload', async ({
    page,
    playwright,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    // Home → a collection → its first product → the cart.
    await page.goto('/');
    await openFirstCollection(page);
    const card = page.locator('li.card').first();
    const name = (await card.getByRole('heading', { level: 3 }).textContent())!.trim();
    const price = money(await card.locator('.price').textContent());
    await card.getByRole('link', { name }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
    await page.getByRole('button', { name: 'Agregar al carrito' }).click();
    await page.getByRole('button', { name: 'Ver carrito' }).click();
    await expect(page).toHaveURL('/carrito');
    const line = page.getByRole('list', { name: 'Productos en tu carrito' }).getByRole('listitem');
    const needed = Math.max(1, Math.ceil(MINIMUM / price));
    for (let q = 1; q < needed; q++) await line.getByRole('button', { name: `Agregar uno de ${name}` }).click();
    await expect(line.getByRole('group', { name: `Cantidad de ${name}` })).toContainText(String(needed));
    await expect(page.getByRole('button', { name: 'Continuar' })).toBeEnabled();
    await page.getByRole('button', { name: 'Continuar' }).click();

    // The summary: lines and totals, contact, address, a day and window delivery-days offers, cash.
    await expect(page).toHaveURL(/\/resumen-de-pedido\/[\w-]+$/);
    await expect(page.getByRole('list', { name: 'Tu pedido' })).toContainText(name);
    await expect(page.getByRole('list', { name: 'Tu pedido' })).toContainText(formatMoney(price * needed));
    // Placing without the required fields says what is missing, in Spanish.
    await page.getByRole('button', { name: 'Realizar pedido' }).click();
    await expect(page.getByText('Escribe tu nombre.')).toBeVisible();
    await expect(page.getByText('Elige un horario.')).toBeVisible();
    await page.getByLabel('Nombre').fill('Lucía Fernández');
    await page.getByLabel('Teléfono').fill('310 555 0101');
    await page.getByLabel('Dirección').fill('Calle 45 # 13-20');
    await page.getByLabel('Barrio').fill('Teusaquillo');
    // The map pin, without map tiles: the browser's refusal is explained in Spanish; once allowed,
    // the coordinates show with a link to check them on Google Maps, and the pin can be taken off.
    const pin = page.getByRole('group', { name: 'Ubicación en el mapa' });
    await pin.getByRole('button', { name: 'Usar mi ubicación' }).click();
    await expect(pin.getByRole('alert')).toContainText('No diste permiso para usar tu ubicación.');
    await page.context().grantPermissions(['geolocation']);
    await page.context().setGeolocation({ latitude: 4.6331234, longitude: -74.0678 });
    await pin.getByRole('button', { name: 'Usar mi ubicación' }).click();
    await expect(pin.getByTestId('pin-coordinates')).toHaveText('4.633123, -74.067800');
    await expect(pin.getByRole('alert')).toHaveCount(0);
    await expect(pin.getByRole('link', { name: /^Ver en el mapa/ })).toHaveAttribute(
      'href',
      'https://www.google.com/maps/search/?api=1&query=4.633123%2C-74.0678',
    );
    await pin.getByRole('button', { name: 'Quitar ubicación' }).click();
    await expect(pin.getByTestId('pin-coordinates')).toHaveCount(0);
    await pin.getByRole('button', { name: 'Usar mi ubicación' }).click();
    await expect(pin.getByTestId('pin-coordinates')).toHaveText('4.633123, -74.067800');
    const day = await page.getByLabel('Día', { exact: true }).inputValue();
    expect(day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await page.getByRole('radiogroup', { name: 'Horario' }).getByRole('radio', { disabled: false }).first().check();
    await page.getByRole('radio', { name: /Efectivo/ }).check();
    await page.setViewportSize({ width: 375, height: 800 });
    await page.screenshot({ path: shot('checkout-summary-375.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: shot('checkout-summary-1280.png'), fullPage: true });
    await expectNoSeriousAxeViolations(page, '/resumen-de-pedido');

    // Placed once, however often it is clicked.
    const button = page.getByRole('button', { name: 'Realizar pedido' });
    await button.dblclick();
    await expect(page).toHaveURL(/\/respuesta-de-pago\?pedido=/);
    const heading = page.getByRole('heading', { level: 1 });
    await expect(heading).toHaveText(/^Pedido #\d+$/);
    const number = Number((await heading.textContent())!.replace(/\D/g, ''));
    await expect(page.getByRole('status').filter({ hasText: 'Pendiente' })).toBeVisible();
    await expect(page.getByRole('list', { name: 'Tu pedido' })).toContainText(name);
    const whatsapp = page.getByRole('link', { name: `Escribir por WhatsApp sobre el pedido #${number}` });
    await expect(whatsapp).toHaveAttribute('href', new RegExp(`^https://wa\\.me/\\d+\\?text=.*%23${number}`));
    // The cart is emptied.
    await expect(page.getByRole('banner').getByRole('link', { name: 'Carrito', exact: true })).toBeVisible();

    // One order for the cart, and staff confirms it: the guest's page follows.
    const api = await playwright.request.newContext({ baseURL });
    const companyId = await marketCompanyId(api);
    const token = await apiToken(api, DEMO.staff);
    const found = (await (
      await api.get(`/api/companies/${companyId}/orders?number=${number}`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as {
      data: { id: string; channel: string; items: { quantity: number }[]; address: { lat: number; lng: number } }[];
      total: number;
    };
    expect(found.total).toBe(1);
    expect(found.data[0]).toMatchObject({
      channel: 'web',
      items: [{ quantity: needed }],
      address: { lat: 4.633123, lng: -74.0678 },
    });
    const confirmed = await api.patch(`/api/companies/${companyId}/orders/${found.data[0]!.id}`, {
      headers: { authorization: `Bearer ${token}` },
      data: { status: 'confirmed' },
    });
    expect(confirmed.status()).toBe(200);
    await expect(page.getByRole('status').filter({ hasText: 'Confirmado' })).toBeVisible({ timeout: 15_000 });
    await page.screenshot({ path: shot('checkout-confirmation-1280.png'), fullPage: true });
    await page.setViewportSize({ width: 375, height: 800 });
    await page.screenshot({ path: shot('checkout-confirmation-375.png'), fullPage: true });
    await expectNoSeriousAxeViolations(page, '/respuesta-de-pago');
    await api.dispose();
  });

  test('a confirmation link without its secret shows nothing of the order', async ({ page, expectConsoleErrors }) => {
    expectConsoleErrors(404);
    await page.goto('/respuesta-de-pago?pedido=abc');
    await expect(page.getByText('No encontramos este pedido.')).toBeVisible();
  });
});

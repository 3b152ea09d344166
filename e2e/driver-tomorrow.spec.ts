import { expect, test } from './fixtures';
import { shotsAtBothWidths } from './support/admin-api';
import { dayFromToday, newBakery } from './support/new-bakery';
import { expectNoSeriousAxeViolations, landedOn, signInByApi } from './support/session';

/**
 * The driver's phone looks at tomorrow as well as today, at a new
 * bakery (a bakery with no preparation lead bakes and packs tomorrow's orders the night before).
 */

test.use({ viewport: { width: 375, height: 800 }, hasTouch: true });

test('the driver’s phone shows tomorrow’s route beside today’s', async ({ page, request }) => {
  const bakery = await newBakery(request, 'Horno del Domicilio');
  await bakery.bakesEveryDay();
  const product = (await bakery.call<{ id: string }>('POST', 'products', { name: 'Roscón', price: 9000 })).id;
  const driver = await bakery.user('delivery_assistant', 'Andrés Moto');
  const order = await bakery.call<{ id: string; number: number }>('POST', 'orders', {
    contact: { name: 'Lucía Mañana', phone: '300 555 0177' },
    items: [{ productId: product, quantity: 2 }],
    fulfillment: 'delivery',
    address: { line: 'Carrera 7 # 45-10', city: 'Bogotá' },
    dueDate: dayFromToday(1),
    paymentMethod: 'cash',
    deliveryAssistantId: driver.id,
  });
  await bakery.call('PATCH', `orders/${order.id}`, { status: 'confirmed' });

  await signInByApi(page, driver.email, driver.password);
  await expect(page).toHaveURL(landedOn('/driver/orders'));
  await expect(page.getByRole('heading', { level: 1, name: 'Mi ruta de hoy' })).toBeVisible();
  await expect(page.getByText('Hoy no tienes domicilios asignados.')).toBeVisible();

  await page.getByRole('group', { name: 'Día' }).getByRole('button', { name: 'Mañana' }).click();
  await expect(page).toHaveURL(/\/driver\/orders\?dia=manana$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Mi ruta de mañana' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Mañana' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('heading', { level: 2, name: /Lucía Mañana/ })).toBeVisible();
  await expect(page.getByText('Carrera 7 # 45-10')).toBeVisible();
  await expectNoSeriousAxeViolations(page, "the driver's route of tomorrow");
  await shotsAtBothWidths(page, 'driver-tomorrow', { back: { width: 375, height: 800 } });

  // A reload keeps the day chosen; «Hoy» goes back.
  await page.reload();
  await expect(page.getByRole('heading', { level: 2, name: /Lucía Mañana/ })).toBeVisible();
  await page.getByRole('button', { name: 'Hoy' }).click();
  await expect(page.getByText('Hoy no tienes domicilios asignados.')).toBeVisible();
});

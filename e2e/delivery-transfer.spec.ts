import { formatMoney } from '@hornada/domain/format';
import { expect, test } from './fixtures';
import { shotsAtBothWidths } from './support/admin-api';
import { dayFromToday, newBakery } from './support/new-bakery';
import { expectNoSeriousAxeViolations, landedOn, signInByApi } from './support/session';

/**
 * A defect: "an unpaid transfer shows 'Nada que cobrar'", at a new bakery: the office's stop and run
 * sheet and the driver's card say "Transferencia sin confirmar: $…", and the driver collects it in cash at the
 * door, which pays the order (now a cash order, in the cash summary).
 */

test('an unpaid transfer is named at the door and the driver collects it in cash', async ({
  page,
  browser,
  request,
}) => {
  test.slow();
  const bakery = await newBakery(request, 'Horno de la Transferencia');
  await bakery.bakesEveryDay();
  const cake = (await bakery.call<{ id: string }>('POST', 'products', { name: 'Torta tres leches', price: 52000 })).id;
  const driverName = 'Camilo Moto';
  const driver = await bakery.user('delivery_assistant', driverName);
  const today = dayFromToday(0);
  const order = await bakery.call<{ id: string; number: number; total: number }>('POST', 'orders', {
    contact: { name: 'Sofía Transferencia', phone: '300 555 0199' },
    items: [{ productId: cake, quantity: 1 }],
    fulfillment: 'delivery',
    address: { line: 'Calle 53 # 13-40', city: 'Bogotá' },
    dueDate: today,
    paymentMethod: 'transfer',
    deliveryAssistantId: driver.id,
  });
  await bakery.call('PATCH', `orders/${order.id}`, { status: 'confirmed' });
  await bakery.call('PATCH', `orders/${order.id}`, { status: 'in_production' });
  await bakery.call('PATCH', `orders/${order.id}`, { producedQuantities: { [cake]: 1 }, status: 'ready' });
  const owed = `Transferencia sin confirmar: ${formatMoney(order.total)}`;

  // The office: the stop and the printed run sheet.
  await signInByApi(page, bakery.email, bakery.password);
  await expect(page).toHaveURL(landedOn('/dashboard/orders'));
  await page.goto(`/dashboard/orders/delivery?date=${today}`);
  await expect(page.getByRole('heading', { name: 'Domicilios', level: 1 })).toBeVisible();
  const stop = page.locator(`[data-stop="${order.number}"]`);
  await expect(stop).toContainText(owed);
  await expect(stop).not.toContainText('Nada que cobrar');
  await expectNoSeriousAxeViolations(page, 'domicilios con una transferencia sin confirmar');
  await shotsAtBothWidths(page, 'delivery-transfer-office');
  await page.getByRole('button', { name: 'Hoja de ruta' }).click();
  const sheet = page.getByRole('dialog', { name: `Hoja de ruta de ${driverName}` });
  await expect(sheet).toContainText(owed);
  await expectNoSeriousAxeViolations(page, 'hoja de ruta con una transferencia sin confirmar');

  // The driver's phone: the same words, then the cash taken at the door.
  const phone = await browser.newContext({ viewport: { width: 375, height: 800 }, hasTouch: true });
  const driverPage = await phone.newPage();
  await signInByApi(driverPage, driver.email, driver.password);
  await expect(driverPage).toHaveURL(landedOn('/driver/orders'));
  const card = driverPage.locator(`[data-stop="${order.number}"]`);
  await expect(card).toContainText(owed);
  await card.getByRole('button', { name: 'En camino' }).click();
  const cash = card.getByRole('textbox', { name: 'Efectivo recibido' });
  await expect(cash).toHaveValue('');
  await expect(cash).toHaveAccessibleDescription(/si ya transfirió, déjalo vacío/);
  await expectNoSeriousAxeViolations(driverPage, 'tarjeta del repartidor, transferencia sin confirmar');
  await shotsAtBothWidths(driverPage, 'delivery-transfer-driver', { back: { width: 375, height: 800 } });
  await cash.fill(String(order.total));
  await card.getByRole('button', { name: 'Entregado' }).click();
  await expect(card).toContainText(`Entregado · Recibido ${formatMoney(order.total)}`);

  // The server took the cash as the payment: paid, in cash, counted in the driver's cash.
  await expect
    .poll(async () => {
      const o = await bakery.call<{ paymentStatus: string; paymentMethod: string }>('GET', `orders/${order.id}`);
      return [o.paymentStatus, o.paymentMethod];
    })
    .toEqual(['paid', 'cash']);
  await driverPage.goto('/driver/summary');
  await expect(driverPage.getByText(formatMoney(order.total)).first()).toBeVisible();
  await phone.close();
});

import { formatMoney } from '@hornada/domain/format';
import { expect, test } from './fixtures';
import { shotsAtBothWidths } from './support/admin-api';
import { dayFromToday, newBakery, unique } from './support/new-bakery';
import { productAndSlot } from './support/order-slots';
import { mailed } from './support/outbox';
import {
  apiToken,
  DEMO,
  expectNoSeriousAxeViolations,
  landedOn,
  marketCompanyId,
  signInByApi,
} from './support/session';

/**
 * Refunds, cash and payment texts of the "Second bakery" issue: a partial refund of a cash order, whose dialog
 * says the bakery gives the cash back (not the gateway) and whose customer is mailed; the driver's cash still to
 * collect after one stop is collected; a cancelled online order that never says its payment is in progress.
 */

test('the owner refunds part of a cash order: the bakery gives the cash back, the order lists it, the customer is mailed', async ({
  page,
  request,
}) => {
  test.slow();
  const bakery = await newBakery(request, 'Horno de la Devolución');
  await bakery.bakesEveryDay();
  const bread = (await bakery.call<{ id: string }>('POST', 'products', { name: 'Pan de bono', price: 4000 })).id;
  const email = `${unique('cliente')}@hornada.test`;
  const order = await bakery.call<{ id: string; number: number; total: number }>('POST', 'orders', {
    contact: { name: 'Lucía Gómez', phone: '300 555 0177', email },
    items: [{ productId: bread, quantity: 5 }],
    fulfillment: 'pickup',
    dueDate: dayFromToday(0),
    paymentMethod: 'cash',
  });
  await bakery.call('PATCH', `orders/${order.id}`, { status: 'confirmed' });
  await bakery.call('PATCH', `orders/${order.id}`, { paymentStatus: 'paid' });
  expect(order.total).toBe(20_000);

  await signInByApi(page, bakery.email, bakery.password);
  await expect(page).toHaveURL(landedOn('/dashboard/orders'));
  await page.goto(`/dashboard/orders?order=${encodeURIComponent(order.id)}`);
  const panel = page.getByRole('dialog', { name: `Pedido #${order.number}` });
  await panel.getByRole('button', { name: 'Registrar reembolso' }).click();
  const ask = page.getByRole('alertdialog', { name: `¿Registrar el reembolso del pedido #${order.number}?` });
  await expect(ask).toBeVisible();
  // The whole of what was paid at first; cash goes back from the bakery's till, never "por la pasarela".
  await expect(ask.getByLabel('Valor a reembolsar')).toHaveValue('20000');
  await expect(ask).toContainText(`Devuelve ${formatMoney(20_000)} en efectivo al cliente.`);
  await expect(ask).not.toContainText('pasarela');
  await ask.getByLabel('Valor a reembolsar').fill('25000');
  await ask.getByLabel('Motivo del reembolso').fill('Un pan llegó quemado');
  await ask.getByRole('button', { name: 'Registrar reembolso' }).click();
  await expect(ask).toContainText(`Escribe un valor entre ${formatMoney(1)} y ${formatMoney(20_000)}.`);
  await ask.getByLabel('Valor a reembolsar').fill('4.000');
  await expect(ask).toContainText(`Devuelve ${formatMoney(4_000)} en efectivo al cliente.`);
  await expectNoSeriousAxeViolations(page, 'reembolso parcial');
  await shotsAtBothWidths(page, 'partial-refund-dialog', { fullPage: false });
  await ask.getByRole('button', { name: 'Registrar reembolso' }).click();
  await expect(ask).toBeHidden();

  // The order lists the refund and stays paid: 16,000 are left to refund.
  const refunds = panel.getByRole('region', { name: 'Reembolsos' });
  await expect(refunds).toContainText(`Reembolsado: ${formatMoney(4_000)} de ${formatMoney(20_000)}`);
  await expect(refunds).toContainText('Un pan llegó quemado');
  await expect(panel).toContainText('Pagado');
  await shotsAtBothWidths(page, 'partial-refund-order');

  const mail = await mailed(request, email, new RegExp(`^Reembolso de tu pedido #${order.number} · `));
  expect(mail.text).toContain(`Registramos un reembolso de ${formatMoney(4_000)} de tu pedido #${order.number}.`);
  expect(mail.text).toContain(`Te devolvemos ${formatMoney(4_000)} en efectivo.`);

  // A second refund offers only what is left.
  await panel.getByRole('button', { name: 'Registrar reembolso' }).click();
  await expect(ask.getByLabel('Valor a reembolsar')).toHaveValue('16000');
  await expect(ask).toContainText(`queda por reembolsar ${formatMoney(16_000)}`);
  await ask.getByRole('button', { name: 'Volver' }).click();
});

test("the driver's cash to collect is what is left once a stop is collected", async ({ page, request }) => {
  test.slow();
  const bakery = await newBakery(request, 'Horno del Domicilio');
  await bakery.bakesEveryDay();
  const bread = (await bakery.call<{ id: string }>('POST', 'products', { name: 'Mogolla', price: 3000 })).id;
  const driver = await bakery.user('delivery_assistant', 'Camilo Ruta');
  const stops: { id: string; total: number }[] = [];
  for (const [i, quantity] of [4, 6].entries()) {
    const order = await bakery.call<{ id: string; total: number }>('POST', 'orders', {
      contact: { name: `Cliente ${i + 1}`, phone: '300 555 0188' },
      items: [{ productId: bread, quantity }],
      fulfillment: 'delivery',
      address: { line: `Calle ${20 + i} # 5-10`, city: 'Bogotá' },
      dueDate: dayFromToday(0),
      paymentMethod: 'cash',
      deliveryAssistantId: driver.id,
    });
    for (const status of ['confirmed', 'in_production', 'ready', 'out_for_delivery']) {
      await bakery.call('PATCH', `orders/${order.id}`, { status });
    }
    stops.push(order);
  }
  const day = stops[0]!.total + stops[1]!.total;
  // The driver collects the first stop's cash at the door.
  const driverToken = await apiToken(request, driver.email, driver.password);
  const collected = await request.patch(`/api/companies/${bakery.companyId}/orders/${stops[0]!.id}`, {
    headers: { authorization: `Bearer ${driverToken}` },
    data: { status: 'delivered', cashCollected: stops[0]!.total },
  });
  expect(collected.status(), await collected.text()).toBe(200);

  await signInByApi(page, driver.email, driver.password);
  await expect(page).toHaveURL(landedOn('/driver/orders'));
  await page.goto('/driver/summary');
  await expect(page.getByRole('heading', { name: 'Resumen del día', level: 1 })).toBeVisible();
  const toCollect = page.locator('dl > div').filter({ has: page.getByText('Efectivo por cobrar', { exact: true }) });
  await expect(toCollect.getByRole('definition').first()).toHaveText(formatMoney(stops[1]!.total));
  await expect(toCollect).toContainText(`de ${formatMoney(day)} del día`);
  await expectNoSeriousAxeViolations(page, 'resumen del repartidor');
  await shotsAtBothWidths(page, 'driver-cash-left');
});

test('a cancelled online order never says its payment is in progress, in the shop nor in the office', async ({
  page,
  request,
}) => {
  test.slow();
  const companyId = await marketCompanyId(request);
  const { product, day, window } = await productAndSlot(request, companyId, 1);
  const session = unique('online')
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(0, 20)
    .padEnd(20, 'x');
  const holder = { 'x-session-id': session };
  const cart = await request.post('/api/carts', {
    headers: holder,
    data: { companyId, items: [{ productId: product.id, quantity: Math.ceil(20_000 / product.price) + 1 }] },
  });
  expect(cart.status(), await cart.text()).toBe(201);
  const cartId = ((await cart.json()) as { data: { id: string } }).data.id;
  const placed = await request.post(`/api/carts/${cartId}/checkout`, {
    headers: { ...holder, 'idempotency-key': `online-${session}` },
    data: {
      contact: { name: 'Tomás Ríos', phone: '311 555 0190', email: null },
      fulfillment: 'pickup',
      address: null,
      dueDate: day,
      window,
      paymentMethod: 'online',
      notes: null,
    },
  });
  expect(placed.status(), await placed.text()).toBe(201);
  const order = ((await placed.json()) as { data: { id: string; number: number; accessToken: string } }).data;
  const admin = await apiToken(request, DEMO.admin);
  const cancelled = await request.patch(`/api/companies/${companyId}/orders/${order.id}`, {
    headers: { authorization: `Bearer ${admin}` },
    data: { status: 'cancelled', cancelReason: 'El cliente no completó el pago' },
  });
  expect(cancelled.status(), await cancelled.text()).toBe(200);
  expect(((await cancelled.json()) as { data: { paymentStatus: string } }).data.paymentStatus).toBe('pending');

  // The shop's order page.
  await page.goto(`/respuesta-de-pago?pedido=${encodeURIComponent(order.accessToken)}`);
  await expect(page.getByRole('heading', { level: 1, name: `Pedido #${order.number}` })).toBeVisible();
  await expect(page.getByText('Este pedido ya no espera un pago')).toBeVisible();
  await expect(page.getByText('Sin cobro')).toBeVisible();
  await expect(page.getByText(/Pago en proceso|Tu pago está en proceso/)).toHaveCount(0);
  await shotsAtBothWidths(page, 'cancelled-online-order');

  // The office: the list and the order itself.
  await signInByApi(page, DEMO.admin);
  await expect(page).toHaveURL(landedOn('/dashboard/orders'));
  await page.goto(`/dashboard/orders?q=%23${order.number}&order=${encodeURIComponent(order.id)}`);
  const panel = page.getByRole('dialog', { name: `Pedido #${order.number}` });
  await expect(panel.getByText('Sin cobro', { exact: true })).toBeVisible();
  // Its chips never say it (its history still tells the attempt that was pending: "Sin pagar → Pago en proceso").
  await expect(panel.getByText('Pago en proceso', { exact: true })).toHaveCount(0);
  const row = page
    .getByRole('table', { name: 'Pedidos' })
    .getByRole('row')
    .filter({ hasText: `#${order.number}` });
  // The row's chip for phones and the one for wider screens.
  await expect(row.getByText('Sin cobro', { exact: true })).toHaveCount(2);
  await expect(row.getByText('Pago en proceso', { exact: true })).toHaveCount(0);
  await expectNoSeriousAxeViolations(page, 'pedido en línea cancelado');
});

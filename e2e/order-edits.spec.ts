import { formatMoney } from '@hornada/domain/format';
import { expect, test } from './fixtures';
import { DEMO_MINIMUM_ORDER } from './support/guest-checkout';
import { placeWebOrder } from './support/order-slots';
import { mailedText } from './support/outbox';
import {
  accountButton,
  apiToken,
  DEMO,
  expectNoSeriousAxeViolations,
  marketCompanyId,
  shot,
  signInByApi,
} from './support/session';

/**
 * A customer phones to add to an order they placed; staff add a line from the order's
 * panel; the server prices it, writes the history and mails the customer; the customer's history shows the
 * new total and the change.
 */
test('staff add a line to a placed order; the customer sees the new total and the change', async ({
  page,
  browser,
  playwright,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const api = await playwright.request.newContext({ baseURL });
  const companyId = await marketCompanyId(api);
  const customer = await apiToken(api, DEMO.customer);
  const order = await placeWebOrder(api, companyId, {
    token: customer,
    contact: { name: 'Ana María de la Torre', phone: '310 555 0123', email: null },
    address: { line: 'Calle 80 # 11-20', neighborhood: 'El Lago', city: 'Bogotá', notes: null },
    minimum: DEMO_MINIMUM_ORDER,
  });

  // Staff open the order's panel and add two of another product.
  await signInByApi(page, DEMO.staff);
  await expect(accountButton(page, 'Julián')).toBeVisible();
  await page.goto(`/dashboard/orders?order=${order.id}`);
  const panel = page.getByRole('dialog', { name: `Pedido #${order.number}` });
  await expect(panel).toBeVisible();
  await panel.getByRole('button', { name: 'Editar pedido' }).click();
  const form = panel.getByRole('form', { name: `Editar el pedido #${order.number}` });
  const add = form.getByLabel('Agregar producto');
  await expect(add.locator('option').nth(1)).toBeAttached();
  const choice = (await add.locator('option').nth(1).textContent())!;
  const added = choice.split(' · ')[0]!;
  const addedPrice = Number(choice.split(' · ')[1]!.replace(/\D/g, ''));
  await add.selectOption({ index: 1 });
  await form.getByLabel('Cantidad', { exact: true }).fill('2');
  await form.getByRole('button', { name: 'Agregar' }).click();
  await expect(form).toContainText(added);
  await page.setViewportSize({ width: 375, height: 800 });
  await form.scrollIntoViewIfNeeded();
  await page.screenshot({ path: shot('order-edit-375.png') });
  await page.setViewportSize({ width: 1280, height: 800 });
  await expectNoSeriousAxeViolations(page, 'order editor');
  await form.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Pedido #${order.number} actualizado.` })).toBeVisible();
  const newTotal = order.total + 2 * addedPrice;
  await expect(panel).toContainText(formatMoney(newTotal));
  const history = panel.getByRole('list', { name: `Historial del pedido #${order.number}` });
  await expect(history).toContainText(`Total: ${formatMoney(order.total)} → ${formatMoney(newTotal)}`);
  await expect(history).toContainText('Julián');

  // The customer is told by mail, signed by the bakery.
  const mail = await mailedText(api, DEMO.customer, new RegExp(`^Actualizamos tu pedido #${order.number} · `));
  expect(mail).toContain(`2 × ${added}`);
  expect(mail).toContain(`Total: ${formatMoney(newTotal)}`);

  // The customer's history: the new total and the change.
  const context = await browser.newContext();
  const mine = await context.newPage();
  await signInByApi(mine, DEMO.customer);
  await expect(accountButton(mine, 'Ana')).toBeVisible();
  await mine.goto('/customer/history');
  const card = mine
    .getByRole('list', { name: 'Tus pedidos' })
    .getByRole('article', { name: `Pedido #${order.number}` });
  await expect(card).toContainText(formatMoney(newTotal));
  await card.getByRole('button', { name: 'Ver detalle' }).click();
  await expect(card.getByRole('list', { name: `Productos del pedido #${order.number}` })).toContainText(added);
  const changes = card.getByRole('list', { name: `Historial del pedido #${order.number}` });
  await expect(changes).toContainText(`Total: ${formatMoney(order.total)} → ${formatMoney(newTotal)}`);
  await mine.setViewportSize({ width: 375, height: 800 });
  await changes.scrollIntoViewIfNeeded();
  await mine.screenshot({ path: shot('customer-history-edited-375.png') });
  await context.close();
  await api.dispose();
});

import type { Page } from '@playwright/test';
import { formatMoney } from '@hornada/domain/format';
import { expect, test } from './fixtures';
import { dayFromToday, newBakery } from './support/new-bakery';
import { expectNoSeriousAxeViolations, landedOn, shot, signInByApi } from './support/session';

/**
 * A defect: "the sales report ignores refunds on screen", at a new bakery: of three orders of the day,
 * one paid and refunded, the screen's sales are the other two, the refund is its own figure with its count,
 * and the refunded product is not among the products sold.
 */

const figure = (page: Page, label: string) =>
  page.locator('dl[aria-label="Totales del periodo"] > div').filter({ has: page.getByText(label, { exact: true }) });

test('the sales report counts sales net of refunds and shows the refunds apart', async ({ page, request }) => {
  test.slow();
  const bakery = await newBakery(request, 'Horno del Reembolso');
  await bakery.bakesEveryDay();
  const bread = (await bakery.call<{ id: string }>('POST', 'products', { name: 'Pan de yuca', price: 6000 })).id;
  const cake = (await bakery.call<{ id: string }>('POST', 'products', { name: 'Torta de mora', price: 52000 })).id;
  const today = dayFromToday(0);
  const paid = await bakery.confirmedOrder(today, [{ productId: bread, quantity: 2 }]);
  const refunded = await bakery.confirmedOrder(today, [{ productId: cake, quantity: 1 }]);
  await bakery.confirmedOrder(today, [{ productId: bread, quantity: 1 }]);
  for (const id of [paid, refunded]) await bakery.call('PATCH', `orders/${id}`, { paymentStatus: 'paid' });
  await bakery.call('PATCH', `orders/${refunded}`, {
    paymentStatus: 'refunded',
    refundReason: 'La torta llegó dañada',
  });

  await signInByApi(page, bakery.email, bakery.password);
  await expect(page).toHaveURL(landedOn('/dashboard/orders'));
  await page.goto(`/dashboard/salesReport?desde=${today}&hasta=${today}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Ventas' })).toBeVisible();
  // 3 pan de yuca sold (18,000), 12,000 of them paid; the 52,000 torta was refunded.
  await expect(figure(page, 'Ventas netas').getByRole('definition').first()).toHaveText(formatMoney(18_000));
  await expect(figure(page, 'Pedidos').getByRole('definition').first()).toHaveText('2');
  await expect(figure(page, 'Ticket promedio').getByRole('definition').first()).toHaveText(formatMoney(9_000));
  const refunds = figure(page, 'Reembolsos');
  await expect(refunds.getByRole('definition').first()).toHaveText(formatMoney(52_000));
  await expect(refunds).toContainText('1 pedido reembolsado');
  const products = page.getByRole('region', { name: 'Productos más vendidos' });
  await expect(products).toContainText('Pan de yuca');
  await expect(products).not.toContainText('Torta de mora');
  await expectNoSeriousAxeViolations(page, 'informe de ventas con un reembolso');
  await page.screenshot({ path: shot('sales-refunds-1280.png'), fullPage: true });

  await page.setViewportSize({ width: 375, height: 812 });
  await expect(refunds).toContainText('1 pedido reembolsado');
  // Polled: the chart lays itself out again after the resize.
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth))
    .toBe(0);
  await expectNoSeriousAxeViolations(page, 'informe de ventas con un reembolso (375 px)');
  await page.screenshot({ path: shot('sales-refunds-375.png'), fullPage: true });
});

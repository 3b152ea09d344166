import type { ProductionDay } from '@hornada/domain/production';
import { expect, test } from './fixtures';
import { shotsAtBothWidths } from './support/admin-api';
import { dayFromToday, newBakery } from './support/new-bakery';
import { expectNoSeriousAxeViolations, landedOn, signInByApi } from './support/session';

/**
 * At a new bakery: the kitchen tablet counts every tap (15 quick taps are 15, not
 * 1), adds a batch ("+ lote", the recipe's yield) and "Todo listo" per product, keeps taps made without
 * signal and sends them when it returns, and looks at tomorrow as well as today.
 */

test.use({ hasTouch: true, viewport: { width: 1024, height: 768 } });

test('every tap on the kitchen tablet counts; a batch, «Todo listo», no signal and tomorrow', async ({
  page,
  request,
  expectConsoleErrors,
}) => {
  test.setTimeout(90_000);
  const bakery = await newBakery(request, 'Horno de la Tableta');
  const bono = (await bakery.call<{ id: string }>('POST', 'products', { name: 'Pandebono', price: 1500 })).id;
  const almojabana = (await bakery.call<{ id: string }>('POST', 'products', { name: 'Almojábana', price: 1800 })).id;
  await bakery.call('POST', 'recipes', { name: 'Masa de pandebono', productId: bono, yield: 6 });
  await bakery.bakesEveryDay();
  const today = dayFromToday(0);
  const tomorrow = dayFromToday(1);
  const first = await bakery.confirmedOrder(today, [
    { productId: bono, quantity: 10 },
    { productId: almojabana, quantity: 4 },
  ]);
  const second = await bakery.confirmedOrder(today, [{ productId: bono, quantity: 14 }]);
  await bakery.confirmedOrder(tomorrow, [{ productId: almojabana, quantity: 5 }]);
  const production = async (date: string) =>
    (await bakery.call<ProductionDay>('GET', `production?date=${date}&include=orders`)) as ProductionDay;

  const baker = await bakery.user('production_assistant', 'Rosa Tableta');
  await signInByApi(page, baker.email, baker.password);
  await expect(page).toHaveURL(landedOn('/production/orders'));
  await expect(page.getByRole('heading', { level: 1, name: 'Qué hornear hoy' })).toBeVisible();
  const card = (id: string) => page.locator(`li[data-product="${id}"]`);
  const bar = (id: string) => card(id).getByRole('progressbar');
  await expect(card(bono)).toContainText('0 de 24');

  // Fifteen quick taps, as a finger makes them: each one counts, on the tablet at once and then on the server.
  await card(bono)
    .getByRole('button', { name: 'Sumar una unidad de Pandebono' })
    .evaluate((button: HTMLButtonElement) => {
      for (let i = 0; i < 15; i++) button.click();
    });
  await expect(bar(bono)).toHaveAttribute('aria-valuenow', '15');
  await expect(card(bono)).toContainText('15 de 24');
  await expect
    .poll(async () => (await production(today)).products.find((p) => p.productId === bono)?.produced)
    .toBe(15);
  // The first order (due first) took its 10 and is ready; the second has the other 5.
  const orders = (await production(today)).orders!;
  expect(orders.find((o) => o.id === first)!.producedQuantities[bono]).toBe(10);
  expect(orders.find((o) => o.id === second)!).toMatchObject({
    status: 'in_production',
    producedQuantities: { [bono]: 5 },
  });
  await expectNoSeriousAxeViolations(page, 'the tablet after 15 taps');
  await shotsAtBothWidths(page, 'kitchen-tablet-today', { back: { width: 1024, height: 768 } });

  // A batch is the recipe's yield; «Todo listo» is what is left.
  await card(bono).getByRole('button', { name: 'Sumar un lote (6) de Pandebono' }).click();
  await expect(card(bono)).toContainText('21 de 24');
  await card(bono).getByRole('button', { name: 'Todo listo: Pandebono' }).click();
  await expect(card(bono)).toContainText('24 de 24');
  await expect(card(bono).getByRole('button', { name: 'Sumar una unidad de Pandebono' })).toBeDisabled();
  // A product without a recipe has no batch button.
  await expect(card(almojabana).getByRole('button', { name: /lote/ })).toHaveCount(0);
  await card(almojabana).getByRole('button', { name: 'Todo listo: Almojábana' }).click();
  await expect(card(almojabana)).toContainText('4 de 4');
  await expect
    .poll(async () => (await production(today)).orders!.map((o) => o.status).sort())
    .toEqual(['ready', 'ready']);
  const done = await production(today);
  expect(done.products.map((p) => [p.name, p.produced])).toEqual([
    ['Almojábana', 4],
    ['Pandebono', 24],
  ]);

  // Tomorrow's baking, for a bakery that bakes tonight.
  await page.getByRole('group', { name: 'Día' }).getByRole('button', { name: 'Mañana' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Qué hornear mañana' })).toBeVisible();
  await expect(page).toHaveURL(/\?dia=manana$/);
  await expect(card(bono)).toHaveCount(0);
  await expect(card(almojabana)).toContainText('0 de 5');

  // Without signal the taps stay on the tablet and go when it returns.
  expectConsoleErrors(/net::ERR_INTERNET_DISCONNECTED/, /ERR_NETWORK_CHANGED/);
  await page.context().setOffline(true);
  const addOne = card(almojabana).getByRole('button', { name: 'Sumar una unidad de Almojábana' });
  await addOne.click();
  await addOne.click();
  await expect(card(almojabana)).toContainText('2 de 5 · 2 por enviar');
  await expect(page.getByRole('status').filter({ hasText: 'Sin conexión' })).toBeVisible();
  await expectNoSeriousAxeViolations(page, 'the tablet without signal, tomorrow');
  await shotsAtBothWidths(page, 'kitchen-tablet-tomorrow-offline', { back: { width: 1024, height: 768 } });
  await page.context().setOffline(false);
  await expect
    .poll(async () => (await production(tomorrow)).products.find((p) => p.productId === almojabana)?.produced, {
      timeout: 15_000,
    })
    .toBe(2);
  await expect(page.getByRole('status').filter({ hasText: 'Sin conexión' })).toHaveCount(0);
  await expect(card(almojabana)).toContainText('2 de 5');
  // Back to today: what was made stays.
  await page.getByRole('group', { name: 'Día' }).getByRole('button', { name: 'Hoy' }).click();
  await expect(card(bono)).toContainText('24 de 24');
});

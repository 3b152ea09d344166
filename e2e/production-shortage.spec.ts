import { expect, test } from './fixtures';
import { shotsAtBothWidths } from './support/admin-api';
import { dayFromToday, newBakery } from './support/new-bakery';
import { expectNoSeriousAxeViolations, landedOn, signInByApi } from './support/session';

/**
 * A defect: "shortages after baking count the used stock twice", at a new bakery: a shortage is what
 * the rest of the day's baking needs beyond the stock, so none once everything is made; stock that went
 * below zero is said as such ("Inventario negativo: revisa el conteo").
 */

test('the grouped day’s shortage is what is left to bake, and negative stock is said', async ({ page, request }) => {
  test.slow();
  const bakery = await newBakery(request, 'Horno de la Mantequilla');
  await bakery.bakesEveryDay();
  const butter = (
    await bakery.call<{ id: string }>('POST', 'ingredients', { name: 'Mantequilla', unit: 'kg', stock: 0.5 })
  ).id;
  const croissant = (await bakery.call<{ id: string }>('POST', 'products', { name: 'Croissant', price: 4000 })).id;
  await bakery.call('POST', 'recipes', {
    name: 'Masa de croissant',
    productId: croissant,
    yield: 10,
    items: [{ ingredientId: butter, quantity: 400, unit: 'g' }],
  });
  const today = dayFromToday(0);
  const order = await bakery.confirmedOrder(today, [{ productId: croissant, quantity: 20 }]);

  await signInByApi(page, bakery.email, bakery.password);
  await expect(page).toHaveURL(landedOn('/dashboard/orders'));
  await page.goto(`/dashboard/orders/production/grouped?date=${today}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Producción agrupada' })).toBeVisible();
  // Two batches take 0.8 kg against 0.5 kg.
  const row = page.getByRole('row').filter({ hasText: 'Mantequilla' });
  await expect(row).toContainText('Faltan 0,3 kg de mantequilla');

  // Everything is baked: production took 0.8 kg, the stock is −0.3 kg, and nothing is left to bake.
  await bakery.call('PATCH', `orders/${order}`, { status: 'in_production' });
  await bakery.call('PATCH', `orders/${order}`, { producedQuantities: { [croissant]: 20 }, status: 'ready' });
  await expect(row).toContainText('Inventario negativo: revisa el conteo');
  await expect(row).not.toContainText('Faltan');
  await expect(row).toContainText('-0,3 kg');
  await expectNoSeriousAxeViolations(page, 'grouped day, all baked, negative stock');
  await shotsAtBothWidths(page, 'production-shortage-baked');
});

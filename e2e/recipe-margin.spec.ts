import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { ownAppUrl } from './support/apps';
import { shotsAtBothWidths } from './support/admin-api';
import { dayFromToday, newBakery, type NewBakery } from './support/new-bakery';
import { expectNoSeriousAxeViolations, landedOn, signInByApi } from './support/session';

/**
 * Issue "Second bakery", recipes and production, at a new bakery: a recipe linked from its products only
 * shows them with their price and margin against the target (and one no product uses says so); quantities
 * read in es-CO with their unit agreeing ("0,5 kg", "30 unidades"); Producción agrupada fits a 375 px
 * phone and its navigation lights one link only.
 */

let api: APIRequestContext;
let bakery: NewBakery;
let dough: string;
let lonely: string;
let mogolla: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ playwright }) => {
  api = await playwright.request.newContext({ baseURL: ownAppUrl() });
  bakery = await newBakery(api, 'Horno de las Mogollas');
  await bakery.bakesEveryDay();
  const flour = (
    await bakery.call<{ id: string }>('POST', 'ingredients', {
      name: 'Harina',
      unit: 'kg',
      costPerUnit: 3000,
      stock: 0.5,
    })
  ).id;
  const eggs = (
    await bakery.call<{ id: string }>('POST', 'ingredients', {
      name: 'Huevos',
      unit: 'unidad',
      costPerUnit: 0,
      stock: 30,
    })
  ).id;
  // The recipe names no product: the products keep the link (their recipeId), as the product form makes it.
  dough = (
    await bakery.call<{ id: string }>('POST', 'recipes', {
      name: 'Masa de mogolla',
      yield: 10,
      items: [
        { ingredientId: flour, quantity: 1 },
        { ingredientId: eggs, quantity: 4 },
      ],
    })
  ).id;
  lonely = (
    await bakery.call<{ id: string }>('POST', 'recipes', {
      name: 'Masa de ensayo',
      yield: 10,
      items: [{ ingredientId: flour, quantity: 0.5 }],
    })
  ).id;
  mogolla = (await bakery.call<{ id: string }>('POST', 'products', { name: 'Mogolla', price: 500, recipeId: dough }))
    .id;
  await bakery.call('POST', 'products', { name: 'Calado', price: 3000, recipeId: dough });
});
test.afterAll(async () => {
  await api?.dispose();
});

async function signInOwner(page: Page) {
  await signInByApi(page, bakery.email, bakery.password);
  await expect(page).toHaveURL(landedOn('/dashboard/orders'));
}

test('a recipe shows the products made from it, each with its price and its margin against the target', async ({
  page,
}) => {
  test.slow();
  await signInOwner(page);
  await page.goto('/dashboard/recipes');
  const row = page.getByTestId('recipe-row').filter({ hasText: 'Masa de mogolla' });
  // $300 a unit: 90 % of the Calado's $3,000, 40 % of the Mogolla's $500 (under the target of 60 %).
  const products = row.getByTestId('recipe-product');
  await expect(products).toHaveCount(2);
  await expect(products.nth(0)).toContainText('Calado');
  await expect(products.nth(0)).toContainText('$3,000 · margen 90,0 %');
  await expect(products.nth(1)).toContainText('Mogolla');
  await expect(products.nth(1)).toContainText('$500 · margen 40,0 %');
  await expect(row.getByTestId('recipe-cost')).toHaveText('$300');
  await expect(row.getByTestId('recipe-margin')).toContainText('40,0 %');
  await expect(row.getByTestId('recipe-margin')).toContainText('el más bajo');
  await expect(page.getByText('Margen objetivo: 60,0 % · 1 receta por debajo')).toBeVisible();
  const lonelyRow = page.getByTestId('recipe-row').filter({ hasText: 'Masa de ensayo' });
  await expect(lonelyRow.getByTestId('recipe-products')).toHaveText('Ningún producto la usa');
  await expect(lonelyRow.getByTestId('recipe-margin')).toHaveText('—');
  await expectNoSeriousAxeViolations(page, 'recipes with their products');
  await shotsAtBothWidths(page, 'recipe-margin-list');

  // The form says the same, and which product falls under the target.
  await row.getByRole('link', { name: 'Masa de mogolla', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Editar receta' })).toBeVisible();
  const made = page.getByTestId('recipe-product');
  await expect(made).toHaveCount(2);
  await expect(made.nth(0)).toContainText('Calado');
  await expect(made.nth(0)).toContainText('$3,000');
  await expect(made.nth(0)).toContainText('90,0 %');
  await expect(made.nth(1)).toContainText('Mogolla');
  await expect(made.nth(1)).toContainText('bajo el objetivo');
  await expect(page.getByTestId('margin')).toHaveText('40,0 %');
  await expect(
    page.getByRole('status').filter({ hasText: 'Por debajo del objetivo (60,0 %): Mogolla (40,0 %).' }),
  ).toBeVisible();
  await expectNoSeriousAxeViolations(page, 'recipe form with its products');
  await shotsAtBothWidths(page, 'recipe-margin-form');

  // A recipe no product uses says so, rather than a margin.
  await page.goto(`/dashboard/recipes/update/${lonely}`);
  await expect(page.getByTestId('cost-per-unit')).toHaveText('$150');
  await expect(page.getByTestId('recipe-no-products')).toContainText('Ningún producto usa esta receta');
  await expect(page.getByTestId('margin')).toHaveText('—');

  // Quantities in es-CO, their unit agreeing with the number.
  await page.goto('/dashboard/ingredients');
  await expect(page.getByRole('row').filter({ hasText: 'Harina' }).getByTestId('ingredient-stock')).toHaveText(
    /^0,5 kg/,
  );
  await expect(page.getByRole('row').filter({ hasText: 'Huevos' }).getByTestId('ingredient-stock')).toHaveText(
    /^30 unidades/,
  );
});

test('Producción agrupada fits a phone, says quantities in es-CO and lights one link of the navigation', async ({
  page,
}) => {
  test.slow();
  const today = dayFromToday(0);
  await bakery.confirmedOrder(today, [{ productId: mogolla, quantity: 30 }]);
  await signInOwner(page);
  await page.goto(`/dashboard/orders/production/grouped?date=${today}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Producción agrupada' })).toBeVisible();
  const row = page.locator('tr[data-product]').filter({ hasText: 'Mogolla' });
  await expect(row).toContainText('30');
  // 3 batches of 1 kg against 0,5 kg; 12 eggs of 30.
  const flour = page.getByRole('row').filter({ hasText: 'Harina' });
  await expect(flour).toContainText('Faltan 2,5 kg de harina');
  await expect(flour).toContainText('3 kg');
  await expect(flour).toContainText('0,5 kg');
  const eggs = page.getByRole('row').filter({ hasText: 'Huevos' });
  await expect(eggs).toContainText('12 unidades');
  await expect(eggs).toContainText('30 unidades');
  await expect(eggs).toContainText('Alcanza');

  const current = page.getByRole('navigation').locator('[aria-current="page"]');
  await expect(current).toHaveCount(1);
  await expect(current).toHaveText('Producción agrupada');
  await expect(page.getByRole('navigation').getByRole('link', { name: 'Pedidos', exact: true })).not.toHaveAttribute(
    'aria-current',
    'page',
  );
  await expectNoSeriousAxeViolations(page, 'producción agrupada');
  // Fits 375 px: shotsAtBothWidths checks the page's scroll width.
  await shotsAtBothWidths(page, 'recipe-margin-production-grouped');
  await page.setViewportSize({ width: 375, height: 812 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await expect(row.getByRole('progressbar')).toBeVisible();
  await page.setViewportSize({ width: 1280, height: 900 });

  await page.goto(`/dashboard/orders/production/single?date=${today}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Producción por pedido' })).toBeVisible();
  await expect(current).toHaveCount(1);
  await expect(current).toHaveText('Producción por pedido');
  await page.goto('/dashboard/orders');
  await expect(current).toHaveCount(1);
  await expect(current).toHaveText('Pedidos');
});

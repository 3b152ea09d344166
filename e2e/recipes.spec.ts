import type { APIRequestContext, APIResponse, Page } from '@playwright/test';
import { formatMoney } from '@hornada/domain/format';
import { expect, test } from './fixtures';
import { DEMO, apiToken, expectNoSeriousAxeViolations, marketCompanyId, shot, signIn } from './support/session';

/**
 * Ingredients and recipes with costing, signed in as staff: the recipe form's cost and
 * margin follow what is typed and an ingredient's cost changed by someone else, the list sorts by margin
 * and keeps its view, validation speaks Spanish under the field, deletes ask first, axe is clean.
 */

interface Api {
  companyId: string;
  call<T>(method: 'get' | 'post' | 'patch' | 'delete', path: string, data?: unknown): Promise<T>;
  raw(method: 'get' | 'delete', path: string): Promise<APIResponse>;
  dispose(): Promise<void>;
}

async function staffApi(api: APIRequestContext): Promise<Api> {
  const companyId = await marketCompanyId(api);
  const token = await apiToken(api, DEMO.staff);
  return {
    companyId,
    async call<T>(method: 'get' | 'post' | 'patch' | 'delete', path: string, data?: unknown) {
      const res = await api.fetch(`/api/companies/${companyId}/${path}`, {
        method: method.toUpperCase(),
        headers: { authorization: `Bearer ${token}` },
        ...(data === undefined ? {} : { data }),
      });
      expect(res.ok(), `${method} ${path}: ${await res.text()}`).toBe(true);
      return res.status() === 204 ? (undefined as T) : ((await res.json()) as { data: T }).data;
    },
    raw: (method, path) =>
      api.fetch(`/api/companies/${companyId}/${path}`, {
        method: method.toUpperCase(),
        headers: { authorization: `Bearer ${token}` },
      }),
    dispose: () => api.dispose(),
  };
}

const suffix = () => Math.random().toString(36).slice(2, 8);

/** A product of the demo with its price, an ingredient in kg and a recipe of ours: 1000 g of it for 10 units. */
async function fixture(api: Api) {
  const [product] = await api.call<{ id: string; name: string; price: number }[]>(
    'get',
    'products?sort=-price&per_page=1',
  );
  const ingredient = await api.call<{ id: string; name: string }>('post', 'ingredients', {
    name: `Harina E2E ${suffix()}`,
    unit: 'kg',
    costPerUnit: 3000,
    stock: 20,
    minStock: 5,
  });
  const recipe = await api.call<{ id: string; name: string }>('post', 'recipes', {
    name: `Receta E2E ${suffix()}`,
    productId: product!.id,
    yield: 10,
    items: [{ ingredientId: ingredient.id, quantity: 1000, unit: 'g' }],
    steps: ['Mezclar', 'Hornear'],
  });
  return { product: product!, ingredient, recipe };
}

type Made = Awaited<ReturnType<typeof fixture>>;

/** Each test gets the staff's API and its own ingredient and recipe, removed afterwards (if still there). */
const costingTest = test.extend<{ api: Api; made: Made }>({
  api: async ({ playwright, baseURL }, use) => {
    const api = await staffApi(await playwright.request.newContext({ baseURL }));
    await use(api);
    await api.dispose();
  },
  made: async ({ api }, use) => {
    const made = await fixture(api);
    await use(made);
    await api.raw('delete', `recipes/${made.recipe.id}`);
    await api.raw('delete', `ingredients/${made.ingredient.id}`);
  },
});

/** A margin as the screens write it: es-CO, one decimal ("55,0 %"). */
const percentText = (value: number) => `${value.toFixed(1).replace('.', ',')} %`;
const margin = (price: number, cost: number) => percentText(Math.round(((price - cost) / price) * 1000) / 10);

/** Signs in as staff through /login?redirect=…, which then opens `path`. */
async function openAsStaff(page: Page, path: string) {
  await page.goto(`/login?redirect=${path}`);
  await signIn(page, DEMO.staff);
  await page.waitForURL((url) => url.pathname === path);
}

test.describe('recipes with costing', () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  costingTest(
    'the form recalculates cost and margin as you type, follows a new ingredient cost live, and checks in Spanish',
    async ({ page, api, made: { product, ingredient, recipe } }) => {
      await openAsStaff(page, `/dashboard/recipes/update/${recipe.id}`);
      const cost = page.getByTestId('cost-per-unit');
      const marginCell = page.getByTestId('margin');
      // 1 kg × $3,000 / 10 units.
      await expect(cost).toHaveText('$300');
      await expect(marginCell).toHaveText(margin(product.price, 300));
      // The product the recipe is for, with its price and margin.
      const made = page.getByTestId('recipe-product').first();
      await expect(made).toContainText(formatMoney(product.price));
      await expect(made).toContainText(margin(product.price, 300));

      // As you type: the yield, then a quantity in the ingredient's convertible unit.
      await page.getByLabel('Rendimiento por tanda').fill('4');
      await expect(cost).toHaveText('$750');
      await expect(marginCell).toHaveText(margin(product.price, 750));
      await page.getByLabel('Cantidad').fill('1.5');
      await page.getByLabel('Unidad', { exact: true }).selectOption('kg');
      await expect(cost).toHaveText('$1,125');

      // Someone else changes the ingredient's cost: the open form shows the new cost at once.
      await api.call('patch', `ingredients/${ingredient.id}`, { costPerUnit: 6000 });
      await expect(cost).toHaveText('$2,250', { timeout: 5000 });

      // Below the target margin: a warning. 10 kg × $6,000 for one unit.
      await page.getByLabel('Cantidad').fill('10');
      await page.getByLabel('Rendimiento por tanda').fill('1');
      await expect(cost).toHaveText('$60,000');
      await expect(page.getByRole('status').filter({ hasText: 'por debajo del objetivo' })).toBeVisible();
      await expectNoSeriousAxeViolations(page, 'recipe form');
      await page.screenshot({ path: shot('recipe-form-1280.png'), fullPage: true });

      // A validation error under its field, in Spanish.
      const name = page.getByLabel('Nombre');
      await name.fill('');
      await page.getByLabel('Rendimiento por tanda').fill('0');
      await page.getByRole('button', { name: 'Guardar cambios' }).click();
      await expect(page.locator('#recipe-name-error')).toHaveText('Este campo es obligatorio.');
      await expect(name).toHaveAttribute('aria-invalid', 'true');
      await expect(name).toBeFocused();
      await expect(page.locator('#recipe-yield-error')).toHaveText('Debe ser como mínimo 1.');
      // Fixed as you type, once shown.
      await page.getByLabel('Rendimiento por tanda').fill('2.5');
      await expect(page.locator('#recipe-yield-error')).toHaveText('Escribe un número entero.');
      await expectNoSeriousAxeViolations(page, 'recipe form with errors');

      // Saved: the server agrees with the figures shown.
      await name.fill(recipe.name);
      await page.getByLabel('Rendimiento por tanda').fill('12');
      await page.getByRole('button', { name: 'Guardar cambios' }).click();
      await expect(page.getByText(`Guardamos «${recipe.name}».`)).toBeVisible();
      await expect(page).toHaveURL(/\/dashboard\/recipes$/);
      const saved = await api.call<{ costPerUnit: number; margin: number }>('get', `recipes/${recipe.id}`);
      // 10 kg × $6,000 / 12 = $5,000: the list and the server agree.
      expect(saved.costPerUnit).toBe(5000);
      const row = page.getByTestId('recipe-row').filter({ hasText: recipe.name });
      await expect(row.getByTestId('recipe-cost')).toHaveText('$5,000');
      await expect(row.getByTestId('recipe-margin')).toContainText(percentText(saved.margin));
    },
  );

  costingTest(
    'the list shows every cost and margin, sorts least profitable first, keeps the view and follows costs live',
    async ({ page, api, made: { product, ingredient, recipe } }) => {
      await openAsStaff(page, '/dashboard/recipes');
      const rows = page.getByTestId('recipe-row');
      await expect(rows.first()).toBeVisible();
      const ours = rows.filter({ hasText: recipe.name });
      await expect(ours.getByTestId('recipe-cost')).toHaveText('$300');

      // Least profitable first by default; every margin in ascending order.
      const margins = async () =>
        (await rows.getByTestId('recipe-margin').allTextContents()).map((t) => Number.parseFloat(t.replace(',', '.')));
      const asc = await margins();
      expect(asc.length).toBeGreaterThan(5);
      expect(asc).toEqual([...asc].sort((a, b) => a - b));
      await expectNoSeriousAxeViolations(page, 'recipes list');
      await page.screenshot({ path: shot('recipes-list-1280.png'), fullPage: true });

      // Most profitable first, a search, then a reload: the view stays.
      await page.getByRole('button', { name: 'Margen' }).click();
      await expect(page.getByRole('columnheader', { name: 'Margen' })).toHaveAttribute('aria-sort', 'descending');
      const desc = await margins();
      expect(desc).toEqual([...desc].sort((a, b) => b - a));
      await page.getByLabel('Buscar recetas').pressSequentially('receta e2e');
      await expect(rows).toHaveCount(1);
      await expect(page).toHaveURL(/[?&]q=receta(\+|%20)e2e/);
      await page.reload();
      await expect(page.getByLabel('Buscar recetas')).toHaveValue('receta e2e');
      await expect(page.getByRole('columnheader', { name: 'Margen' })).toHaveAttribute('aria-sort', 'descending');
      await expect(rows).toHaveCount(1);

      // An ingredient's cost changed through the API: the row's cost and margin change without a reload.
      await api.call('patch', `ingredients/${ingredient.id}`, { costPerUnit: 4500 });
      await expect(ours.getByTestId('recipe-cost')).toHaveText('$450', { timeout: 5000 });
      await expect(ours.getByTestId('recipe-margin')).toContainText(margin(product.price, 450));
    },
  );

  costingTest('deleting a recipe asks first', async ({ page, api, made: { recipe } }) => {
    await openAsStaff(page, '/dashboard/recipes');
    const row = page.getByTestId('recipe-row').filter({ hasText: recipe.name });
    await expect(row.getByTestId('recipe-cost')).toHaveText('$300');
    await row.getByRole('button', { name: `Eliminar ${recipe.name}` }).click();
    const dialog = page.getByRole('alertdialog', { name: `¿Eliminar «${recipe.name}»?` });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Cancelar' })).toBeFocused();
    await expectNoSeriousAxeViolations(page, 'recipe delete dialog');
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await expect(dialog).toBeHidden();
    await api.call('get', `recipes/${recipe.id}`);

    await expect(row).toBeVisible();
    await row.getByRole('button', { name: `Eliminar ${recipe.name}` }).click();
    await dialog.getByRole('button', { name: 'Eliminar', exact: true }).click();
    await expect(page.getByText(`Eliminamos «${recipe.name}».`)).toBeVisible();
    await expect(row).toHaveCount(0);
    expect((await api.raw('get', `recipes/${recipe.id}`)).status()).toBe(404);
  });

  test('a new recipe shows its cost while it is written', async ({ page, playwright, baseURL }) => {
    const api = await staffApi(await playwright.request.newContext({ baseURL }));
    const ingredient = await api.call<{ id: string; name: string }>('post', 'ingredients', {
      name: `Leche E2E ${suffix()}`,
      unit: 'l',
      costPerUnit: 4000,
    });
    let created: string | null = null;
    try {
      await openAsStaff(page, '/dashboard/recipes/create');
      await page.getByRole('button', { name: 'Crear receta' }).click();
      await expect(page.locator('#recipe-name-error')).toHaveText('Este campo es obligatorio.');
      await expect(page.locator('#recipe-yield-error')).toHaveText('Este campo es obligatorio.');
      const name = `Receta nueva E2E ${suffix()}`;
      await page.getByLabel('Nombre').fill(name);
      await page.getByLabel('Rendimiento por tanda').fill('5');
      await page.getByLabel('Ingrediente 1', { exact: true }).selectOption({ label: ingredient.name });
      await expect(page.getByLabel('Unidad', { exact: true })).toHaveValue('l');
      await page.getByLabel('Unidad', { exact: true }).selectOption('ml');
      await page.getByLabel('Cantidad').fill('250');
      // 0.25 l × $4,000 / 5.
      await expect(page.getByTestId('cost-per-unit')).toHaveText('$200');
      await expect(page.getByTestId('margin')).toHaveText('—');
      await page.getByRole('button', { name: 'Crear receta' }).click();
      await expect(page.getByText(`Creamos la receta «${name}».`)).toBeVisible();
      await expect(page).toHaveURL(/\/dashboard\/recipes$/);
      const row = page.getByTestId('recipe-row').filter({ hasText: name });
      await row.getByRole('link', { name, exact: true }).click();
      await page.waitForURL(/\/dashboard\/recipes\/update\/[^/]+$/);
      created = new URL(page.url()).pathname.split('/').pop()!;
      await expect(page.getByTestId('cost-per-unit')).toHaveText('$200');
    } finally {
      if (created) await api.call('delete', `recipes/${created}`);
      await api.call('delete', `ingredients/${ingredient.id}`);
      await api.dispose();
    }
  });
});

test.describe('ingredients', () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test('create with Spanish checks, low stock marked in the list, search kept on reload, edit, and delete after asking', async ({
    page,
  }) => {
    const name = `Mantequilla E2E ${suffix()}`;
    await openAsStaff(page, '/dashboard/ingredients');
    const rows = page.getByRole('row');
    await expect(rows.filter({ hasText: 'Harina de trigo' })).toBeVisible();
    await expectNoSeriousAxeViolations(page, 'ingredients list');
    await page.screenshot({ path: shot('ingredients-list-1280.png'), fullPage: true });

    await page.getByRole('link', { name: 'Nuevo ingrediente' }).first().click();
    await page.getByRole('button', { name: 'Crear ingrediente' }).click();
    await expect(page.locator('#ingredient-name-error')).toHaveText('Este campo es obligatorio.');
    await page.getByLabel('Costo por kg').fill('abc');
    await page.getByRole('button', { name: 'Crear ingrediente' }).click();
    await expect(page.locator('#ingredient-cost-error')).toHaveText('Escribe un número.');
    await expect(page.locator('#ingredient-name-error')).toHaveText('Este campo es obligatorio.');
    await expectNoSeriousAxeViolations(page, 'ingredient form');
    await page.screenshot({ path: shot('ingredient-form-1280.png'), fullPage: true });

    await page.getByLabel('Nombre').fill(name);
    await page.getByLabel('Unidad').selectOption('g');
    await page.getByLabel('Costo por g').fill('12,5');
    await page.getByLabel('Existencias (g)').fill('400');
    await page.getByLabel('Existencias mínimas (g)').fill('500');
    await page.getByLabel('Proveedor').fill('Lácteos del Valle');
    await page.getByRole('button', { name: 'Crear ingrediente' }).click();
    await expect(page.getByText(`Creamos el ingrediente «${name}».`)).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard\/ingredients$/);

    // Searched on the server; the view stays on reload; low stock is marked.
    await page.getByLabel('Buscar ingredientes').fill(name);
    const row = rows.filter({ hasText: name });
    await expect(row).toContainText('$12.5');
    await expect(row).toContainText('Existencias bajas');
    await expect(page).toHaveURL(/[?&]q=/);
    await page.reload();
    await expect(page.getByLabel('Buscar ingredientes')).toHaveValue(name);
    await expect(row).toContainText('Existencias bajas');

    await row.getByRole('link', { name, exact: true }).click();
    await page.getByLabel('Existencias (g)').fill('900');
    await page.getByRole('button', { name: 'Guardar cambios' }).click();
    await expect(page.getByText(`Guardamos «${name}».`)).toBeVisible();
    await page.getByLabel('Buscar ingredientes').fill(name);
    await expect(row).toBeVisible();
    await expect(row).not.toContainText('Existencias bajas');

    await row.getByRole('button', { name: `Eliminar ${name}` }).click();
    const dialog = page.getByRole('alertdialog', { name: `¿Eliminar «${name}»?` });
    await expect(dialog).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(row).toBeVisible();
    await row.getByRole('button', { name: `Eliminar ${name}` }).click();
    await dialog.getByRole('button', { name: 'Eliminar', exact: true }).click();
    await expect(page.getByText(`Eliminamos «${name}».`)).toBeVisible();
    await expect(row).toHaveCount(0);
  });
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('the recipes list and form fit a 375 px screen', async ({ page }) => {
    await openAsStaff(page, '/dashboard/recipes');
    const rows = page.getByTestId('recipe-row');
    await expect(rows.first()).toBeVisible();
    // Nothing wider than the screen but the table's own scroller.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await expectNoSeriousAxeViolations(page, 'recipes list (375 px)');
    await page.screenshot({ path: shot('recipes-list-375.png'), fullPage: true });
    await rows.first().getByRole('link').click();
    await expect(page.getByTestId('cost-per-unit')).not.toHaveText('—');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await expectNoSeriousAxeViolations(page, 'recipe form (375 px)');
    await page.screenshot({ path: shot('recipe-form-375.png'), fullPage: true });
    // While typing a line, the cost a unit and the margin stay in sight.
    await page.getByLabel('Cantidad').first().scrollIntoViewIfNeeded();
    await page.getByLabel('Cantidad').first().fill('3');
    await expect(page.getByText(/^Costo por unidad \$/)).toBeInViewport();
    await page.screenshot({ path: shot('recipe-form-typing-375.png') });
  });
});

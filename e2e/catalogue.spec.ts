import type { Browser, Page } from '@playwright/test';
import sharp from 'sharp';
import { expect, test } from './fixtures';
import { ownAppUrl } from './support/apps';
import { DEMO, expectNoSeriousAxeViolations, shot, signInByApi } from './support/session';

/**
 * The catalogue screens: collections, brands and products with their photos, as staff. What staff
 * save shows on an open storefront page at once; the products table's view lives in the URL.
 */

const stamp = () => Date.now().toString(36);

/** A real picture (PNG bytes), as a person would pick from their files. */
async function picture(color: string): Promise<Buffer> {
  return sharp({ create: { width: 640, height: 480, channels: 3, background: color } })
    .png()
    .toBuffer();
}

async function signInAsStaff(page: Page): Promise<void> {
  await signInByApi(page, DEMO.staff);
  await expect(page).toHaveURL(/\/dashboard\//);
}

/** A guest's storefront in a browser of its own; its console errors fail the test too. */
async function openStorefront(browser: Browser) {
  const context = await browser.newContext({ baseURL: ownAppUrl(), locale: 'es-CO' });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  page.on('pageerror', (err) => errors.push(err.message));
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  return { page, errors, close: () => context.close() };
}

const toast = (page: Page, text: string | RegExp) => page.getByRole('status').filter({ hasText: text });

test.describe('catalogue', () => {
  test('create a collection, a brand and a product with a photo: it shows on an open storefront at once; delete asks first', async ({
    page,
    browser,
  }) => {
    test.setTimeout(90_000);
    const id = stamp();
    const collection = `Colección e2e ${id}`;
    const brand = `Marca e2e ${id}`;
    const product = `Producto e2e ${id}`;
    const shop = await openStorefront(browser);
    await signInAsStaff(page);

    // A collection with its picture.
    await page.goto('/dashboard/product-collections');
    await page.getByRole('link', { name: 'Nueva colección' }).first().click();
    await expect(page.getByRole('heading', { level: 1, name: 'Nueva colección' })).toBeVisible();
    await page.getByLabel('Nombre').fill(collection);
    await page.getByLabel('Descripción').fill('Creada por la prueba de punta a punta.');
    await page.getByLabel('Subir imagen').setInputFiles({
      name: 'coleccion.png',
      mimeType: 'image/png',
      buffer: await picture('#b7791f'),
    });
    await expect(page.getByLabel(/Texto alternativo/)).toBeVisible();
    await page.getByLabel(/Texto alternativo/).fill('Panes en una canasta');
    await page.getByLabel('Orden').fill('0');
    await page.getByRole('button', { name: 'Crear colección' }).click();
    await expect(toast(page, `Creamos la colección «${collection}».`)).toBeVisible();
    await expect(page).toHaveURL('/dashboard/product-collections');
    await expect(page.getByRole('table').getByRole('link', { name: collection, exact: true })).toBeVisible();
    // Order 0 puts it first in the shop's order; one step down swaps it with its neighbour.
    const collectionRows = page.getByRole('table').locator('tbody tr');
    await expect(collectionRows.first()).toContainText(collection);
    await page.getByRole('button', { name: `Bajar «${collection}»` }).click();
    await expect(collectionRows.nth(1)).toContainText(collection);
    await expect(page.getByRole('button', { name: `Subir «${collection}»` })).toBeEnabled();

    // A brand with its logo.
    await page.goto('/dashboard/brands');
    await page.getByRole('link', { name: 'Nueva marca' }).first().click();
    await page.getByLabel('Nombre').fill(brand);
    await page.getByLabel('Subir imagen').setInputFiles({
      name: 'logo.png',
      mimeType: 'image/png',
      buffer: await picture('#1f6f5b'),
    });
    await page.getByLabel(/Texto alternativo/).fill(`Logo de ${brand}`);
    await page.getByRole('button', { name: 'Crear marca' }).click();
    await expect(toast(page, `Creamos la marca «${brand}».`)).toBeVisible();
    await expect(page.getByRole('table').getByRole('link', { name: brand, exact: true })).toBeVisible();

    // A product in both, with a photo; the open storefront shows it without a reload.
    await page.goto('/dashboard/products');
    await page.getByRole('link', { name: 'Nuevo producto' }).first().click();
    await page.getByLabel('Nombre').fill(product);
    await page.getByLabel('Precio', { exact: true }).fill('7.500');
    await page.getByLabel('Colección').selectOption({ label: collection });
    await page.getByLabel('Marca').selectOption({ label: brand });
    await page.getByLabel('Gluten').check();
    await page.getByLabel('Agregar fotos').setInputFiles({
      name: 'producto.png',
      mimeType: 'image/png',
      buffer: await picture('#c05621'),
    });
    await page.getByLabel('Foto principal: texto alternativo').fill(`${product} recién horneado`);
    await page.getByRole('button', { name: 'Crear producto' }).click();
    await expect(toast(page, `Creamos «${product}». Ya está en la tienda.`)).toBeVisible();
    await expect(page).toHaveURL('/dashboard/products');
    await expect(page.getByRole('table').getByRole('link', { name: product, exact: true })).toBeVisible();

    await expect(shop.page.getByRole('main').getByRole('heading', { name: collection })).toBeVisible({
      timeout: 10_000,
    });
    const card = shop.page.getByRole('main').getByRole('link', { name: product, exact: true });
    await expect(card).toBeVisible();
    await expect(shop.page.getByRole('main').getByRole('img', { name: `${product} recién horneado` })).toBeVisible();

    // An edit shows there too.
    await page.getByRole('link', { name: `Editar ${product}` }).click();
    await expect(page.getByLabel('Nombre')).toHaveValue(product);
    await page.getByLabel('Nombre').fill(`${product} integral`);
    await page.getByRole('button', { name: 'Guardar cambios' }).click();
    await expect(toast(page, `Guardamos «${product} integral».`)).toBeVisible();
    await expect(
      shop.page.getByRole('main').getByRole('link', { name: `${product} integral`, exact: true }),
    ).toBeVisible({ timeout: 10_000 });

    // Delete asks first: cancelling keeps the product; confirming removes it, here and in the shop.
    await page.getByRole('button', { name: `Eliminar ${product} integral` }).click();
    const dialog = page.getByRole('alertdialog', { name: `¿Eliminar «${product} integral»?` });
    await expect(dialog).toBeVisible();
    await expectNoSeriousAxeViolations(page, 'delete dialog');
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('table').getByRole('link', { name: `${product} integral`, exact: true })).toBeVisible();
    await page.getByRole('button', { name: `Eliminar ${product} integral` }).click();
    await dialog.getByRole('button', { name: 'Eliminar' }).click();
    await expect(toast(page, `Eliminamos «${product} integral».`)).toBeVisible();
    await expect(page.getByRole('table').getByRole('link', { name: `${product} integral`, exact: true })).toBeHidden();
    await expect(
      shop.page.getByRole('main').getByRole('link', { name: `${product} integral`, exact: true }),
    ).toBeHidden({ timeout: 10_000 });

    // Clean up the brand and the collection the same way.
    for (const [list, name] of [
      ['/dashboard/brands', brand],
      ['/dashboard/product-collections', collection],
    ] as const) {
      await page.goto(list);
      await page.getByRole('button', { name: `Eliminar ${name}` }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Eliminar' }).click();
      await expect(toast(page, `Eliminamos «${name}».`)).toBeVisible();
    }

    expect(shop.errors, 'storefront console errors').toEqual([]);
    await shop.close();
  });

  test('the products table searches, sorts and pages on the server, and a reload keeps the view', async ({ page }) => {
    await signInAsStaff(page);
    await page.goto('/dashboard/products');
    const table = page.getByRole('table', { name: 'Productos' });
    const rows = table.locator('tbody tr');
    await expect(rows).toHaveCount(10);
    await expect(page.getByText(/^1–10 de \d+$/)).toBeVisible();

    // Sort by price, ascending then descending.
    const priceHeader = table.getByRole('columnheader', { name: 'Precio', exact: true });
    const prices = async () =>
      (await rows.locator('td:nth-child(2)').allTextContents()).map((t) => Number(t.replace(/[^0-9]/g, '')));
    const sorted = (list: number[], dir: 1 | -1) => list.every((n, i) => i === 0 || (n - list[i - 1]!) * dir >= 0);
    await priceHeader.getByRole('button').click();
    await expect(page).toHaveURL(/sort=price/);
    await expect(priceHeader).toHaveAttribute('aria-sort', 'ascending');
    await expect.poll(async () => sorted(await prices(), 1)).toBe(true);
    const cheapest = (await prices())[0];
    await priceHeader.getByRole('button').click();
    await expect(page).toHaveURL(/sort=-price/);
    await expect(priceHeader).toHaveAttribute('aria-sort', 'descending');
    await expect.poll(async () => sorted(await prices(), -1) && (await prices())[0]! > cheapest!).toBe(true);

    // Next page.
    const names = () => rows.locator('td:first-child').allTextContents();
    const firstPage = await names();
    await page.getByRole('button', { name: 'Página siguiente' }).click();
    await expect(page).toHaveURL(/page=2/);
    await expect(page.getByText(/^11–20 de \d+$/)).toBeVisible();
    await expect.poll(async () => (await names()).some((name) => firstPage.includes(name))).toBe(false);
    const secondPage = await names();

    // A reload opens the same view.
    await page.reload();
    await expect(page.getByText(/^11–20 de \d+$/)).toBeVisible();
    await expect(priceHeader).toHaveAttribute('aria-sort', 'descending');
    await expect(rows.locator('td:first-child')).toHaveText(secondPage);

    // Search (accent-insensitive on the server) goes back to page 1 and stays after a reload.
    await page.getByLabel('Buscar productos').fill('almojabana');
    await expect(page).toHaveURL(/q=almojabana/);
    await expect(page).not.toHaveURL(/page=2/);
    await expect(rows.first()).toContainText(/almojábana/i);
    const found = await rows.count();
    await page.reload();
    await expect(page.getByLabel('Buscar productos')).toHaveValue('almojabana');
    await expect(rows).toHaveCount(found);

    // Nothing found: an honest empty state that clears the search.
    await page.getByLabel('Buscar productos').fill('zzz-no-existe');
    await expect(page.getByText('No encontramos resultados.')).toBeVisible();
    await page.getByRole('button', { name: 'Quitar búsqueda y filtros' }).click();
    await expect(rows).toHaveCount(10);

    // A filter: only that collection's products, kept in the URL.
    await page.getByLabel('Colección').selectOption({ label: 'Bebidas' });
    await expect(page).toHaveURL(/collectionId=/);
    await expect
      .poll(async () => new Set(await rows.locator('td:nth-child(4)').allTextContents()))
      .toEqual(new Set(['Bebidas']));
    await page.reload();
    await expect(page.getByLabel('Colección')).toHaveValue(/.+/);
    await expect(rows.locator('td:nth-child(4)').first()).toHaveText('Bebidas');
  });

  test('photos: several at once, alt text, reorder; a file that is not an image is refused in Spanish', async ({
    page,
    expectConsoleErrors,
  }) => {
    expectConsoleErrors(415);
    await signInAsStaff(page);
    await page.goto('/dashboard/products/create');
    await page.getByLabel('Agregar fotos').setInputFiles([
      { name: 'uno.png', mimeType: 'image/png', buffer: await picture('#7b341e') },
      { name: 'dos.png', mimeType: 'image/png', buffer: await picture('#2c5282') },
    ]);
    const main = page.getByLabel('Foto principal: texto alternativo');
    const second = page.getByLabel('Foto 2: texto alternativo');
    await expect(second).toBeVisible();
    await main.fill('primera');
    await second.fill('segunda');
    await page.getByRole('button', { name: 'Subir la foto 2' }).click();
    await expect(main).toHaveValue('segunda');
    await expect(second).toHaveValue('primera');
    await page.getByRole('button', { name: 'Quitar la foto 2' }).click();
    await expect(second).toHaveCount(0);

    // Named .png, but a web page: the server decides by the bytes (415) and the reason shows here.
    await page.getByLabel('Agregar fotos').setInputFiles({
      name: 'foto.png',
      mimeType: 'image/png',
      buffer: Buffer.from('<!doctype html><p>no soy una imagen</p>'),
    });
    await expect(page.getByRole('alert').filter({ hasText: 'El archivo no es una imagen compatible' })).toBeVisible();
    await expect(page.getByLabel('Foto 2: texto alternativo')).toHaveCount(0);
  });

  test('a bad value shows its Spanish message under its field; leaving with changes asks', async ({ page }) => {
    await signInAsStaff(page);
    await page.goto('/dashboard/products/create');
    await page.getByLabel('Precio', { exact: true }).fill('cuatro mil');
    await page.getByRole('button', { name: 'Crear producto' }).click();
    const name = page.getByLabel('Nombre');
    await expect(name).toHaveAttribute('aria-invalid', 'true');
    await expect(page.locator('#product-name-error')).toHaveText('Este campo es obligatorio.');
    await expect(name).toHaveAttribute('aria-describedby', /product-name-error/);
    await expect(page.locator('#product-price-error')).toHaveText('Escribe un número.');
    await expect(name).toBeFocused();

    // Unsaved changes: leaving by a link asks; staying keeps the text.
    await name.fill('Pan a medio escribir');
    await page.getByRole('navigation', { name: 'Panel de la panadería' }).getByRole('link', { name: 'Marcas' }).click();
    const ask = page.getByRole('alertdialog', { name: '¿Salir sin guardar?' });
    await expect(ask).toBeVisible();
    await ask.getByRole('button', { name: 'Seguir editando' }).click();
    await expect(page).toHaveURL('/dashboard/products/create');
    await expect(name).toHaveValue('Pan a medio escribir');
    await page.getByRole('navigation', { name: 'Panel de la panadería' }).getByRole('link', { name: 'Marcas' }).click();
    await ask.getByRole('button', { name: 'Salir sin guardar' }).click();
    await expect(page).toHaveURL('/dashboard/brands');
  });

  test('every catalogue screen: axe clean, screenshots at 1280 and 375 px', async ({ page }) => {
    test.setTimeout(90_000);
    await signInAsStaff(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    const screens: [string, string, RegExp][] = [
      ['products', '/dashboard/products', /Productos/],
      ['product-create', '/dashboard/products/create', /Nuevo producto/],
      ['brands', '/dashboard/brands', /Marcas/],
      ['brand-create', '/dashboard/brands/create', /Nueva marca/],
      ['collections', '/dashboard/product-collections', /Colecciones/],
      ['collection-create', '/dashboard/product-collections/create', /Nueva colección/],
    ];
    for (const [name, url, title] of screens) {
      await page.goto(url);
      await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
      await expect(page.locator('[aria-busy="true"], [role="status"]:has-text("Cargando")')).toHaveCount(0);
      await expectNoSeriousAxeViolations(page, name);
      await page.screenshot({ path: shot(`catalogue-${name}-1280.png`), fullPage: true });
    }
    // The edit screens, from each list's first row.
    for (const [name, list, noun] of [
      ['product-update', '/dashboard/products', 'Editar producto'],
      ['brand-update', '/dashboard/brands', 'Editar marca'],
      ['collection-update', '/dashboard/product-collections', 'Editar colección'],
    ] as const) {
      await page.goto(list);
      await page.locator('tbody tr').first().getByRole('link').first().click();
      await expect(page.getByRole('heading', { level: 1, name: noun })).toBeVisible();
      await expect(page.getByLabel('Nombre')).not.toHaveValue('');
      // The demo's products each have a collection: the select shows it once its options arrive.
      if (name === 'product-update') await expect(page.getByLabel('Colección')).not.toHaveValue('');
      await expectNoSeriousAxeViolations(page, name);
      await page.screenshot({ path: shot(`catalogue-${name}-1280.png`), fullPage: true });
    }

    // A phone: the products list shows its main columns (others can be chosen) and the form fits.
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto('/dashboard/products');
    const table = page.getByRole('table', { name: 'Productos' });
    await expect(table.locator('tbody tr')).toHaveCount(10);
    await expect(table.getByRole('columnheader', { name: 'Colección' })).toHaveCount(0);
    await expectNoSeriousAxeViolations(page, 'products 375');
    await page.screenshot({ path: shot('catalogue-products-375.png'), fullPage: true });
    await page.getByRole('button', { name: 'Columnas' }).click();
    await page.getByRole('menuitemcheckbox', { name: 'Colección' }).click();
    await page.keyboard.press('Escape');
    await expect(table.getByRole('columnheader', { name: 'Colección' })).toBeVisible();
    await page.reload();
    await expect(table.getByRole('columnheader', { name: 'Colección' })).toBeVisible();

    await page.goto('/dashboard/products/create');
    await expect(page.getByRole('heading', { level: 1, name: 'Nuevo producto' })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expectNoSeriousAxeViolations(page, 'product form 375');
    await page.screenshot({ path: shot('catalogue-product-form-375.png'), fullPage: true });
  });
});

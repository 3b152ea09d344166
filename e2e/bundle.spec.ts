import { expect, test } from './fixtures';

/** Chunks of the sign-in pages and the signed-in areas (named after their modules by the build). */
const BACK_OFFICE =
  /\/assets\/(area-layouts|area-page|login-page|signup-page|create-bakery-page|profile-page|form-rules|fields)-/;

test('the storefront loads no back-office code', async ({ page }) => {
  const scripts: string[] = [];
  page.on('response', (r) => {
    if (r.request().resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
  });
  for (const path of ['/', '/carrito', '/privacy']) {
    await page.goto(path);
    await expect(page.getByRole('banner').getByRole('link', { name: 'Ingresar' })).toBeVisible();
  }
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((s) => BACK_OFFICE.test(s))).toEqual([]);

  // Opening the sign-in page does load its own chunk: the pattern above does match the build's names.
  await page.getByRole('banner').getByRole('link', { name: 'Ingresar' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Iniciar sesión' })).toBeVisible();
  expect(scripts.filter((s) => BACK_OFFICE.test(s)).length).toBeGreaterThan(0);
});

import { gzipSync } from 'node:zlib';
import { expect, test } from './fixtures';

/**
 * Chunks of the sign-in pages and the signed-in areas (named after their modules by the build), the client-only
 * routes' table and guard, and the error texts of sign-in and the back office.
 */
const BACK_OFFICE =
  /\/assets\/(area-layouts|area-page|login-page|signup-page|create-bakery-page|profile-page|form-rules|fields|client-routes|errors-auth|errors-back-office|account-menu)-/;

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

/** the storefront's first-load budget: the scripts a guest's first page loads, gzip level 9 (as the build precompresses them). */
const FIRST_LOAD_BUDGET_KB = 110;

// The home page (the budget's page); the cart and the order summary add their own chunks on top.
for (const path of ['/']) {
  test(`the first load of ${path} stays within ${FIRST_LOAD_BUDGET_KB} KB of gzipped JavaScript`, async ({
    page,
    playwright,
    baseURL,
  }) => {
    const scripts = new Set<string>();
    page.on('response', (r) => {
      if (r.request().resourceType() === 'script') scripts.add(r.url());
    });
    await page.goto(path);
    // Hydrated, and the session settled: everything the first page needs has been asked for.
    await expect(page.getByRole('banner').getByRole('link', { name: 'Ingresar' })).toBeVisible();
    const api = await playwright.request.newContext({ baseURL });
    let bytes = 0;
    for (const url of scripts) {
      const body = await (await api.get(url, { headers: { 'accept-encoding': 'identity' } })).body();
      bytes += gzipSync(body, { level: 9 }).length;
    }
    await api.dispose();
    expect(scripts.size).toBeGreaterThan(0);
    console.log(`first load of ${path}: ${(bytes / 1024).toFixed(2)} KB gzipped in ${scripts.size} scripts`);
    expect(bytes / 1024, [...scripts].join('\n')).toBeLessThanOrEqual(FIRST_LOAD_BUDGET_KB);
  });
}

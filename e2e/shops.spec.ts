import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { mailedLink } from './support/outbox';
import { apiToken, expectNoSeriousAxeViolations, landedOn, shot, signIn } from './support/session';

/**
 * Every bakery a shop: a new owner creates "Horno de Carlos", follows the setup checklist, and
 * `horno-de-carlos.localhost:PORT` (Chromium resolves *.localhost to loopback) is its own shop — its name,
 * products and cart — while the demo's storefront on the bare host is unchanged. The e2e server's database
 * is fresh each run, so the slug is "horno-de-carlos".
 */
const EMAIL = `carlos-${Date.now().toString(36)}@hornada.test`;
const PASSWORD = 'pandeyuca-caliente';

/** The bare host's origin (baseURL, 127.0.0.1) with its port, and the shop's on `localhost`. */
const shopOrigin = (page: Page) => `http://horno-de-carlos.localhost:${new URL(page.url()).port}`;

async function shoot(page: Page, name: string) {
  await page.setViewportSize({ width: 375, height: 812 });
  await page.evaluate(() => window.scrollTo(0, 0));
  const scrollWidth = await page.evaluate(() => document.scrollingElement!.scrollWidth);
  expect(scrollWidth, `${name} fits 375 px`).toBeLessThanOrEqual(375);
  await page.screenshot({ path: shot(`${name}-375.png`), fullPage: true });
}

/** Follows a checklist item's link from the dashboard to the screen that completes it. */
async function openChecklistItem(page: Page, item: string, path: string) {
  await page.goto('/dashboard/orders');
  await page.getByRole('region', { name: 'Prepara tu tienda' }).getByRole('link', { name: item }).click();
  await expect(page).toHaveURL(path);
}

test('a new owner opens "Horno de Carlos" at its own host; the demo shop is unchanged', async ({ page, request }) => {
  test.slow();
  const reg = await request.post('/api/auth/register', {
    data: { email: EMAIL, password: PASSWORD, name: 'carlos andrés', role: 'company_admin', companyId: null },
  });
  expect(reg.status(), await reg.text()).toBe(201);
  await page.goto(await mailedLink(request, EMAIL, /^Confirma tu correo en /));
  await expect(page.getByRole('status')).toContainText('Tu correo quedó verificado');
  await page.goto('/login');
  await signIn(page, EMAIL, PASSWORD);
  await expect(page).toHaveURL('/createBakery');
  await page.getByLabel('Nombre de la panadería').fill('Horno de Carlos');
  await page.getByRole('button', { name: 'Crear panadería' }).click();
  await expect(page).toHaveURL(landedOn('/dashboard/orders'));
  const shop = shopOrigin(page);

  // On the bare host (the demo's shop) the back office names the owner's own bakery and links to its shop.
  const banner = page.getByRole('banner');
  await expect(banner).toContainText('Horno de Carlos');
  await expect(banner).not.toContainText('Panadería La Espiga');
  await expect(
    page.getByRole('navigation', { name: 'Panel de la panadería' }).getByRole('link', { name: 'Ver mi tienda' }),
  ).toHaveAttribute('href', `${shop}/`);

  // The checklist: every item open, the shop's address and a share button.
  const checklist = page.getByRole('region', { name: 'Prepara tu tienda' });
  await expect(checklist).toBeVisible();
  await expect(checklist).toContainText('Tu tienda dice «Abrimos pronto»');
  for (const item of [
    'Logo y datos de contacto',
    'Días y horarios de entrega',
    'Tu primer producto con foto',
    'Medios de pago',
  ]) {
    await expect(checklist.getByRole('listitem').filter({ hasText: item })).toContainText('pendiente');
  }
  await expect(checklist.getByRole('link', { name: 'Ver mi tienda' })).toHaveAttribute('href', `${shop}/`);
  await expect(checklist.getByRole('button', { name: 'Compartir' })).toBeVisible();
  await expectNoSeriousAxeViolations(page, 'setup checklist');
  await shoot(page, 'shops-checklist');

  // Until the minimum is met the shop says "Abrimos pronto", under its own name.
  await checklist.getByRole('link', { name: 'Ver mi tienda' }).click();
  await expect(page).toHaveURL(`${shop}/`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Horno de Carlos');
  await expect(page.getByText('Abrimos pronto')).toBeVisible();
  await expect(page).toHaveTitle(/Horno de Carlos/);
  await shoot(page, 'shops-opening-soon');

  // The checklist's links lead to the screens that complete it; the owner fills them in, the product first.
  await openChecklistItem(page, 'Tu primer producto con foto', '/dashboard/products/create');
  await page.getByLabel('Nombre', { exact: true }).fill('Pan de yuca de Carlos');
  await page.getByLabel('Precio', { exact: true }).fill('2500');
  await page.getByRole('button', { name: 'Crear producto' }).click();
  await expect(page).toHaveURL(/\/dashboard\/products(\/|$|\?)/);
  const token = await apiToken(request, EMAIL, PASSWORD);
  const me = await request.get('/api/me', { headers: { authorization: `Bearer ${token}` } });
  const companyId = ((await me.json()) as { data: { companyId: string } }).data.companyId;
  const products = await request.get(`/api/companies/${companyId}/products`);
  const [yuca] = ((await products.json()) as { data: { id: string }[] }).data;
  // A product, but no window nor transfer details yet: its page shows it and offers no cart, nor does /carrito.
  await page.goto(`${shop}/products/show/${yuca!.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Pan de yuca de Carlos');
  await expect(page.getByRole('status').filter({ hasText: 'Abrimos pronto' })).toBeVisible();
  await expect(page.getByRole('button', { name: /Agregar/ })).toHaveCount(0);
  await shoot(page, 'shops-opening-product');
  await page.goto(`${shop}/carrito`);
  await expect(page.getByText('Abrimos pronto')).toBeVisible();
  await expect(page.getByRole('link', { name: /Continuar|Pedir|Resumen/ })).toHaveCount(0);

  await openChecklistItem(page, 'Días y horarios de entrega', '/dashboard/settings');
  await page.getByRole('textbox', { name: /^WhatsApp/ }).fill('+57 300 555 0199');
  await page.getByRole('button', { name: 'Agregar horario' }).click();
  await page.locator('#window-1-label').fill('Franja de la mañana');
  await page.locator('#window-1-start').fill('07:00');
  await page.locator('#window-1-end').fill('11:00');
  await page.getByLabel('Instrucciones para transferencias').fill('Nequi 300 555 0199 a nombre de Carlos Andrés');
  // A custom domain too: a URL is refused in Spanish, a host name kept.
  await page.getByRole('textbox', { name: /^Dominios/ }).fill('https://pan.carlos.test/');
  await page.getByRole('button', { name: 'Guardar configuración' }).click();
  await expect(page.getByText('Escribe un dominio como tienda.ejemplo.com, sin https:// ni barras.')).toBeVisible();
  await page.getByRole('textbox', { name: /^Dominios/ }).fill('Pan.Carlos.test');
  await page.getByRole('button', { name: 'Guardar configuración' }).click();
  await expect(page.getByText(/Guardamos la configuración/)).toBeVisible();
  await shoot(page, 'shops-settings');
  const saved = await request.get(`/api/companies/${companyId}/settings`);
  expect(((await saved.json()) as { data: { domains: string[] } }).data.domains).toEqual(['pan.carlos.test']);

  await page.goto('/dashboard/orders');
  const done = page.getByRole('region', { name: 'Prepara tu tienda' });
  await expect(done).toContainText('Tu tienda ya está abierta');
  await expect(done.getByRole('listitem').filter({ hasText: 'Días y horarios de entrega' })).toContainText('hecho');
  await expect(done.getByRole('listitem').filter({ hasText: 'Medios de pago' })).toContainText('hecho');
  await shoot(page, 'shops-checklist-open');

  // Its own shop: its name, its product, its cart.
  await page.goto(`${shop}/`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Horno de Carlos');
  await expect(page.getByText('Abrimos pronto')).toHaveCount(0);
  const card = page.locator('li.card').filter({ hasText: 'Pan de yuca de Carlos' });
  await expect(card).toBeVisible();
  await expect(page.locator('li.card')).toHaveCount(1);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', `${shop}/`);
  await expectNoSeriousAxeViolations(page, 'Horno de Carlos home');
  await shoot(page, 'shops-carlos-home');
  await card.getByRole('link', { name: 'Pan de yuca de Carlos' }).click();
  await page.getByRole('button', { name: 'Agregar al carrito' }).click();
  const cartLink = page.getByRole('banner').getByRole('link', { name: 'Carrito, 1 producto' });
  await expect(cartLink).toBeVisible();
  await cartLink.click();
  await expect(page).toHaveURL(`${shop}/carrito`);
  const line = page.getByRole('list', { name: 'Productos en tu carrito' }).getByRole('listitem');
  await expect(line).toHaveCount(1);
  await expect(line).toContainText('Pan de yuca de Carlos');
  await shoot(page, 'shops-carlos-cart');

  // The demo's storefront on the bare host: its own name and catalogue, none of Carlos's.
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Panadería La Espiga');
  await expect(page.getByText('Pan de yuca de Carlos')).toHaveCount(0);
  await expect(page.getByText('Abrimos pronto')).toHaveCount(0);
  expect(await page.locator('li.card').count()).toBeGreaterThan(1);
});

test('a host that names no bakery is a Spanish 404', async ({ page, expectConsoleErrors }) => {
  expectConsoleErrors(404);
  await page.goto('/');
  const port = new URL(page.url()).port;
  const res = await page.goto(`http://nadie-aqui.localhost:${port}/`);
  expect(res?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('No encontramos esta panadería');
});

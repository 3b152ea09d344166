import type { ConsoleMessage, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO, accountButton, landedOn, shot, signIn, signInByApi } from './support/session';

/** Landing pages by role (docs/design.md §4) and the first word of each demo account's name. */
const ROLES = [
  { email: DEMO.admin, lands: '/dashboard/orders', first: 'Marta', account: '/customer/profile' },
  { email: DEMO.staff, lands: '/dashboard/orders', first: 'Julián', account: '/dashboard/profile' },
  { email: DEMO.root, lands: '/dashboard/orders', first: 'Administración', account: '/customer/profile' },
  { email: DEMO.customer, lands: '/', first: 'Ana', account: '/customer/profile' },
  { email: DEMO.driver, lands: '/driver/orders', first: 'Wilson', account: '/driver/profile' },
  { email: DEMO.production, lands: '/production/orders', first: 'Rosa', account: '/production/profile' },
];

function warnings(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (m: ConsoleMessage) => {
    if (m.type() === 'warning') seen.push(m.text());
  });
  return seen;
}

test.describe('route guard and landing pages', () => {
  test('a guest sent to sign in comes back to the page it wanted', async ({ page }) => {
    await page.goto('/dashboard/products');
    await expect(page).toHaveURL('/login?redirect=/dashboard/products');
    await expect(page).toHaveTitle('Iniciar sesión');
    await signIn(page, DEMO.staff);
    await expect(page).toHaveURL('/dashboard/products');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Productos');
    await expect(accountButton(page, 'Julián')).toBeVisible();
    await page.screenshot({ path: shot('dashboard-1280.png') });
    await page.setViewportSize({ width: 375, height: 800 });
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Productos');
    // The phone's row of links scrolls to the current page.
    await expect(
      page.getByRole('navigation', { name: 'Panel de la panadería' }).getByRole('link', { name: 'Productos' }),
    ).toBeInViewport();
    await page.screenshot({ path: shot('dashboard-375.png') });
  });

  for (const role of ROLES) {
    test(`${role.email} lands on ${role.lands}, with its account menu and logo`, async ({ page }) => {
      await page.goto('/login');
      await signIn(page, role.email);
      await expect(page).toHaveURL(landedOn(role.lands));
      const account = accountButton(page, role.first);
      await expect(account).toBeVisible();
      // The logo links to the landing page (docs/design.md §4).
      await expect(page.getByRole('banner').getByRole('link').first()).toHaveAttribute('href', role.lands);
      await account.click();
      await expect(page.getByRole('link', { name: 'Mi Cuenta' })).toHaveAttribute('href', role.account);
      // A signed-in user is sent away from the guest-only pages.
      await page.goto('/login');
      await expect(page).toHaveURL(landedOn(role.lands));
      await page.goto('/signup');
      await expect(page).toHaveURL(landedOn(role.lands));
      // The session survives a reload.
      await page.reload();
      await expect(accountButton(page, role.first)).toBeVisible();
    });
  }

  test('roles not allowed are redirected silently, with a console warning', async ({ browser }) => {
    // A sign-in and a redirect for each of the cases below, each in a fresh browser context.
    test.slow();
    const cases = [
      { email: DEMO.customer, to: '/dashboard/orders', lands: '/' },
      { email: DEMO.driver, to: '/dashboard/products', lands: '/driver/orders' },
      { email: DEMO.production, to: '/dashboard/orders', lands: '/production/orders' },
      { email: DEMO.staff, to: '/customer/history', lands: '/' },
      { email: DEMO.driver, to: '/production/orders', lands: '/driver/orders' },
      { email: DEMO.customer, to: '/driver/orders', lands: '/' },
    ];
    for (const c of cases) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const warned = warnings(page);
      await signInByApi(page, c.email);
      await page.goto(c.to);
      await expect(page, `${c.email} → ${c.to}`).toHaveURL(landedOn(c.lands));
      await expect(page.getByRole('alert')).toHaveCount(0);
      expect(warned.some((w) => w.includes('Route guard') && w.includes(c.to.split('?')[0]!))).toBe(true);
      await context.close();
    }
  });

  test('staff cannot open the admin-only screens; the admin can', async ({ page }) => {
    await signInByApi(page, DEMO.staff);
    await expect(page).toHaveURL(landedOn('/dashboard/orders'));
    await page.goto('/dashboard/staff');
    await expect(page).toHaveURL('/');
    await page.goto('/login');
    await expect(page).toHaveURL(landedOn('/dashboard/orders'));
    await expect(
      page.getByRole('navigation', { name: 'Panel de la panadería' }).getByRole('link', { name: 'Equipo' }),
    ).toHaveCount(0);
  });

  test('signing in from a page comes back to it; signing out goes home', async ({ page }) => {
    await page.goto('/privacy');
    await page.getByRole('banner').getByRole('link', { name: 'Ingresar' }).click();
    await expect(page).toHaveURL('/login');
    await signIn(page, DEMO.customer);
    await expect(page).toHaveURL('/privacy');
    await accountButton(page, 'Ana').click();
    await page.getByRole('button', { name: 'Cerrar Sesión' }).click();
    await expect(page).toHaveURL('/');
    await expect(page.getByRole('banner').getByRole('link', { name: 'Ingresar' })).toBeVisible();
    // Signed out for real: the area sends it to sign in again.
    await page.goto('/customer/profile');
    await expect(page).toHaveURL('/login?redirect=/customer/profile');
  });

  test('a redirect to another origin or a page the role may not open is ignored', async ({ page }) => {
    await page.goto('/login?redirect=https://evil.test/');
    await signIn(page, DEMO.customer);
    await expect(page).toHaveURL('/');
    await accountButton(page, 'Ana').click();
    await page.getByRole('button', { name: 'Cerrar Sesión' }).click();
    await expect(page).toHaveURL('/');
    // Signed out for real (the session ended on the server) before a new page load checks it.
    await expect(page.getByRole('banner').getByRole('link', { name: 'Ingresar' })).toBeVisible();
    await page.goto('/login?redirect=//evil.test/x');
    await signIn(page, DEMO.driver);
    await expect(page).toHaveURL('/driver/orders');
  });

  test('an unknown page inside an area is a Spanish not-found page in its layout', async ({ page }) => {
    await signIn(page, DEMO.staff);
    await expect(page).toHaveURL(landedOn('/dashboard/orders'));
    await page.goto('/dashboard/no-existe');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('No encontramos esta página');
    await expect(page.getByRole('navigation', { name: 'Panel de la panadería' })).toBeVisible();
  });
});

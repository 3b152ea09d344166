import type { Browser, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { ownAppUrl } from './support/apps';
import { apiToken, DEMO, expectNoSeriousAxeViolations, marketCompanyId, shot, signIn } from './support/session';

/**
 * The bakery's people: users and their creation (customers, a driver), the team screen with its
 * role changes and disabling (which signs the person's open tab out at once), who may open it, and the system
 * admin's company switcher.
 */

const stamp = () => Date.now().toString(36);
const PASSWORD = 'pan-de-yuca-caliente';

async function signInAs(page: Page, email: string, password?: string, landing = /\/dashboard\//) {
  await signIn(page, email, password);
  await expect(page).toHaveURL(landing);
}

/** A browser of its own (another person); its console errors are collected, not failing the test. */
async function otherPerson(browser: Browser) {
  const context = await browser.newContext({ baseURL: ownAppUrl(), locale: 'es-CO' });
  return { page: await context.newPage(), close: () => context.close() };
}

async function createUser(page: Page, user: { name: string; email: string; role: string }) {
  await page.goto('/dashboard/users/create');
  await expect(page.getByRole('heading', { level: 1, name: 'Nuevo usuario' })).toBeVisible();
  await page.getByLabel('Nombre', { exact: true }).fill(user.name);
  await page.getByLabel('Correo', { exact: true }).fill(user.email);
  await page.getByLabel('Rol').selectOption({ label: user.role });
  await page.getByLabel('Definir una contraseña ahora').check();
  await page.getByLabel('Contraseña', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Crear usuario' }).click();
  await expect(page).toHaveURL(/\/dashboard\/users(\?.*)?$/);
  // The toast says so, then goes (axe would otherwise judge its fade-in's colours).
  const toast = page.getByRole('status').filter({ hasText: `Creamos la cuenta de ${user.name}.` });
  await expect(toast).toBeVisible();
  await expect(toast).toBeHidden({ timeout: 10_000 });
}

test.describe('people', () => {
  test('an admin registers a customer from users/create, who signs in; the users screens pass axe', async ({
    page,
    browser,
  }) => {
    test.setTimeout(90_000);
    const id = stamp();
    const email = `cliente-${id}@ejemplo.co`;
    await signInAs(page, DEMO.admin);
    await createUser(page, { name: `Clienta Prueba ${id}`, email, role: 'Cliente' });
    await page.getByLabel('Buscar usuarios').fill(id);
    const row = page.getByRole('row').filter({ hasText: email });
    await expect(row).toBeVisible();
    await expect(row).toContainText('Nunca');
    // The search has settled: the rows of the list before it (dimmed while it loads) are gone.
    await expect(page.locator('tbody tr')).toHaveCount(1);
    await expectNoSeriousAxeViolations(page, 'users');

    const customer = await otherPerson(browser);
    await signInAs(customer.page, email, PASSWORD, /\/$/);
    await customer.close();

    // Their first sign-in shows as today's, and they now count among the active.
    await page.reload();
    await expect(page.getByRole('row').filter({ hasText: email })).toContainText('Hoy');
    await page.getByRole('link', { name: 'Activos (30 días)' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Usuarios activos' })).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: email })).toBeVisible();
    await expectNoSeriousAxeViolations(page, 'users/active');

    await page.getByRole('link', { name: 'Todos' }).click();
    await page.getByLabel('Rol').selectOption({ label: 'Cliente' });
    await expect(page.getByRole('row').filter({ hasText: email })).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: DEMO.staff })).toHaveCount(0);
    await page.screenshot({ path: shot('people-users-1280.png'), fullPage: true });
    await page.setViewportSize({ width: 375, height: 800 });
    await page.screenshot({ path: shot('people-users-375.png'), fullPage: true });
    await page.goto('/dashboard/users/create');
    await expect(page.getByRole('heading', { level: 1, name: 'Nuevo usuario' })).toBeVisible();
    await expectNoSeriousAxeViolations(page, 'users/create');
    await page.screenshot({ path: shot('people-user-create-375.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: shot('people-user-create-1280.png'), fullPage: true });
  });

  test('an admin creates a driver, who lands on /driver', async ({ page, browser }) => {
    const id = stamp();
    const email = `reparto-${id}@ejemplo.co`;
    await signInAs(page, DEMO.admin);
    await createUser(page, { name: `Repartidor ${id}`, email, role: 'Repartidor' });
    const driver = await otherPerson(browser);
    await signInAs(driver.page, email, PASSWORD, /\/driver\/orders/);
    await driver.close();
  });

  test("disabling a team member signs out their open tab within seconds; the team screen shows each role's permissions", async ({
    page,
    browser,
    playwright,
  }) => {
    test.setTimeout(90_000);
    const id = stamp();
    const email = `personal-${id}@ejemplo.co`;
    const name = `Personal ${id}`;
    // The member exists already (created through the API as the admin).
    const api = await playwright.request.newContext({ baseURL: ownAppUrl() });
    const token = await apiToken(api, DEMO.admin);
    const companyId = await marketCompanyId(api);
    const made = await api.post(`/api/companies/${companyId}/users`, {
      headers: { authorization: `Bearer ${token}` },
      data: { email, name, role: 'company_staff', password: PASSWORD },
    });
    expect(made.status(), await made.text()).toBe(201);
    await api.dispose();

    const member = await otherPerson(browser);
    await signInAs(member.page, email, PASSWORD);
    await expect(member.page.getByRole('heading', { level: 1 })).toBeVisible();

    await signInAs(page, DEMO.admin);
    await page.goto('/dashboard/staff');
    await expect(page.getByRole('heading', { level: 1, name: 'Equipo' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Qué puede hacer cada rol' })).toBeVisible();
    await expect(page.getByRole('article', { name: 'Repartidor' })).toContainText('Pedidos: ver (solo los asignados)');
    await expectNoSeriousAxeViolations(page, 'staff');
    await page.screenshot({ path: shot('people-staff-1280.png'), fullPage: true });

    await page.getByLabel('Buscar en el equipo').fill(id);
    const row = page.getByRole('row').filter({ hasText: email });
    // The search has been read (the rows are dimmed while it is: axe would measure their contrast then).
    await expect(page.getByText('1–1 de 1')).toBeVisible();
    await expect(page.getByRole('table', { name: 'Equipo' })).not.toHaveAttribute('aria-busy', 'true');
    await expect(row).toBeVisible();
    await row.getByRole('button', { name: `Desactivar a ${name}` }).click();
    const dialog = page.getByRole('alertdialog', { name: `¿Desactivar a ${name}?` });
    await expect(dialog).toBeVisible();
    await expectNoSeriousAxeViolations(page, 'staff disable dialog');
    await dialog.getByRole('button', { name: 'Desactivar' }).click();
    await expect(row).toContainText('Desactivado');

    // The member's open tab: its stream ends, its next call is refused, and it goes to the login with a notice.
    await expect(member.page).toHaveURL(/\/login\?sesion=terminada/, { timeout: 8_000 });
    await expect(member.page.getByRole('status').filter({ hasText: 'Tu sesión se cerró' })).toBeVisible();
    await member.close();

    // Enabled again after a confirmation.
    await row.getByRole('button', { name: `Activar a ${name}` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Activar' }).click();
    await expect(row).toContainText('Activo');
    // A role change from the row.
    await row.getByLabel(`Rol de ${name}`).selectOption({ label: 'Producción' });
    await expect(page.getByRole('status').filter({ hasText: 'ahora es producción' })).toBeVisible();
    await page.setViewportSize({ width: 375, height: 800 });
    await page.screenshot({ path: shot('people-staff-375.png'), fullPage: true });
  });

  test('staff are kept off the team screen and create customers only', async ({ page }) => {
    await signInAs(page, DEMO.staff);
    const nav = page.getByRole('navigation', { name: 'Panel de la panadería' });
    await expect(nav.getByRole('link', { name: 'Usuarios' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Equipo' })).toHaveCount(0);
    await page.goto('/dashboard/staff');
    await expect(page).not.toHaveURL(/\/dashboard\/staff/);
    await page.goto('/dashboard/users/create');
    await expect(page.getByLabel('Rol').locator('option')).toHaveText(['Cliente']);
  });

  test('a system admin switches the company the dashboard acts on', async ({ page }) => {
    await signInAs(page, DEMO.root);
    const bar = page.getByRole('region', { name: 'Panadería' });
    await expect(bar).toContainText('Actúas sobre');
    await bar.getByRole('button', { name: 'Cambiar de panadería' }).click();
    await bar.getByLabel('Buscar panadería').fill('zzz-no-existe');
    await expect(bar).toContainText('Ninguna panadería coincide');
    const config = (await (await page.request.get('/api/config')).json()) as { data: { marketName: string } };
    const name = config.data.marketName;
    await bar.getByLabel('Buscar panadería').fill(name);
    const choice = bar.getByRole('list', { name: 'Panaderías' }).getByRole('button', { name, exact: true });
    await expect(choice).toBeVisible();
    await expectNoSeriousAxeViolations(page, 'company switcher');
    await page.screenshot({ path: shot('people-switcher-1280.png') });
    await choice.click();
    await expect(bar).toContainText(`Actúas sobre ${name}`);
    await page.goto('/dashboard/staff');
    await expect(page.getByRole('heading', { level: 1, name: 'Equipo' })).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: DEMO.admin })).toBeVisible();
  });
});

import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  DEMO_PASSWORD,
  apiToken,
  expectNoSeriousAxeViolations,
  landedOn,
  marketCompanyId,
  shot,
  signIn,
} from './support/session';
import { mailedLink } from './support/outbox';

const WIDTHS = [375, 1280] as const;

/** A value no earlier run or other test has used (each run starts on a fresh database, tests share it). */
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}`;

/** A user of the demo bakery made by its admin (POST …/users), optionally disabled afterwards. */
async function createCompanyUser(
  request: APIRequestContext,
  input: { name: string; email: string; password: string; role: string; disabled?: boolean },
): Promise<{ id: string }> {
  const token = await apiToken(request, 'admin@hornada.test');
  const headers = { authorization: `Bearer ${token}` };
  const companyId = await marketCompanyId(request);
  const created = await request.post(`/api/companies/${companyId}/users`, {
    headers,
    data: { name: input.name, email: input.email, password: input.password, role: input.role },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = ((await created.json()) as { data: { id: string } }).data;
  if (input.disabled) {
    const patched = await request.patch(`/api/companies/${companyId}/users/${id}`, {
      headers,
      data: { disabled: true },
    });
    expect(patched.status(), await patched.text()).toBe(200);
  }
  return { id };
}

/** A company admin with no bakery yet, registered as /signup does (docs/product.md §7: no token). */
async function registerAdmin(request: APIRequestContext, name: string, email: string, password: string) {
  const res = await request.post('/api/auth/register', {
    data: { email, password, name, role: 'company_admin', companyId: null },
  });
  expect(res.status(), await res.text()).toBe(201);
}

async function screenshots(page: Page, name: string, ready: () => Promise<void>) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await ready();
    // A full-page shot of a scrolled page draws the sticky header where it was scrolled to.
    await page.evaluate(() => window.scrollTo(0, 0));
    const scrollWidth = await page.evaluate(() => document.scrollingElement!.scrollWidth);
    expect(scrollWidth, `${name} fits ${width} px`).toBeLessThanOrEqual(width);
    await page.screenshot({ path: shot(`${name}-${width}.png`), fullPage: true });
  }
}

test.describe('sign-in errors', () => {
  test('a wrong password shows the Spanish message', async ({ page, expectConsoleErrors }) => {
    expectConsoleErrors(401);
    await page.goto('/login');
    await signIn(page, 'cliente@hornada.test', 'no-es-la-clave');
    await expect(page.getByRole('alert')).toHaveText('Correo o contraseña incorrectos.');
    await expect(page).toHaveURL('/login');
  });

  test('a disabled account shows its Spanish message', async ({ page, request, expectConsoleErrors }) => {
    expectConsoleErrors(403);
    const email = `${unique('deshabilitado')}@hornada.test`;
    const password = 'pan-de-bono-caliente';
    await createCompanyUser(request, {
      name: 'Cliente Deshabilitado',
      email,
      password,
      role: 'company_customer',
      disabled: true,
    });
    await page.goto('/login');
    await signIn(page, email, password);
    await expect(page.getByRole('alert')).toHaveText('Esta cuenta está deshabilitada.');
    await expect(page).toHaveURL('/login');
  });
});

test.describe('a bakery owner', () => {
  test('signs up, verifies her e-mail, creates the bakery and lands on its dashboard', async ({ page, request }) => {
    // The whole journey, now with a mail round trip: more than the default 30 s on a loaded machine.
    test.slow();
    const email = `${unique('duena')}@hornada.test`;
    const bakery = `Horno ${unique('prueba')}`;

    await page.goto('/signup');
    await expect(page.getByRole('heading', { level: 1, name: 'Crear cuenta' })).toBeVisible();
    // Client checks in Spanish, under each field, before anything is sent.
    await page.getByRole('button', { name: 'Crear cuenta' }).click();
    await expect(page.getByLabel('Tu nombre')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText('Este campo es obligatorio.')).toBeVisible();
    await expect(page.getByText('Escribe un correo válido, por ejemplo nombre@correo.com.')).toBeVisible();
    await expect(page.getByText('La contraseña debe tener al menos 8 caracteres.')).toBeVisible();

    await page.getByLabel('Tu nombre').fill('Valentina Ríos de la Torre');
    await page.getByLabel('Correo electrónico').fill(email);
    const password = page.getByLabel('Contraseña', { exact: true });
    await password.fill('almojabanas-2026');
    await page.getByRole('button', { name: 'Mostrar contraseña' }).click();
    await expect(password).toHaveAttribute('type', 'text');
    await page.getByRole('button', { name: 'Crear cuenta' }).click();

    await expect(page).toHaveURL('/createBakery');
    // Acting as a bakery needs a verified e-mail: she opens the link mailed to her first.
    await page.goto(await mailedLink(request, email, /^Confirma tu correo en /));
    await expect(page.getByRole('status')).toContainText('¡Listo! Tu correo quedó verificado.');
    await page.goto('/createBakery');
    await expect(page.getByRole('heading', { level: 1, name: 'Crear tu panadería' })).toBeVisible();
    await page.getByLabel('Nombre de la panadería').fill(bakery);
    await page.getByLabel('Teléfono').fill('601 555 0101');
    await page.getByLabel('WhatsApp').fill('300 555 0101');
    await page.getByLabel('Dirección').fill('Calle 10 # 5-20, Bogotá');
    await page.getByRole('button', { name: 'Crear panadería' }).click();

    await expect(page).toHaveURL(landedOn('/dashboard/orders'));
    await expect(page.getByRole('status').filter({ hasText: bakery })).toBeVisible();
    const banner = page.getByRole('banner');
    await expect(banner.getByRole('button', { name: 'Valentina' })).toBeVisible();

    // Her profile names the bakery she runs.
    await banner.getByRole('button', { name: 'Valentina' }).click();
    await banner.getByRole('link', { name: 'Mi Cuenta' }).click();
    await expect(page).toHaveURL('/customer/profile');
    await expect(page.getByRole('definition').filter({ hasText: bakery })).toBeVisible();
    await expect(page.getByText(email)).toBeVisible();

    // Signing out goes home (docs/product.md §2).
    await banner.getByRole('button', { name: 'Valentina' }).click();
    await banner.getByRole('button', { name: 'Cerrar Sesión' }).click();
    await expect(page).toHaveURL('/');
  });

  test('a duplicate e-mail is told clearly', async ({ page, request, expectConsoleErrors }) => {
    expectConsoleErrors(409);
    const email = `${unique('repetido')}@hornada.test`;
    await registerAdmin(request, 'Primera Dueña', email, 'cuajada-con-melao');
    await page.goto('/signup');
    await page.getByLabel('Tu nombre').fill('Segunda Dueña');
    await page.getByLabel('Correo electrónico').fill(email);
    await page.getByLabel('Contraseña', { exact: true }).fill('cuajada-con-melao');
    await page.getByRole('button', { name: 'Crear cuenta' }).click();
    await expect(
      page.getByText(
        'Ya existe una cuenta con ese correo. Si el correo es tuyo, inicia sesión o recupera tu contraseña; si no, usa otro correo.',
      ),
    ).toBeVisible();
    await expect(page.getByLabel('Correo electrónico')).toHaveAttribute('aria-invalid', 'true');
    await expect(page).toHaveURL('/signup');
  });

  test('a guest on /createBakery is invited to sign up first', async ({ page }) => {
    await page.goto('/createBakery');
    await expect(page.getByRole('heading', { level: 1, name: 'Crear tu panadería' })).toBeVisible();
    await page.getByRole('link', { name: 'Crear cuenta' }).click();
    await expect(page).toHaveURL('/signup');
  });

  test('staff on /createBakery are shown their own place', async ({ page }) => {
    await page.goto('/login');
    await signIn(page, 'staff@hornada.test', DEMO_PASSWORD);
    await expect(page).toHaveURL(landedOn('/dashboard/orders'));
    await page.goto('/createBakery');
    await page.getByRole('link', { name: 'Ir a mi inicio' }).click();
    await expect(page).toHaveURL(landedOn('/dashboard/orders'));
  });
});

test.describe('the profile page', () => {
  test('keeps a changed name and phone, and refuses a wrong current password', async ({
    page,
    request,
    expectConsoleErrors,
  }) => {
    expectConsoleErrors(400);
    const email = `${unique('perfil')}@hornada.test`;
    const password = 'arepa-de-choclo-77';
    await createCompanyUser(request, { name: 'Camilo Pérez', email, password, role: 'company_customer' });
    await page.goto('/login');
    await signIn(page, email, password);
    await expect(page).toHaveURL('/');
    await page.goto('/customer/profile');

    await expect(page.getByRole('heading', { level: 1, name: 'Mi perfil' })).toBeVisible();
    await expect(page.getByText(email)).toBeVisible();
    await expect(page.getByText('Sin verificar')).toBeVisible();
    const name = page.getByLabel('Nombre', { exact: true });
    await expect(name).toHaveValue('Camilo Pérez');

    // An address: added, its required line checked in Spanish, then filled.
    await page.getByRole('button', { name: 'Agregar dirección' }).click();
    await name.fill('Andrés Felipe Gómez');
    await page.getByLabel('Teléfono').fill('310 555 0199');
    await page.getByRole('button', { name: 'Guardar cambios' }).click();
    await expect(page.getByLabel('Dirección', { exact: true })).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText('Este campo es obligatorio.')).toBeVisible();
    await page.getByLabel('Dirección', { exact: true }).fill('Carrera 7 # 45-10');
    await page.getByLabel('Barrio').fill('Chapinero');

    // Leaving with unsaved changes asks first.
    const banner = page.getByRole('banner');
    await banner.getByRole('link', { name: 'Carrito' }).click();
    const dialog = page.getByRole('alertdialog', { name: '¿Salir sin guardar?' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Seguir editando' }).click();
    await expect(page).toHaveURL('/customer/profile');

    await page.getByRole('button', { name: 'Guardar cambios' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Guardamos tus datos.' })).toBeVisible();
    await expect(banner.getByRole('button', { name: 'Andrés' })).toBeVisible();

    await page.reload();
    await expect(page.getByLabel('Nombre', { exact: true })).toHaveValue('Andrés Felipe Gómez');
    await expect(page.getByLabel('Teléfono')).toHaveValue('310 555 0199');
    await expect(page.getByLabel('Dirección', { exact: true })).toHaveValue('Carrera 7 # 45-10');
    await expect(page.getByLabel('Barrio')).toHaveValue('Chapinero');
    await page.setViewportSize({ width: 375, height: 812 });
    await page.screenshot({ path: shot('profile-address-375.png'), fullPage: true });

    await page.getByLabel('Contraseña actual').fill('no-es-la-actual');
    await page.getByLabel('Contraseña nueva').fill('pandeyuca-recien-horneado');
    await page.getByRole('button', { name: 'Cambiar contraseña' }).click();
    await expect(page.getByText('La contraseña actual no es correcta.')).toBeVisible();
    await expect(page.getByLabel('Contraseña actual')).toHaveAttribute('aria-invalid', 'true');
  });
});

test.describe('accessibility and screens', () => {
  test('guest pages: no serious axe violations; screenshots', async ({ page }) => {
    for (const [path, name, heading] of [
      ['/login', 'login', 'Iniciar sesión'],
      ['/signup', 'signup', 'Crear cuenta'],
      ['/createBakery', 'create-bakery-guest', 'Crear tu panadería'],
    ] as const) {
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(path);
      const ready = () => expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await ready();
      await expectNoSeriousAxeViolations(page, path);
      await screenshots(page, name, ready);
    }
  });

  test('/createBakery for an admin without a bakery: no serious axe violations; screenshots', async ({
    page,
    request,
  }) => {
    const email = `${unique('sin-panaderia')}@hornada.test`;
    await registerAdmin(request, 'Dueño Sin Panadería', email, 'mogolla-chicharrona');
    await page.goto('/login');
    await signIn(page, email, 'mogolla-chicharrona');
    await expect(page).toHaveURL('/createBakery');
    const ready = () => expect(page.getByLabel('Nombre de la panadería')).toBeVisible();
    await ready();
    await expectNoSeriousAxeViolations(page, '/createBakery (admin without a bakery)');
    // With errors showing, too.
    await page.getByRole('button', { name: 'Crear panadería' }).click();
    await expect(page.getByLabel('Nombre de la panadería')).toHaveAttribute('aria-invalid', 'true');
    await expectNoSeriousAxeViolations(page, '/createBakery with errors');
    await screenshots(page, 'create-bakery-form', ready);
  });

  test('staff dashboard and profile: no serious axe violations; screenshots', async ({ page }) => {
    // Two screens, each with an axe pass and screenshots at two widths: more than 30 s on a loaded machine.
    test.slow();
    await page.goto('/login');
    await signIn(page, 'staff@hornada.test', DEMO_PASSWORD);
    await expect(page).toHaveURL(landedOn('/dashboard/orders'));
    await expect(page.getByRole('heading', { level: 1, name: 'Pedidos' })).toBeVisible();
    await expectNoSeriousAxeViolations(page, '/dashboard/orders (staff)');

    await page.goto('/dashboard/profile');
    const ready = () => expect(page.getByLabel('Nombre', { exact: true })).toBeVisible();
    await ready();
    await expectNoSeriousAxeViolations(page, '/dashboard/profile (staff)');
    await screenshots(page, 'profile', ready);
  });
});

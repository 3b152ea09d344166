/**
 * Password recovery and e-mail verification in the browser, through the outbox: the request
 * page says the same for any e-mail; the mailed link sets a new password once, and the other browser
 * signed in to the account loses its session; a used link is refused in Spanish, and so is one past its 30
 * minutes (moved there in the app's database, support/database.ts: the server runs on the real clock;
 * apps/server/test/api/identity-recovery.test.ts moves its injected clock instead).
 */
import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures';
import { withAppDatabase } from './support/database';
import { mailedLink } from './support/outbox';
import {
  accountButton,
  apiToken,
  DEMO,
  expectNoSeriousAxeViolations,
  marketCompanyId,
  shot,
  signIn,
} from './support/session';

const PASSWORD = 'pan-de-bono-tibio';
const NEW_PASSWORD = 'corteza-crujiente-nueva';
const stamp = () => `${Date.now()}${Math.floor(Math.random() * 1000)}`;

/** A customer of the market registered by staff (docs/product.md §7), who gets a verification link. */
async function customer(request: APIRequestContext, email: string, name: string): Promise<void> {
  const token = await apiToken(request, DEMO.staff);
  const res = await request.post('/api/auth/register', {
    headers: { authorization: `Bearer ${token}` },
    data: { email, password: PASSWORD, name, role: 'company_customer', companyId: await marketCompanyId(request) },
  });
  expect(res.status(), await res.text()).toBe(201);
}

test.describe('password recovery', () => {
  test('resets through the mailed link; the other browser is signed out; the used link is refused', async ({
    page,
    browser,
    request,
    expectConsoleErrors,
  }) => {
    const email = `recupera${stamp()}@prueba.test`;
    await customer(request, email, 'Rocío Recupera');

    // Another browser, signed in to the account.
    const other = await browser.newContext();
    const otherPage = await other.newPage();
    await signIn(otherPage, email, PASSWORD);
    await expect(accountButton(otherPage, 'Rocío')).toBeVisible();

    // This browser forgot the password.
    await page.goto('/login');
    await page.getByRole('link', { name: '¿Olvidaste tu contraseña?' }).click();
    await expect(page).toHaveURL('/recuperar-contrasena');
    await page.getByLabel('Correo electrónico').fill(email);
    await page.getByRole('button', { name: 'Enviar enlace' }).click();
    await expect(page.getByRole('status')).toContainText(`Si existe una cuenta con ${email}, te enviamos un enlace`);
    await page.setViewportSize({ width: 375, height: 740 });
    await expectNoSeriousAxeViolations(page, '/recuperar-contrasena');
    await page.screenshot({ path: shot('recovery-sent-375.png'), fullPage: true });

    const link = await mailedLink(request, email, /^Restablece tu contraseña de Panadería La Espiga$/);
    expect(link.startsWith('http://127.0.0.1:')).toBe(true);
    await page.goto(link);
    await expect(page.getByRole('heading', { level: 1, name: 'Restablecer contraseña' })).toBeVisible();
    // The bakery's staff made this account for the address: its owner says whether to stay.
    const choice = page.getByRole('group', { name: 'Panadería La Espiga creó esta cuenta para ti como cliente.' });
    await expect(choice.getByLabel(/^No, la cuenta es solo mía/)).toBeChecked();
    await choice.getByLabel('Sí, sigo en Panadería La Espiga con ese rol.').check();
    await expectNoSeriousAxeViolations(page, '/restablecer-contrasena');
    await page.getByLabel('Contraseña nueva').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Guardar contraseña' }).click();
    await expect(page.getByRole('status')).toContainText('Tu contraseña cambió');
    await page.screenshot({ path: shot('recovery-done-375.png'), fullPage: true });

    // The other browser's refresh fails, and a reload finds it signed out.
    const refused = await other.request.post('/api/identity/refresh');
    expect(refused.status()).toBe(401);
    await otherPage.reload();
    await expect(otherPage.getByRole('banner').getByRole('link', { name: 'Ingresar' })).toBeVisible();
    await other.close();

    // The new password signs in here.
    await page.getByRole('link', { name: 'Iniciar sesión' }).click();
    await signIn(page, email, NEW_PASSWORD);
    await expect(accountButton(page, 'Rocío')).toBeVisible();

    // The same link again: refused in Spanish, with the way to a new one.
    expectConsoleErrors(400);
    await page.goto(link);
    await page.getByLabel('Contraseña nueva').fill('otra-clave-muy-larga');
    await page.getByRole('button', { name: 'Guardar contraseña' }).click();
    await expect(page.getByRole('alert')).toHaveText('Este enlace no es válido o ya se usó. Pide uno nuevo.');
    await expect(page.getByRole('link', { name: 'Pedir un enlace nuevo' })).toBeVisible();
  });

  test('a link past its 30 minutes is refused in Spanish, with the way to a new one', async ({
    page,
    request,
    expectConsoleErrors,
  }) => {
    const email = `vencido${stamp()}@prueba.test`;
    await customer(request, email, 'Vera Vencida');
    await page.goto('/recuperar-contrasena');
    await page.getByLabel('Correo electrónico').fill(email);
    await page.getByRole('button', { name: 'Enviar enlace' }).click();
    await expect(page.getByRole('status')).toContainText(`Si existe una cuenta con ${email}, te enviamos un enlace`);
    const link = await mailedLink(request, email, /^Restablece tu contraseña de Panadería La Espiga$/);
    // The clock moves past the link's 30 minutes: its expiry is set 31 minutes after it was made, in the past.
    const expired = await withAppDatabase(async (db) => {
      const res = await db.query(
        `UPDATE action_tokens SET created_at = created_at - interval '31 minutes',
                                  expires_at = created_at - interval '1 minute'
          WHERE purpose = 'password-reset' AND used_at IS NULL
            AND user_id = (SELECT id FROM users WHERE email = $1)`,
        [email],
      );
      return res.rowCount;
    });
    expect(expired).toBe(1);

    expectConsoleErrors(400);
    await page.goto(link);
    await page.getByLabel('Contraseña nueva').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Guardar contraseña' }).click();
    await expect(page.getByRole('alert')).toHaveText('Este enlace venció. Pide uno nuevo.');
    await expect(page.getByRole('link', { name: 'Pedir un enlace nuevo' })).toBeVisible();
    // The old password still signs in: nothing changed.
    const signIn = await request.post('/api/identity/sign-in', { data: { email, password: PASSWORD } });
    expect(signIn.status()).toBe(200);
  });

  test('an unknown e-mail gets the same page and no mail', async ({ page, request }) => {
    const email = `nadie${stamp()}@prueba.test`;
    await page.goto('/recuperar-contrasena');
    await page.getByLabel('Correo electrónico').fill(email);
    await page.getByRole('button', { name: 'Enviar enlace' }).click();
    await expect(page.getByRole('status')).toContainText(`Si existe una cuenta con ${email}, te enviamos un enlace`);
    const token = await apiToken(request, DEMO.root);
    const res = await request.get('/api/outbox?per_page=100', { headers: { authorization: `Bearer ${token}` } });
    expect(((await res.json()) as { data: { to: string }[] }).data.some((m) => m.to === email)).toBe(false);
  });
});

test.describe('e-mail verification', () => {
  test('the registration link verifies the e-mail; the profile shows it; a new link can be asked for', async ({
    page,
    request,
  }) => {
    const email = `verifica${stamp()}@prueba.test`;
    await customer(request, email, 'Valeria Verifica');
    const seen = new Set<string>();
    const first = await mailedLink(request, email, /^Confirma tu correo en /, seen);

    await signIn(page, email, PASSWORD);
    await expect(accountButton(page, 'Valeria')).toBeVisible();
    await page.goto('/customer/profile');
    await expect(page.getByText('Sin verificar')).toBeVisible();
    await page.getByRole('button', { name: 'Enviar enlace de verificación' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Te enviamos un enlace nuevo' })).toBeVisible();
    const second = await mailedLink(request, email, /^Confirma tu correo en /, seen);
    expect(second).not.toBe(first);

    await page.goto(second);
    // The bakery's staff made this account for the address: its owner says whether to stay.
    await expect(page.getByText('Panadería La Espiga creó esta cuenta para ti como cliente.')).toBeVisible();
    await page.getByRole('button', { name: 'Seguir en Panadería La Espiga' }).click();
    await expect(page.getByRole('status')).toContainText('¡Listo! Tu correo quedó verificado.');
    await expectNoSeriousAxeViolations(page, '/verificar-correo');
    await page.goto('/customer/profile');
    await expect(page.getByText('Verificado', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Enviar enlace de verificación' })).toHaveCount(0);
  });
});

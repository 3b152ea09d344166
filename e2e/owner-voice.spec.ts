import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { NEW_BAKERY_PASSWORD, unique } from './support/new-bakery';
import { mailed } from './support/outbox';
import { apiToken, expectNoSeriousAxeViolations, landedOn, shot } from './support/session';

/**
 * A new owner signs up at Hornada, not at the market's bakery ("Panadería La
 * Espiga"): /signup, /createBakery, her verification mail and page speak as Hornada, and «Ir al inicio» goes
 * where her role lands; her staff's invitation speaks as her bakery and reads as an invitation.
 */

const MARKET = 'Panadería La Espiga';

/** The page at both widths: axe clean, a screenshot of each. */
async function looked(page: Page, label: string) {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: width === 375 ? 740 : 900 });
    await expectNoSeriousAxeViolations(page, `${label} at ${width}`);
    await page.screenshot({ path: shot(`owner-voice-${label}-${width}.png`), fullPage: true });
  }
}

/** The header names `name`, never the market's bakery, and offers no shop's Products menu nor cart. */
async function headerSpeaksAs(page: Page, name: string) {
  const banner = page.getByRole('banner');
  await expect(banner.getByRole('link', { name, exact: true })).toBeVisible();
  await expect(banner).not.toContainText(MARKET);
  await expect(banner.getByRole('button', { name: 'Productos' })).toHaveCount(0);
  await expect(banner.getByRole('link', { name: /^Carrito/ })).toHaveCount(0);
  await expect(page.getByRole('contentinfo')).not.toContainText(MARKET);
}

test('a new owner signs up at Hornada; her staff is invited by her bakery', async ({ page, browser, request }) => {
  // Two people's whole walk (sign-up, mail, a bakery, an invitation, a second browser): about 35 s on a busy
  // 2-core machine, against the 45 s default bound for a hang.
  test.slow();
  const email = `${unique('duena-voz')}@hornada.test`;
  const bakery = `Horno ${unique('voz')}`;

  await page.goto('/signup');
  await expect(page.getByRole('heading', { level: 1, name: 'Crear cuenta' })).toBeVisible();
  await headerSpeaksAs(page, 'Hornada');
  await looked(page, 'signup');
  await page.getByLabel('Tu nombre').fill('Marcela Rincón');
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Contraseña', { exact: true }).fill(NEW_BAKERY_PASSWORD);
  await page.getByRole('button', { name: 'Crear cuenta' }).click();

  await expect(page).toHaveURL('/createBakery');
  await expect(page.getByRole('heading', { level: 1, name: 'Crear tu panadería' })).toBeVisible();
  await headerSpeaksAs(page, 'Hornada');
  await looked(page, 'create-bakery');

  // Her verification mail is Hornada's, signed by it.
  const verification = await mailed(request, email, /./);
  expect(verification.subject).toBe('Confirma tu correo en Hornada');
  expect(verification.text.trimEnd().split('\n').at(-1)).toBe('Hornada');
  expect(verification.text).not.toContain(MARKET);
  const link = /https?:\/\/\S+\?token=\S+/.exec(verification.text)?.[0];
  expect(link).toBeDefined();

  await page.goto(link!);
  await expect(page.getByRole('status')).toContainText('¡Listo! Tu correo quedó verificado.');
  await headerSpeaksAs(page, 'Hornada');
  await looked(page, 'verified');
  // «Inicio» for an owner without a bakery yet is creating it, not the market's shop.
  await page.getByRole('link', { name: 'Ir al inicio' }).click();
  await expect(page).toHaveURL(landedOn('/createBakery'));
  await page.getByLabel('Nombre de la panadería').fill(bakery);
  await page.getByRole('button', { name: 'Crear panadería' }).click();
  await expect(page).toHaveURL(landedOn('/dashboard/orders'));

  // She invites a baker (as /dashboard/users does: no password, a mailed link).
  const owner = await apiToken(request, email, NEW_BAKERY_PASSWORD);
  const me = await request.get('/api/me', { headers: { authorization: `Bearer ${owner}` } });
  const companyId = ((await me.json()) as { data: { companyId: string } }).data.companyId;
  const staffEmail = `${unique('panadero-voz')}@hornada.test`;
  const invited = await request.post(`/api/companies/${companyId}/users`, {
    headers: { authorization: `Bearer ${owner}` },
    data: { email: staffEmail, name: 'Julián Panadero', role: 'company_staff', invite: true },
  });
  expect(invited.status(), await invited.text()).toBe(201);
  const invitation = await mailed(request, staffEmail, /./);
  expect(invitation.subject).toBe(`${bakery} te invita a crear tu contraseña`);
  expect(invitation.text.trimEnd().split('\n').at(-1)).toBe(bakery);
  const invitationLink = /https?:\/\/\S+\?token=\S+/.exec(invitation.text)?.[0];
  expect(invitationLink).toBeDefined();

  // Her baker, on his own phone, opens it: an invitation from her bakery, not a reset.
  const staff = await browser.newContext();
  const staffPage = await staff.newPage();
  await staffPage.goto(invitationLink!);
  await expect(staffPage.getByRole('heading', { level: 1, name: 'Crea tu contraseña' })).toBeVisible();
  await expect(staffPage.getByText(`${bakery} te invitó.`)).toBeVisible();
  await headerSpeaksAs(staffPage, bakery);
  await expect(staffPage.getByText('Restablecer contraseña')).toHaveCount(0);
  await looked(staffPage, 'invitation');
  await staffPage.getByLabel('Tu contraseña').fill('mogolla-de-la-manana');
  await staffPage.getByRole('button', { name: 'Crear mi contraseña' }).click();
  await expect(staffPage.getByRole('status')).toContainText('Ya puedes entrar');
  await expect(staffPage.getByText('Tu contraseña cambió')).toHaveCount(0);
  await looked(staffPage, 'invitation-done');
  await staffPage.getByRole('link', { name: 'Iniciar sesión' }).click();
  await expect(staffPage).toHaveURL(/\/login/);
  await staff.close();
});

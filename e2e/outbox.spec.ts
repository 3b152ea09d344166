import type { Page, Route } from '@playwright/test';
import { expect, test } from './fixtures';
import { shotsAtBothWidths } from './support/admin-api';
import { newBakery } from './support/new-bakery';
import { DEMO, expectNoSeriousAxeViolations, landedOn, signInByApi } from './support/session';

/**
 * Without SMTP_URL nobody receives mail, so a system admin reads it at
 * /dashboard/outbox (linked from the dashboard's menu): to, subject, when and the text with its links,
 * searched by address, with loading, empty and error states. A bakery's owner has neither the link nor the page.
 */

const nav = (page: Page) => page.getByRole('navigation', { name: 'Panel de la panadería' });

test('a system admin finds a new owner’s verification mail and its link by her address', async ({
  page,
  request,
  expectConsoleErrors,
}) => {
  test.slow();
  // A new bakery's owner: her verification mail and her driver's invitation wait in the outbox.
  const bakery = await newBakery(request, 'Panadería del Correo');
  const invited = `invitada-${Date.now().toString(36)}@hornada.test`;
  await bakery.call('POST', 'users', {
    email: invited,
    name: 'Invitada Ríos',
    role: 'delivery_assistant',
    invite: true,
  });

  await signInByApi(page, DEMO.root);
  await expect(page).toHaveURL(landedOn('/dashboard/orders'));
  // Slow the first read down: the loading state shows.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/outbox?*', async (route) => {
    await held;
    await route.fallback();
  });
  await nav(page).getByRole('link', { name: 'Correos sin enviar' }).click();
  // While its read is under way the screen's title and what it loads stand in for the screen being left; the
  // address moves once the screen is ready (docs/web.md "Data").
  await expect(page.getByRole('heading', { level: 1, name: 'Correos sin enviar' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Cargando los correos…' })).toBeVisible();
  await expectNoSeriousAxeViolations(page, 'outbox loading');
  release();
  await expect(page).toHaveURL('/dashboard/outbox');
  const mails = page.getByRole('list', { name: 'Correos' }).getByRole('listitem');
  await expect(mails.first()).toBeVisible();

  // Her address, typed in part and in capitals: only her mail, with what it says and its link.
  await page.getByLabel('Buscar por correo').fill(bakery.email.split('@')[0]!.toUpperCase());
  await expect(page).toHaveURL(/\/dashboard\/outbox\?q=/);
  await expect(mails).toHaveCount(1);
  const mail = mails.first();
  await expect(mail.getByRole('heading', { level: 2 })).toHaveText(/^Confirma tu correo/);
  await expect(mail).toContainText(`Para: ${bakery.email}`);
  await expect(mail.locator('time')).toHaveText(/^Hoy, /);
  const link = mail.getByRole('link', { name: /\/verificar-correo\?token=/ });
  await expect(link).toHaveAttribute('href', /^http:\/\/.+\/verificar-correo\?token=\S+$/);
  await expect(page.getByRole('status')).toHaveText(/^1 correo a direcciones con «/);
  await expectNoSeriousAxeViolations(page, 'outbox searched');
  await shotsAtBothWidths(page, 'outbox-search', { fullPage: false });

  // The invitation too, by its own address.
  await page.getByLabel('Buscar por correo').fill(invited);
  await expect(mails).toHaveCount(1);
  await expect(mails.first()).toContainText(`Para: ${invited}`);
  await expect(mails.first().getByRole('link')).toHaveAttribute('href', /\?token=/);

  // A page past the end (an old link): its last page, the mail shown.
  await page.goto(`/dashboard/outbox?q=${encodeURIComponent(invited)}&pagina=99`);
  await expect(page).not.toHaveURL(/pagina=99/);
  await expect(mails).toHaveCount(1);

  // Nobody by that address: said so, with what to try.
  await page.getByLabel('Buscar por correo').fill('nadie-con-este-correo');
  await expect(page.getByText('Ningún correo a una dirección con «nadie-con-este-correo».')).toBeVisible();
  await expect(mails).toHaveCount(0);
  await expectNoSeriousAxeViolations(page, 'outbox empty search');
  await shotsAtBothWidths(page, 'outbox-empty', { fullPage: false });

  // A failed read: said in Spanish, and tried again.
  expectConsoleErrors(500);
  const broken = (route: Route) =>
    route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"boom"}' });
  await page.route('**/api/outbox?*', broken);
  await page.getByLabel('Buscar por correo').fill(invited);
  const failed = page.getByRole('alert').filter({ has: page.getByRole('button', { name: 'Intentar de nuevo' }) });
  await expect(failed).toBeVisible();
  await expectNoSeriousAxeViolations(page, 'outbox failed');
  await shotsAtBothWidths(page, 'outbox-failed', { fullPage: false });
  await page.unroute('**/api/outbox?*', broken);
  await failed.getByRole('button', { name: 'Intentar de nuevo' }).click();
  await expect(mails).toHaveCount(1);
});

test('a bakery’s owner has no outbox: no link, and the page is not hers', async ({ page, request }) => {
  const bakery = await newBakery(request, 'Panadería sin Correo');
  await signInByApi(page, bakery.email, bakery.password);
  await expect(page).toHaveURL(landedOn('/dashboard/orders'));
  await expect(nav(page).getByRole('link', { name: 'Pedidos', exact: true })).toBeVisible();
  await expect(nav(page).getByRole('link', { name: 'Correos sin enviar' })).toHaveCount(0);
  await page.goto('/dashboard/outbox');
  await expect(page).not.toHaveURL(/\/dashboard\/outbox/);
  await expect(page.getByText(bakery.email)).toHaveCount(0);
});

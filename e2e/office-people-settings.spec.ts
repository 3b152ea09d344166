import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { ownAppUrl } from './support/apps';
import { shotsAtBothWidths } from './support/admin-api';
import { newBakery, unique, dayFromToday, type NewBakery } from './support/new-bakery';
import { mailedLink } from './support/outbox';
import { expectNoSeriousAxeViolations, shot, signInByApi } from './support/session';

/**
 * A new bakery's office, its people, settings and an order's history: an invited person shows as pending with
 * "Reenviar" (a new link, the old one void); the time zone is searched, Colombia's first; a new delivery
 * window is not red before anything is typed, and "Mes siguiente" works at the first click after typing a
 * time; an order's history says what changed in words and names its driver.
 */

let api: APIRequestContext;
let bakery: NewBakery;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ playwright }) => {
  api = await playwright.request.newContext({ baseURL: ownAppUrl() });
  bakery = await newBakery(api, 'Panadería de Lucía');
});
test.afterAll(async () => {
  await api?.dispose();
});

/** Her office, once the sign-in has landed (a page opened before would find no session yet). */
async function signInAsOwner(page: Page) {
  await signInByApi(page, bakery.email, bakery.password);
  await expect(page).toHaveURL(/\/dashboard\//);
}

const INVITE_SUBJECT = /invita a crear tu contraseña/;

test('an invited person shows as pending; Reenviar mails a new link and the old one stops working', async ({
  page,
  expectConsoleErrors,
}) => {
  // The old link's refusal, asked of the API below, is no page's error; the page's own calls must stay clean.
  expectConsoleErrors(400);
  const email = `${unique('invitada')}@hornada.test`;
  const name = 'Carolina Invitada';
  await bakery.call('POST', 'users', { email, name, role: 'company_staff', invite: true });
  const seen = new Set<string>();
  const firstLink = await mailedLink(api, email, INVITE_SUBJECT, seen);

  await signInAsOwner(page);
  await page.goto('/dashboard/staff');
  await expect(page.getByRole('heading', { level: 1, name: 'Equipo' })).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: email });
  await expect(row).toContainText('Invitación pendiente');
  await expect(row).toContainText('Enviada hoy');
  await expectNoSeriousAxeViolations(page, 'staff with a pending invitation');
  await shotsAtBothWidths(page, 'people-invitation-pending');

  await row.getByRole('button', { name: `Reenviar la invitación a ${name}` }).click();
  const toast = page.getByRole('status').filter({ hasText: `Enviamos de nuevo la invitación a ${name}.` });
  await expect(toast).toBeVisible();
  await expect(row).toContainText('Invitación pendiente');
  const secondLink = await mailedLink(api, email, INVITE_SUBJECT, seen);
  expect(secondLink).not.toBe(firstLink);

  const tokenOf = (link: string) => new URL(link).searchParams.get('token');
  const old = await api.post('/api/identity/password-reset/confirm', {
    data: { token: tokenOf(firstLink), password: 'masa-madre-de-lucia' },
  });
  expect(old.status()).toBe(400);
  const fresh = await api.post('/api/identity/password-reset/confirm', {
    data: { token: tokenOf(secondLink), password: 'masa-madre-de-lucia' },
  });
  expect(fresh.status(), await fresh.text()).toBe(200);
  // In: the row says so, with no Reenviar any more.
  await page.reload();
  await expect(row).toContainText('Activo');
  await expect(row.getByRole('button', { name: /Reenviar/ })).toHaveCount(0);
});

test('the time zone is searched, Colombia’s first; a new window is not red before typing; next month at the first click', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signInAsOwner(page);
  await page.goto('/dashboard/settings');
  await expect(page.getByRole('heading', { level: 1, name: 'Configuración' })).toBeVisible();

  // The time zone: a combobox that says the zone in words, Colombia's first of the list.
  const zone = page.getByRole('combobox', { name: 'Zona horaria' });
  await expect(zone).toHaveValue('Bogotá (UTC−5)');
  await zone.click();
  const list = page.getByRole('listbox', { name: 'Zonas horarias' });
  await expect(list.getByRole('option').first()).toHaveText(/Bogotá \(UTC−5\)\s*Colombia/);
  await expect(list.getByRole('option', { name: /Bogotá/ })).toHaveAttribute('aria-selected', 'true');
  // Type-ahead, accents aside; arrows and Enter choose.
  await zone.fill('ciudad de mex');
  await expect(list.getByRole('option')).toHaveCount(1);
  await zone.fill('lima');
  await expect(list.getByRole('option', { name: /^Lima \(UTC−5\)/ })).toBeVisible();
  await zone.fill('madrid');
  await zone.press('ArrowDown');
  await zone.press('Enter');
  await expect(list).toBeHidden();
  await expect(zone).toHaveValue(/^Madrid \(UTC\+[12]\)$/);
  await zone.fill('zzz');
  await expect(list).toContainText('Ninguna zona coincide con «zzz».');
  await zone.press('Escape');
  await expect(zone).toHaveValue(/^Madrid/);
  await expectNoSeriousAxeViolations(page, 'settings with the time zone chosen');

  // A new delivery window: nothing red before anything is typed in it.
  await page.getByRole('button', { name: 'Agregar horario' }).click();
  const label = page.locator('#window-1-label');
  await expect(label).toBeFocused();
  for (const field of ['label', 'start', 'end', 'capacity']) {
    await expect(page.locator(`#window-1-${field}`)).not.toHaveAttribute('aria-invalid', 'true');
  }
  await expect(page.locator('#window-1-label-error')).toHaveCount(0);

  // Times typed (the end before the start: its message appears when the field is left), then the calendar's
  // next month at the first click.
  await label.fill('Mañana');
  await page.locator('#window-1-start').fill('09:00');
  await page.locator('#window-1-end').fill('08:00');
  const calendar = page.getByRole('group', { name: /de 20\d\d$/ });
  const month = await calendar.getAttribute('aria-labelledby');
  const monthText = page.locator(`[id="${month}"]`);
  const before = await monthText.textContent();
  await page.getByRole('button', { name: 'Mes siguiente' }).click();
  await expect(monthText).not.toHaveText(before!);
  await page.locator('#window-1-end').fill('11:00');
  await shotsAtBothWidths(page, 'settings-zone-window');

  // On a phone: the list opens under a tap, and a tap chooses.
  await page.setViewportSize({ width: 375, height: 812 });
  await zone.click();
  await zone.fill('america');
  await list.scrollIntoViewIfNeeded();
  await page.screenshot({ path: shot('settings-zone-list-375.png') });
  await zone.fill('bogo');
  await list.getByRole('option', { name: /^Bogotá/ }).click();
  await expect(zone).toHaveValue('Bogotá (UTC−5)');
  await page.setViewportSize({ width: 1280, height: 900 });
  await zone.fill('madrid');
  await zone.press('Enter');

  await page.getByRole('button', { name: 'Guardar configuración' }).click();
  await expect(page.getByText(/Guardamos la configuración/)).toBeVisible();
  const saved = await bakery.call<{ timeZone: string; deliveryWindows: { label: string }[] }>('GET', 'settings');
  expect(saved.timeZone).toBe('Europe/Madrid');
  expect(saved.deliveryWindows.map((w) => w.label)).toEqual(['Mañana']);
});

test('an order’s history says what changed in words and names its driver', async ({ page }) => {
  await bakery.bakesEveryDay();
  // The window the settings journey saved would make the office's order choose one.
  await bakery.call('PATCH', 'settings', { deliveryWindows: [] });
  const product = await bakery.call<{ id: string }>('POST', 'products', { name: 'Almojábana', price: 2200 });
  const orderId = await bakery.confirmedOrder(dayFromToday(1), [{ productId: product.id, quantity: 3 }]);
  const driver = await bakery.user('delivery_assistant', 'Carlos Pérez');
  await bakery.call('PATCH', `orders/${orderId}`, { deliveryAssistantId: driver.id });
  await bakery.call('PATCH', `orders/${orderId}`, { status: 'in_production' });
  const { number } = await bakery.call<{ number: number }>('GET', `orders/${orderId}`);

  await signInAsOwner(page);
  await page.goto(`/dashboard/orders?order=${orderId}`);
  const panel = page.getByRole('dialog', { name: `Pedido #${number}` });
  await expect(panel).toBeVisible();
  const history = panel.getByRole('list', { name: `Historial del pedido #${number}` });
  await expect(history).toContainText('Asignado a Carlos Pérez');
  await expect(history).toContainText('Estado: Confirmado → En producción');
  await expect(history).not.toContainText('→ asignado');
  await expect(history).not.toContainText('cambió → cambió');
  await expectNoSeriousAxeViolations(page, 'order history');
  // The panel scrolls on its own: its history in view at each width.
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 812 });
    await history.locator('li').last().scrollIntoViewIfNeeded();
    await page.screenshot({ path: shot(`order-history-words-${width}.png`) });
  }
});

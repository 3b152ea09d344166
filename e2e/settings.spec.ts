import type { APIRequestContext, Page } from '@playwright/test';
import { formatMoney } from '@hornada/domain/format';
import sharp from 'sharp';
import { expect, test } from './fixtures';
import { bogotaDay } from './support/clock';
import { guestFillsSummary } from './support/guest-checkout';
import {
  accountButton,
  apiToken,
  DEMO,
  expectNoSeriousAxeViolations,
  marketCompanyId,
  shot,
  signIn,
  signInByApi,
} from './support/session';

/**
 * The bakery runs itself: the settings screen (admins save, staff only look, the server
 * refusing them too), a blackout day, a window's capacity and the delivery fee reaching an open storefront
 * without a reload, the bakery's page and a new name in the storefront's header and title; axe and
 * screenshots at 375 and 1280 px. Every setting changed is put back at the end.
 */

type Settings = Record<string, unknown> & {
  marketName: string;
  deliveryWindows: { id: string; label: string; start: string; end: string; capacity: number | null }[];
};

async function adminSettings(request: APIRequestContext) {
  const companyId = await marketCompanyId(request);
  const token = await apiToken(request, DEMO.admin);
  const url = `/api/companies/${companyId}/settings`;
  return {
    async get(): Promise<Settings> {
      const res = await request.get(url, { headers: { authorization: `Bearer ${token}` } });
      expect(res.ok(), await res.text()).toBe(true);
      return ((await res.json()) as { data: Settings }).data;
    },
    async restore(s: Settings) {
      const { companyId: _c, updatedAt: _u, ...data } = s;
      const res = await request.patch(url, { headers: { authorization: `Bearer ${token}` }, data });
      expect(res.ok(), await res.text()).toBe(true);
    },
  };
}

const dayLabel = new Intl.DateTimeFormat('es-CO', {
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

async function screenshots(page: Page, name: string) {
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: shot(`${name}-${width}.png`), fullPage: true });
  }
}

async function openSettingsAsAdmin(page: Page) {
  await signInByApi(page, DEMO.admin);
  await expect(page).not.toHaveURL(/\/login/);
  await page.goto('/dashboard/settings');
  await expect(page.getByRole('heading', { level: 1, name: 'Configuración' })).toBeVisible();
  await expect(page.getByLabel('Nombre de la panadería')).not.toHaveValue('');
}

test.describe('settings and the bakery page', () => {
  test('staff may look at the settings but not save them; the server refuses them too', async ({
    page,
    playwright,
    baseURL,
    expectConsoleErrors,
  }) => {
    expectConsoleErrors(403);
    await signInByApi(page, DEMO.staff);
    await expect(accountButton(page, 'Julián')).toBeVisible();
    await page.goto('/dashboard/settings');
    await expect(page.getByRole('heading', { level: 1, name: 'Configuración' })).toBeVisible();
    await expect(page.getByText('solo un administrador de la panadería puede cambiarla')).toBeVisible();
    await expect(page.getByLabel('Costo del domicilio')).toBeDisabled();
    await expect(page.getByLabel('Nombre de la panadería')).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Guardar configuración' })).toHaveCount(0);
    await expectNoSeriousAxeViolations(page, '/dashboard/settings (staff)');

    // The bakery's page: no edit link for staff.
    await page.goto('/dashboard/show-bakery');
    await expect(page.getByRole('heading', { level: 1, name: 'Mi panadería' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Editar' })).toHaveCount(0);

    // The server is the authority: staff's own token cannot save.
    const api = await playwright.request.newContext({ baseURL });
    const companyId = await marketCompanyId(api);
    const token = await apiToken(api, DEMO.staff);
    const res = await api.patch(`/api/companies/${companyId}/settings`, {
      headers: { authorization: `Bearer ${token}` },
      data: { deliveryFee: 1 },
    });
    expect(res.status()).toBe(403);
    await api.dispose();
  });

  test('a blackout day, a window capacity and a new fee reach an open storefront without a reload', async ({
    page,
    browser,
    playwright,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const api = await playwright.request.newContext({ baseURL });
    const settings = await adminSettings(api);
    const original = await settings.get();
    try {
      // A guest's summary page, open on its own browser context.
      const shopper = await browser.newContext();
      const shop = await shopper.newPage();
      await guestFillsSummary(shop, {
        name: 'Marta Gómez',
        phone: '310 555 0199',
        line: 'Carrera 7 # 72-10',
        neighborhood: 'Chapinero',
      });
      await shop.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
      const options = await shop
        .locator('#day option')
        .evaluateAll((els) => els.map((e) => (e as HTMLOptionElement).value));
      expect(options.length).toBeGreaterThan(2);
      const closed = options[1]!;
      const firstWindow = original.deliveryWindows[0]!;

      await openSettingsAsAdmin(page);
      await expectNoSeriousAxeViolations(page, '/dashboard/settings');
      await screenshots(page, 'settings');
      await page.setViewportSize({ width: 1280, height: 900 });

      // Inline Spanish validation: a window that ends before it starts, one that overlaps another.
      await page.locator('#window-1-end').fill('07:00');
      await page.locator('#window-1-start').fill('09:00');
      await page.getByRole('button', { name: 'Guardar configuración' }).click();
      await expect(page.getByText('La hora de fin debe ser después de la de inicio.')).toBeVisible();
      await page.getByRole('button', { name: 'Agregar horario' }).click();
      await page.locator('#window-4-label').fill('Prueba');
      await page.locator('#window-4-start').fill('10:00');
      await page.locator('#window-4-end').fill('12:00');
      await page.getByRole('button', { name: 'Guardar configuración' }).click();
      await expect(page.getByText(/^Se cruza con «/).first()).toBeVisible();
      await page.getByRole('button', { name: 'Quitar el horario 4' }).click();
      await page.locator('#window-1-start').fill(firstWindow.start);
      await page.locator('#window-1-end').fill(firstWindow.end);
      await expect(page.getByText('La hora de fin debe ser después de la de inicio.')).toHaveCount(0);

      // A blackout day on the calendar, the first window full, a new fee.
      // The calendar opens on the bakery's month (Bogotá), not UTC's.
      if (closed.slice(0, 7) !== bogotaDay().slice(0, 7))
        await page.getByRole('button', { name: 'Mes siguiente' }).click();
      const dayButton = page.getByRole('button', {
        name: dayLabel.format(new Date(`${closed}T00:00:00Z`)),
        exact: true,
      });
      await dayButton.click();
      await expect(dayButton).toHaveAttribute('aria-pressed', 'true');
      await page.locator('#window-1-capacity').fill('0');
      await page.getByLabel('Costo del domicilio').fill('7300');
      await page.getByLabel('Domicilio gratis desde').fill('');
      await page.getByRole('button', { name: 'Guardar configuración' }).click();
      await expect(page.getByText(/Guardamos la configuración/)).toBeVisible();

      // The open storefront follows, in the same document.
      await expect(shop.locator(`#day option[value="${closed}"]`)).toHaveCount(0, { timeout: 10_000 });
      await expect(shop.getByRole('definition').filter({ hasText: formatMoney(7300) })).toBeVisible();
      // The furthest day offered, where no lead time hides the window.
      await shop.locator('#day').selectOption(options.at(-1)!);
      const full = shop.getByRole('radiogroup', { name: 'Horario' }).getByText(`${firstWindow.label} (lleno)`);
      await expect(full).toBeVisible();
      await expect(shop.getByRole('radio', { name: `${firstWindow.label} (lleno)` })).toBeDisabled();
      expect(await shop.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
      await shop.setViewportSize({ width: 375, height: 900 });
      await shop.screenshot({ path: shot('settings-storefront-after-375.png'), fullPage: true });
      await shopper.close();
    } finally {
      await settings.restore(original);
      await api.dispose();
    }
  });

  test('a new bakery name shows on the storefront header and title; the bakery page and its form', async ({
    page,
    browser,
    playwright,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    const api = await playwright.request.newContext({ baseURL });
    const settings = await adminSettings(api);
    const original = await settings.get();
    const renamed = `${original.marketName} Norte`;
    try {
      const shopper = await browser.newContext();
      const shop = await shopper.newPage();
      await shop.goto('/');
      await expect(shop.getByRole('banner')).toContainText(original.marketName);

      await signIn(page, DEMO.admin);
      await expect(page).not.toHaveURL(/\/login/);
      await page.goto('/dashboard/show-bakery');
      await expect(page.getByRole('heading', { level: 2, name: original.marketName })).toBeVisible();
      await expectNoSeriousAxeViolations(page, '/dashboard/show-bakery');
      await screenshots(page, 'show-bakery');
      await page.getByRole('link', { name: 'Editar' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Editar panadería' })).toBeVisible();
      await expect(page.getByLabel('Nombre de la panadería')).toHaveValue(original.marketName);
      await expectNoSeriousAxeViolations(page, '/dashboard/update-bakery');
      await screenshots(page, 'update-bakery');
      await page.setViewportSize({ width: 1280, height: 900 });

      // A latitude without its longitude is said in Spanish under the field.
      await page.getByLabel('Latitud').fill('4.65');
      await page.getByLabel('Longitud').fill('');
      await page.getByRole('button', { name: 'Guardar cambios' }).click();
      await expect(page.locator('#settings-lng-error')).toHaveText('Escribe un número.');
      await page.getByLabel('Longitud').fill('-74.06');
      // The logo goes through the file storage, with the text that describes it.
      await page.getByLabel('Subir imagen').setInputFiles({
        name: 'logo.png',
        mimeType: 'image/png',
        buffer: await sharp({ create: { width: 320, height: 320, channels: 3, background: '#92400e' } })
          .png()
          .toBuffer(),
      });
      await page.getByLabel(/Texto alternativo/).fill('Espiga dorada sobre fondo café');
      await page.getByLabel('Nombre de la panadería').fill(renamed);
      await page.getByRole('button', { name: 'Guardar cambios' }).click();
      await expect(page).toHaveURL(/\/dashboard\/show-bakery$/);
      await expect(page.getByRole('heading', { level: 2, name: renamed })).toBeVisible();
      await expect(page.getByText('Logo: Espiga dorada sobre fondo café')).toBeVisible();
      await expect(page.getByRole('region', { name: 'Vista de la tienda' }).locator('img')).toHaveAttribute(
        'src',
        /^\/files\/.+\.webp$/,
      );
      await expect(page.getByRole('link', { name: /Ver en el mapa \(4\.65, -74\.06\)/ })).toHaveAttribute(
        'href',
        /openstreetmap\.org\/\?mlat=4\.65&mlon=-74\.06/,
      );

      // The open storefront's header and title follow without a reload; a new page has it too.
      await expect(shop.getByRole('banner')).toContainText(renamed, { timeout: 10_000 });
      await expect(shop).toHaveTitle(new RegExp(renamed));
      const fresh = await shopper.newPage();
      await fresh.goto('/privacy');
      await expect(fresh).toHaveTitle(new RegExp(renamed));
      await shop.setViewportSize({ width: 375, height: 900 });
      await shop.screenshot({ path: shot('storefront-renamed-375.png') });
      await shopper.close();
    } finally {
      await settings.restore(original);
      await api.dispose();
    }
  });
});

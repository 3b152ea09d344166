import type { APIRequestContext, Browser, Locator, Page } from '@playwright/test';
import sharp from 'sharp';
import { expect, test } from './fixtures';
import { ownAppUrl } from './support/apps';
import { shotsAtBothWidths } from './support/admin-api';
import { bogotaDay } from './support/clock';
import { newBakery, unique, type NewBakery } from './support/new-bakery';
import { mailed } from './support/outbox';
import { expectNoSeriousAxeViolations, landedOn, shot, signIn, signInByApi } from './support/session';

/**
 * A new bakery carries its logo beyond the headers: its mail (an absolute URL on its shop, its name as
 * the alt text), the printed production and run sheets, the order's printed receipt; its long name ends in an
 * ellipsis in the headers at 375 px; and its driver's phone without signal keeps the logo (or no broken
 * picture) and her name.
 */

// Long enough to overflow a phone's header: it must end in an ellipsis, never push the page sideways.
const NAME = 'Panadería y Pastelería La Espiga Dorada del Barrio Teusaquillo';
const DRIVER = 'Rosalba Quintero';

let api: APIRequestContext;
let bakery: NewBakery;
let productId: string;
let logoPath: string;
let driver: { id: string; email: string; password: string };
let customerEmail: string;
let orderLink: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ playwright }) => {
  api = await playwright.request.newContext({ baseURL: ownAppUrl() });
  bakery = await newBakery(api, NAME);
  await bakery.bakesEveryDay();
  productId = (await bakery.call<{ id: string }>('POST', 'products', { name: 'Mogolla chicharrona', price: 1500 })).id;
  // Her logo, uploaded and saved in her settings as the settings screen does.
  const upload = await api.post(`/api/companies/${bakery.companyId}/files`, {
    headers: { authorization: `Bearer ${bakery.token}` },
    multipart: {
      file: {
        name: 'logo.png',
        mimeType: 'image/png',
        buffer: await sharp({ create: { width: 240, height: 240, channels: 3, background: '#b45309' } })
          .png()
          .toBuffer(),
      },
    },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  logoPath = ((await upload.json()) as { data: { path: string } }).data.path;
  await bakery.call('PATCH', 'settings', { logo: { path: logoPath, alt: 'Una espiga dorada' } });
  driver = await bakery.user('delivery_assistant', DRIVER);
});
test.afterAll(async () => {
  await api?.dispose();
});

const banner = (page: Page) => page.getByRole('banner');

/** The picture loaded (never a broken image). */
async function expectLoaded(img: Locator) {
  await expect(img).toBeVisible();
  await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth > 0)).toBe(true);
}

/** A delivery order due today with the customer's e-mail, given to her driver and walked to ready. */
async function readyDelivery(): Promise<{ id: string; number: number }> {
  const order = await bakery.call<{ id: string; number: number }>('POST', 'orders', {
    contact: { name: 'Clara Rincón', phone: '300 555 0177', email: customerEmail },
    items: [{ productId, quantity: 12 }],
    fulfillment: 'delivery',
    address: { line: 'Calle 39 # 17-20', city: 'Bogotá', lat: 4.6278, lng: -74.0712 },
    dueDate: bogotaDay(),
    paymentMethod: 'cash',
    deliveryAssistantId: driver.id,
  });
  for (const status of ['confirmed', 'in_production', 'ready']) {
    await bakery.call('PATCH', `orders/${order.id}`, { status });
  }
  return order;
}

test('her mail to a customer is headed by her logo, on her shop, named by her bakery', async () => {
  customerEmail = `${unique('clara')}@cliente.test`;
  const order = await readyDelivery();
  const mail = await mailed(api, customerEmail, new RegExp(`^Recibimos tu pedido #${order.number} `));
  const origin = new URL(bakery.shopUrl).origin;
  expect(mail.html).toContain(`<img src="${origin}/files/${logoPath}" alt="${NAME}"`);
  // The text part is as before: no picture, the bakery's name as its signature.
  expect(mail.text).not.toContain('/files/');
  expect(mail.text.trimEnd().split('\n').at(-1)).toBe(NAME);
  // The logo's URL answers on her shop's host, signed in or not (a mail client is not on the site; Node does
  // not resolve *.localhost, so the host is named in the request).
  const logo = await api.get(`/files/${logoPath}`, { headers: { host: new URL(origin).host } });
  expect(logo.status()).toBe(200);
  orderLink = /Ver tu pedido: (\S+)/.exec(mail.text)![1]!;
});

test('her printed production sheet and run sheet show her logo', async ({ page }) => {
  await signInByApi(page, bakery.email, bakery.password);
  await expect(page).toHaveURL(landedOn('/dashboard/orders'));
  const today = bogotaDay();

  await page.goto(`/dashboard/orders/production/grouped?date=${today}`);
  await page.getByRole('button', { name: 'Hoja de producción' }).click();
  const sheet = page.getByRole('dialog', { name: 'Hoja de producción' });
  await expect(sheet).toContainText('Mogolla chicharrona');
  await page.emulateMedia({ media: 'print' });
  await expectLoaded(sheet.getByRole('img', { name: NAME }));
  await expect(sheet.getByRole('button', { name: 'Imprimir' })).toBeHidden();
  await shotsAtBothWidths(page, 'logo-production-sheet-print');
  await page.emulateMedia({ media: 'screen' });
  await expectNoSeriousAxeViolations(page, 'hoja de producción con logo');
  await sheet.getByRole('button', { name: 'Cerrar' }).click();

  await page.goto(`/dashboard/orders/delivery?date=${today}`);
  const route = page.locator('section', { has: page.getByRole('heading', { name: new RegExp(`^${DRIVER}`) }) });
  await route.getByRole('button', { name: 'Hoja de ruta' }).click();
  const run = page.getByRole('dialog', { name: `Hoja de ruta de ${DRIVER}` });
  await expect(run).toContainText('Calle 39 # 17-20');
  await page.emulateMedia({ media: 'print' });
  await expectLoaded(run.getByRole('img', { name: NAME }));
  await shotsAtBothWidths(page, 'logo-run-sheet-print');
  await page.emulateMedia({ media: 'screen' });
  await expectNoSeriousAxeViolations(page, 'hoja de ruta con logo');
});

test('the order’s receipt, printed, is headed by her logo and name', async ({ page }) => {
  await page.goto(orderLink);
  await expect(page.getByRole('heading', { name: /^Pedido #\d+$/, level: 1 })).toBeVisible();
  await expectNoSeriousAxeViolations(page, 'el pedido en su tienda');
  await page.emulateMedia({ media: 'print' });
  // The site header is not printed: the receipt's own heading names the bakery.
  await expect(banner(page)).toBeHidden();
  const receiptLogo = page.getByRole('main').getByRole('img', { name: NAME });
  await expectLoaded(receiptLogo);
  await expect(page.getByRole('main').getByText(NAME, { exact: true })).toBeVisible();
  await shotsAtBothWidths(page, 'logo-receipt-print');
  await page.emulateMedia({ media: 'screen' });
});

/** The header's name: one line, cut with an ellipsis, the page not wider than the phone. */
async function expectNameTruncated(page: Page) {
  const name = banner(page).getByText(NAME, { exact: true });
  await expect(name).toBeVisible();
  const box = await name.evaluate((el) => ({
    cut: el.scrollWidth > el.clientWidth,
    ellipsis: getComputedStyle(el).textOverflow,
    right: el.getBoundingClientRect().right,
  }));
  expect(box).toMatchObject({ cut: true, ellipsis: 'ellipsis' });
  expect(box.right).toBeLessThanOrEqual(375);
  expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(375);
}

test('her long name ends in an ellipsis in the shop’s and the office’s headers at 375 px', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto(bakery.shopUrl);
  await expectLoaded(banner(page).getByRole('img', { name: NAME }));
  await expectNameTruncated(page);
  await expectNoSeriousAxeViolations(page, 'su tienda con un nombre largo');
  await shotsAtBothWidths(page, 'logo-shop-long-name', { fullPage: false });

  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto('/login');
  await signIn(page, bakery.email, bakery.password);
  await expect(page).toHaveURL(landedOn('/dashboard/orders'));
  await expectLoaded(banner(page).getByRole('img', { name: NAME }));
  await expectNameTruncated(page);
  await shotsAtBothWidths(page, 'logo-office-long-name', { fullPage: false });
});

/** Her driver's phone (375 px), collecting its console errors but those of being offline on purpose. */
async function newPhone(browser: Browser) {
  const phone = await browser.newContext({
    viewport: { width: 375, height: 800 },
    locale: 'es-CO',
    timezoneId: 'America/Bogota',
  });
  const page = await phone.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && !/ERR_INTERNET_DISCONNECTED|Failed to fetch|net::ERR/.test(m.text()))
      errors.push(`${m.text()} ${m.location().url}`);
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return { phone, page, errors };
}

test('her driver’s phone without signal keeps the logo and the driver’s name', async ({
  browser,
  expectConsoleErrors,
}) => {
  expectConsoleErrors('ERR_INTERNET_DISCONNECTED');
  const { phone, page, errors } = await newPhone(browser);
  try {
    // On her bakery's own host, as her people use it.
    await page.goto(`${bakery.shopUrl}login`);
    await signIn(page, driver.email, driver.password);
    await expect(page).toHaveURL(/\/driver\/orders/);
    await expect(page.getByRole('heading', { name: 'Mi ruta de hoy', level: 1 })).toBeVisible();
    await expect(banner(page).getByRole('button', { name: 'Rosalba' })).toBeVisible();
    await expectLoaded(banner(page).getByRole('img', { name: NAME }));
    await expect
      .poll(() =>
        page.evaluate(async () => {
          const r = await navigator.serviceWorker.getRegistration('/driver/orders');
          return r?.active ? r.scope : null;
        }),
      )
      .toMatch(/\/driver\/$/);
    // The worker keeps what the page loaded before it (the logo too) and the chunks those scripts import
    // later (the session's store, on a reload): it says when all of it is in its cache.
    await expect(page.locator('html')).toHaveAttribute('data-offline-ready', 'true', { timeout: 15_000 });
    await expect
      .poll(
        () =>
          page.evaluate(async () => {
            const loaded = performance
              .getEntriesByType('resource')
              .map((e) => new URL(e.name))
              .filter((u) => u.origin === location.origin && /^\/(assets|files)\//.test(u.pathname))
              .map((u) => u.pathname);
            const missing: string[] = [];
            for (const path of loaded) if (!(await caches.match(path))) missing.push(path);
            return missing;
          }),
        { timeout: 15_000 },
      )
      .toEqual([]);
    expect(await page.evaluate((path) => caches.match(`/files/${path}`).then(Boolean), logoPath)).toBe(true);

    await phone.setOffline(true);
    // What the reload could not get without signal, said should the page not come back.
    const unreachable: string[] = [];
    page.on('requestfailed', (r) => unreachable.push(`${r.method()} ${r.url()}: ${r.failure()?.errorText}`));
    await page.reload();
    await expect(
      page.getByRole('heading', { name: 'Mi ruta de hoy', level: 1 }),
      'the driver page offline (on failure, see the requests that failed below)',
    )
      .toBeVisible()
      .catch((err: unknown) => {
        throw new Error(`${String(err)}\nfailed offline: ${unreachable.join('; ')}\nerrors: ${errors.join('; ')}`);
      });
    // Her name, not "Usuario"; the logo, not a broken picture.
    await expect(banner(page).getByRole('button', { name: 'Rosalba' })).toBeVisible();
    await expect(banner(page).getByText(NAME, { exact: true })).toBeVisible();
    await expectLoaded(banner(page).getByRole('img', { name: NAME }));
    const broken = await banner(page)
      .locator('img')
      .evaluateAll((imgs) => imgs.filter((i) => !(i as HTMLImageElement).naturalWidth).length);
    expect(broken).toBe(0);
    await page.screenshot({ path: shot('logo-driver-offline-375.png') });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: shot('logo-driver-offline-1280.png') });
    await phone.setOffline(false);
    expect(errors).toEqual([]);
  } finally {
    await phone.close();
  }
});

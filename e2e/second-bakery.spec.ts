import type { APIRequestContext, Page } from '@playwright/test';
import sharp from 'sharp';
import { expect, test } from './fixtures';
import { shotsAtBothWidths } from './support/admin-api';
import { ownAppUrl } from './support/apps';
import { newBakery, type NewBakery } from './support/new-bakery';
import { expectNoSeriousAxeViolations, landedOn, signIn, signOutFromMenu } from './support/session';

/**
 * As a new bakery (never the demo's): its back office and its people's
 * screens show its own Products menu and cart (or none on the driver's phone and the kitchen tablet), never
 * the market's, while each host's storefront keeps its own; its logo shows in its shop's and its office's
 * headers at every width, the generic icon standing in until there is one.
 */

let api: APIRequestContext;
let bakery: NewBakery;
let productId: string;
let collectionId: string;
const PRODUCT = 'Pandebono de Marta';
const COLLECTION = 'Amasijos de Marta';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ playwright }) => {
  api = await playwright.request.newContext({ baseURL: ownAppUrl() });
  bakery = await newBakery(api, 'Hornito de Marta');
  collectionId = (await bakery.call<{ id: string }>('POST', 'productCollections', { name: COLLECTION })).id;
  productId = (await bakery.call<{ id: string }>('POST', 'products', { name: PRODUCT, price: 1800, collectionId })).id;
});
test.afterAll(async () => {
  await api?.dispose();
});

const banner = (page: Page) => page.getByRole('banner');
const menuButton = (page: Page) => banner(page).getByRole('button', { name: 'Productos' });

/** The header's Products menu's links (in the page whether open or not): names and addresses. */
async function menuLinks(page: Page): Promise<{ name: string; href: string }[]> {
  const panel = page.locator(`[id="${await menuButton(page).getAttribute('aria-controls')}"]`);
  return panel
    .locator('a')
    .evaluateAll((links) =>
      links.map((a) => ({ name: a.textContent?.trim() ?? '', href: a.getAttribute('href') ?? '' })),
    );
}

/** Her bakery's menu and cart, in the header of a back-office screen served on the market's host. */
async function expectHerShopMenu(page: Page) {
  await expect(banner(page)).toContainText('Hornito de Marta');
  await expect
    .poll(() => menuLinks(page))
    .toEqual([
      { name: COLLECTION, href: `${bakery.shopUrl}productos/${collectionId}` },
      { name: PRODUCT, href: `${bakery.shopUrl}products/show/${productId}` },
    ]);
  await expect(banner(page).getByRole('link', { name: 'Carrito' })).toHaveAttribute('href', `${bakery.shopUrl}carrito`);
}

test('her back office lists her products and cart, never the market’s', async ({ page }) => {
  await signIn(page, bakery.email, bakery.password);
  await expect(page).toHaveURL(landedOn('/dashboard/orders'));
  await expectHerShopMenu(page);
  await menuButton(page).click();
  await expect(banner(page).getByRole('link', { name: PRODUCT })).toBeVisible();
  await expectNoSeriousAxeViolations(page, 'her office with its Products menu open');
  await shotsAtBothWidths(page, 'second-bakery-office-menu', { fullPage: false });
  await page.keyboard.press('Escape');
  // Another screen of the office: the same bakery's menu.
  await page.goto('/dashboard/products');
  await expectHerShopMenu(page);
  // Its links lead to her shop at its own host, where the cart is hers.
  await menuButton(page).click();
  await banner(page).getByRole('link', { name: PRODUCT }).click();
  await expect(page).toHaveURL(`${bakery.shopUrl}products/show/${productId}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(PRODUCT);
});

test('her staff’s office is hers too; her driver’s phone and kitchen tablet show no shop menu', async ({ page }) => {
  const staff = await bakery.user('company_staff', 'Julián Pérez');
  await signIn(page, staff.email, staff.password);
  await expect(page).toHaveURL(landedOn('/dashboard/orders'));
  await expectHerShopMenu(page);
  // Signed out as a person does: clearing the cookies under a loading dashboard made its requests 401.
  await signOutFromMenu(page, 'Julián');

  for (const [role, landing, label] of [
    ['delivery_assistant', '/driver/orders', 'driver'],
    ['production_assistant', '/production/orders', 'tablet'],
  ] as const) {
    const person = await bakery.user(role, `Persona ${label}`);
    await page.goto('/login');
    await signIn(page, person.email, person.password);
    await expect(page).toHaveURL(landedOn(landing));
    await expect(banner(page)).toContainText('Hornito de Marta');
    await expect(banner(page).getByRole('button', { name: 'Persona' })).toBeVisible();
    await expect(menuButton(page)).toHaveCount(0);
    await expect(banner(page).getByRole('link', { name: /^Carrito/ })).toHaveCount(0);
    await expectNoSeriousAxeViolations(page, `her ${label}'s screen`);
    await shotsAtBothWidths(page, `second-bakery-${label}-header`, { fullPage: false });
    await signOutFromMenu(page, 'Persona');
  }
});

test('each host’s storefront keeps its own bakery’s menu', async ({ page }) => {
  // The market's shop on the bare host: the demo's catalogue, nothing of hers.
  await page.goto('/');
  await expect(banner(page).getByRole('link', { name: 'Ingresar' })).toBeVisible();
  const market = await menuLinks(page);
  expect(market.length).toBeGreaterThan(5);
  expect(market.map((l) => l.name)).not.toContain(PRODUCT);
  expect(market.every((l) => l.href.startsWith('/'))).toBe(true);
  // Her shop at its host: hers, by relative links.
  await page.goto(bakery.shopUrl);
  await expect(banner(page).getByRole('link', { name: 'Ingresar' })).toBeVisible();
  expect(await menuLinks(page)).toEqual([
    { name: COLLECTION, href: `/productos/${collectionId}` },
    { name: PRODUCT, href: `/products/show/${productId}` },
  ]);
});

test('her logo shows in her office’s and her shop’s headers at every width', async ({ page }) => {
  // Without a logo: the generic icon, on a phone too.
  await page.goto(bakery.shopUrl);
  await page.setViewportSize({ width: 375, height: 812 });
  const icon = banner(page).locator('img[src="/favicon.svg"]');
  await expect(icon).toBeVisible();
  await page.setViewportSize({ width: 1280, height: 900 });

  await page.goto('/login');
  await signIn(page, bakery.email, bakery.password);
  await expect(page).toHaveURL(landedOn('/dashboard/orders'));
  await page.goto('/dashboard/update-bakery');
  await page.getByLabel('Subir imagen').setInputFiles({
    name: 'logo.png',
    mimeType: 'image/png',
    buffer: await sharp({ create: { width: 320, height: 320, channels: 3, background: '#1f6f5b' } })
      .png()
      .toBuffer(),
  });
  await page.getByLabel(/Texto alternativo/).fill('Un horno verde');
  await page.getByRole('button', { name: 'Guardar cambios' }).click();
  await expect(page).toHaveURL(/\/dashboard\/show-bakery$/);

  // Her office's header: her logo, named by her bakery's name, at both widths.
  const logo = banner(page).getByRole('img', { name: 'Hornito de Marta' });
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await expect(logo).toBeVisible();
    await expect(logo).toHaveAttribute('src', /^\/files\/.+\.webp$/);
    expect(await logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  }
  await expect(banner(page).locator('img[src="/favicon.svg"]')).toHaveCount(0);
  await expectNoSeriousAxeViolations(page, 'her office with her logo');
  await shotsAtBothWidths(page, 'second-bakery-office-logo', { fullPage: false });

  // Her shop's header, from the server's HTML on.
  const html = await (await page.goto(bakery.shopUrl))!.text();
  expect(html).toMatch(
    /<img[^>]+src="\/files\/[^"]+\.webp"[^>]*alt="Hornito de Marta"|alt="Hornito de Marta"[^>]+src="\/files\//,
  );
  const shopLogo = banner(page).getByRole('img', { name: 'Hornito de Marta' });
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await expect(shopLogo).toBeVisible();
    expect(await shopLogo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  }
  await expectNoSeriousAxeViolations(page, 'her shop with her logo');
  await shotsAtBothWidths(page, 'second-bakery-shop-logo', { fullPage: false });
  // The market's shop keeps its own (the demo's has none: the icon).
  await page.goto('/');
  await expect(banner(page).getByRole('img', { name: 'Hornito de Marta' })).toHaveCount(0);
});

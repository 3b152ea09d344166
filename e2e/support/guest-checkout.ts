import type { Page } from '@playwright/test';
import { expect } from '../fixtures';

/** The demo bakery's minimum order (seed): $20,000. */
export const DEMO_MINIMUM_ORDER = 20000;
const money = (text: string | null) => Number((text ?? '').replace(/[^0-9]/g, ''));

export interface GuestOrder {
  number: number;
  product: string;
  quantity: number;
}

export interface GuestContact {
  name: string;
  phone: string;
  line: string;
  neighborhood: string;
}

/**
 * From the home page, the first collection's page, waited for: the home page shows product cards too, and a
 * card read there was clicked while the collection's page replaced it (the guest stayed on the collection;
 * seen in CI under load).
 */
export async function openFirstCollection(page: Page): Promise<void> {
  const link = page.getByRole('main').getByRole('heading', { level: 2 }).first().getByRole('link');
  const name = (await link.textContent())!.trim();
  await link.click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
}

/**
 * A guest fills the order summary as a shopper would (home → a collection's first product → cart →
 * summary → contact, address, the first day offered and its first window not yet full: the suite's orders
 * fill today's windows), ready to choose how to pay.
 */
export async function guestFillsSummary(page: Page, contact: GuestContact): Promise<Omit<GuestOrder, 'number'>> {
  await page.goto('/');
  await openFirstCollection(page);
  const card = page.locator('li.card').first();
  const product = (await card.getByRole('heading', { level: 3 }).textContent())!.trim();
  const price = money(await card.locator('.price').textContent());
  await card.getByRole('link', { name: product }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(product);
  await page.getByRole('button', { name: 'Agregar al carrito' }).click();
  await page.getByRole('button', { name: 'Ver carrito' }).click();
  await expect(page).toHaveURL('/carrito');
  const line = page.getByRole('list', { name: 'Productos en tu carrito' }).getByRole('listitem');
  const quantity = Math.max(1, Math.ceil(DEMO_MINIMUM_ORDER / price));
  for (let q = 1; q < quantity; q++) await line.getByRole('button', { name: `Agregar uno de ${product}` }).click();
  await expect(line.getByRole('group', { name: `Cantidad de ${product}` })).toContainText(String(quantity));
  await page.getByRole('button', { name: 'Continuar' }).click();

  await expect(page).toHaveURL(/\/resumen-de-pedido\/[\w-]+$/);
  await page.getByLabel('Nombre').fill(contact.name);
  await page.getByLabel('Teléfono').fill(contact.phone);
  await page.getByLabel('Dirección').fill(contact.line);
  await page.getByLabel('Barrio').fill(contact.neighborhood);
  await page.getByRole('radiogroup', { name: 'Horario' }).getByRole('radio', { disabled: false }).first().check();
  return { product, quantity };
}

/** A guest orders with cash (guestFillsSummary) and lands on the confirmation page, which stays open. */
export async function guestOrdersWithCash(page: Page, contact: GuestContact): Promise<GuestOrder> {
  const { product, quantity } = await guestFillsSummary(page, contact);
  await page.getByRole('radio', { name: /Efectivo/ }).check();
  await page.getByRole('button', { name: 'Realizar pedido' }).click();

  await expect(page).toHaveURL(/\/respuesta-de-pago\?pedido=/);
  const heading = page.getByRole('heading', { level: 1 });
  await expect(heading).toHaveText(/^Pedido #\d+$/);
  const number = Number((await heading.textContent())!.replace(/\D/g, ''));
  await expect(page.getByRole('status').filter({ hasText: 'Pendiente' })).toBeVisible();
  return { number, product, quantity };
}

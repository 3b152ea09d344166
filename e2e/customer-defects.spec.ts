import type { APIRequestContext, Locator } from '@playwright/test';
import { formatMoney } from '@hornada/domain/format';
import { expect, test } from './fixtures';
import { DEMO_MINIMUM_ORDER, guestFillsSummary } from './support/guest-checkout';
import { placeWebOrder } from './support/order-slots';
import { accountButton, apiToken, DEMO, marketCompanyId, shot, signInByApi } from './support/session';

/**
 * The defects a shopper and the staff meet at once (each of these failed before the fix): the
 * summary's totals follow pickup; an open cart follows the catalogue live; day labels carry the weekday
 * and a window never reads as a day; the recipes table's header; toasts clear of the header and the
 * detail panel; the guest's confirmation says whether the order is paid and colours each status apart.
 */

const money = (text: string | null) => Number((text ?? '').replace(/[^0-9]/g, ''));
const WEEKDAY = '(lunes|martes|miércoles|jueves|viernes|sábado|domingo)';
const CAPITAL_WEEKDAY = '(Lunes|Martes|Miércoles|Jueves|Viernes|Sábado|Domingo)';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

const CONTACT = {
  name: 'lucía fernández',
  phone: '310 555 0142',
  line: 'Calle 45 # 13-20',
  neighborhood: 'Teusaquillo',
};

interface Staff {
  api: APIRequestContext;
  companyId: string;
  token: string;
}

async function staffApi(
  playwright: { request: { newContext(o: { baseURL?: string }): Promise<APIRequestContext> } },
  baseURL?: string,
): Promise<Staff> {
  const api = await playwright.request.newContext({ baseURL });
  return { api, companyId: await marketCompanyId(api), token: await apiToken(api, DEMO.admin) };
}

async function patch(s: Staff, path: string, data: Record<string, unknown>) {
  const res = await s.api.patch(`/api/companies/${s.companyId}/${path}`, { headers: bearer(s.token), data });
  expect(res.status(), await res.text()).toBe(200);
}

const overlaps = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function box(l: Locator) {
  const b = await l.boundingBox();
  expect(b).not.toBeNull();
  return b!;
}

test.describe('defects a customer met', () => {
  test('1: choosing pickup takes the delivery fee off the summary, recomputed on every change', async ({ page }) => {
    await guestFillsSummary(page, CONTACT);
    const totals = page.getByRole('list', { name: 'Tu pedido' }).locator('xpath=..');
    const subtotal = money(await totals.locator('dt:text-is("Subtotal") + dd').textContent());
    const fee = totals.locator('dt:text-is("Domicilio") + dd');
    const total = totals.locator('dt:text-is("Total") + dd');
    await expect(fee).not.toHaveText('Gratis');
    const deliveryFee = money(await fee.textContent());
    await expect(total).toHaveText(formatMoney(subtotal + deliveryFee));
    await page.getByRole('radio', { name: 'Recoger en la panadería' }).check();
    await expect(fee).toHaveText('Gratis');
    await expect(total).toHaveText(formatMoney(subtotal));
    await page.getByRole('radio', { name: 'A domicilio' }).check();
    await expect(total).toHaveText(formatMoney(subtotal + deliveryFee));
  });

  test('4: an open cart follows a repriced and a withdrawn product without a reload', async ({
    page,
    playwright,
    baseURL,
  }) => {
    const s = await staffApi(playwright, baseURL);
    const list = (await (
      await s.api.get(`/api/companies/${s.companyId}/products?active=true&per_page=2&sort=name`, {
        headers: bearer(s.token),
      })
    ).json()) as { data: { id: string; name: string; price: number }[] };
    const [a, b] = list.data;
    try {
      for (const p of [a!, b!]) {
        await page.goto(`/products/show/${p.id}`);
        await page.getByRole('button', { name: 'Agregar al carrito' }).click();
        await expect(page.getByRole('button', { name: 'Ver carrito' })).toBeVisible();
      }
      await page.goto('/carrito');
      const rows = page.getByRole('list', { name: 'Productos en tu carrito' }).getByRole('listitem');
      const rowA = rows.filter({ hasText: a!.name });
      const rowB = rows.filter({ hasText: b!.name });
      await expect(rowA).toContainText(`${formatMoney(a!.price)} c/u`);
      await expect(page.getByText('Tu carrito está guardado.')).toBeVisible();

      await patch(s, `products/${a!.id}`, { price: a!.price + 500 });
      await expect(rowA).toContainText(`${formatMoney(a!.price + 500)} c/u`, { timeout: 10_000 });
      await expect(rowA).toContainText('Precio actualizado');
      await expect(page.locator('.subtotal')).toHaveText(formatMoney(a!.price + 500 + b!.price));

      await patch(s, `products/${b!.id}`, { active: false });
      await expect(rowB).toContainText('Ya no está disponible', { timeout: 10_000 });
      await expect(page.locator('.subtotal')).toHaveText(formatMoney(a!.price + 500));
      await page.setViewportSize({ width: 375, height: 800 });
      await page.screenshot({ path: shot('cart-live-375.png'), fullPage: true });
    } finally {
      await patch(s, `products/${a!.id}`, { price: a!.price });
      await patch(s, `products/${b!.id}`, { active: true });
      await s.api.dispose();
    }
  });

  test('5: days read with their weekday; a window never reads as a day', async ({ page }) => {
    await guestFillsSummary(page, CONTACT);
    const options = await page.getByLabel('Día', { exact: true }).locator('option').allTextContents();
    expect(options.length).toBeGreaterThan(0);
    for (const o of options) {
      expect(o).toMatch(new RegExp(`^((Hoy|Mañana) ${WEEKDAY}|${CAPITAL_WEEKDAY}) \\d{1,2} de [a-z]+\\.$`));
    }
    const windows = await page.getByRole('radiogroup', { name: 'Horario' }).locator('label').allTextContents();
    for (const w of windows) expect(w).not.toMatch(/^\s*Mañana\b/);
    await page.setViewportSize({ width: 375, height: 800 });
    await page.screenshot({ path: shot('summary-days-375.png'), fullPage: true });
    await page.getByRole('radio', { name: /Efectivo/ }).check();
    await page.getByRole('button', { name: 'Realizar pedido' }).click();
    await expect(page).toHaveURL(/\/respuesta-de-pago\?pedido=/);
    const when = page.locator('dt:text-is("Entrega") + dd');
    await expect(when).toHaveText(new RegExp(`${WEEKDAY} \\d{1,2} de [a-z]+\\.`, 'i'));
    // The window after the day never reads as one ("Mañana viernes 27 de nov. · En la mañana (8:00 a 11:00)").
    const windowPart = (await when.textContent())!.split(' · ')[1] ?? '';
    expect(windowPart).not.toMatch(/^Mañana\b/);
  });

  test('6: the confirmation says whether the order is paid and colours a delivered order apart from a pending one', async ({
    page,
    playwright,
    baseURL,
  }) => {
    await guestFillsSummary(page, CONTACT);
    await page.getByRole('radio', { name: 'Recoger en la panadería' }).check();
    await page.getByRole('radio', { name: /Efectivo/ }).check();
    await page.getByRole('button', { name: 'Realizar pedido' }).click();
    await expect(page).toHaveURL(/\/respuesta-de-pago\?pedido=/);
    // The heading names the order once the page has read it (before, it says the page is loading).
    const heading = page.getByRole('heading', { level: 1 });
    await expect(heading).toHaveText(/^Pedido #\d+$/);
    const number = Number((await heading.textContent())!.replace(/\D/g, ''));
    // The name typed in lower case reads title-cased (defect 3).
    await expect(page.getByText('¡Gracias, Lucía!')).toBeVisible();
    await expect(page.locator('dt:text-is("Pago") + dd')).toContainText('Sin pagar');
    const chip = page.getByRole('status').filter({ hasText: 'Pendiente' }).locator('span').first();
    const pendingColour = await chip.evaluate((el) => getComputedStyle(el).backgroundColor);

    const s = await staffApi(playwright, baseURL);
    const found = (await (
      await s.api.get(`/api/companies/${s.companyId}/orders?number=${number}`, { headers: bearer(s.token) })
    ).json()) as { data: { id: string }[] };
    const id = found.data[0]!.id;
    for (const status of ['confirmed', 'in_production', 'ready', 'delivered'])
      await patch(s, `orders/${id}`, { status });
    await patch(s, `orders/${id}`, { paymentStatus: 'paid' });
    await s.api.dispose();
    const delivered = page.getByRole('status').filter({ hasText: 'Entregado' }).locator('span').first();
    await expect(delivered).toBeVisible({ timeout: 15_000 });
    expect(await delivered.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe(pendingColour);
    await expect(page.locator('dt:text-is("Pago") + dd')).toContainText('Pagado', { timeout: 15_000 });
    await page.setViewportSize({ width: 375, height: 800 });
    await page.screenshot({ path: shot('confirmation-delivered-375.png'), fullPage: true });
  });

  test("6: the recipes table's cost column reads «Costo por unidad»", async ({ page }) => {
    await signInByApi(page, DEMO.staff);
    await expect(accountButton(page, 'Julián')).toBeVisible();
    await page.goto('/dashboard/recipes');
    const header = page.getByRole('columnheader', { name: /Costo/ }).getByRole('button');
    await expect(header).toBeVisible();
    // Left to right as a person reads it (a reversed flex row put "por unidad" first).
    const order = await header.evaluate((button) => {
      const parts: { text: string; x: number }[] = [];
      const walker = document.createTreeWalker(button, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const range = document.createRange();
        range.selectNodeContents(n);
        const rect = range.getBoundingClientRect();
        if (rect.width > 0 && n.textContent!.trim()) parts.push({ text: n.textContent!.trim(), x: rect.left });
      }
      return parts
        .sort((p, q) => p.x - q.x)
        .map((p) => p.text)
        .join(' ');
    });
    expect(order).toBe('Costo por unidad');
  });

  test("6: a toast covers neither the header nor the detail panel's title", async ({ page, playwright, baseURL }) => {
    await signInByApi(page, DEMO.staff);
    await expect(accountButton(page, 'Julián')).toBeVisible();
    await expect(page.getByRole('table', { name: 'Pedidos' }).getByRole('row').nth(1)).toBeVisible();
    await page
      .getByRole('link', { name: /^Pedido #\d+, ver detalle$/ })
      .first()
      .click();
    const panel = page.getByRole('dialog', { name: /^Pedido #\d+$/ });
    await expect(panel).toBeVisible();

    // A web order arrives: its toast shows while the panel is open.
    const s = await staffApi(playwright, baseURL);
    const n = await placeGuestOrder(s);
    await s.api.dispose();
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 800 });
      const toast = page.getByRole('status').filter({ hasText: `Nuevo pedido #${n}` });
      await expect(toast).toBeVisible({ timeout: 10_000 });
      const t = await box(toast);
      const title = await box(panel.getByRole('heading').first());
      expect(overlaps(t, title), `toast over the panel's title at ${width}px`).toBe(false);
      for (const b of await page.getByRole('banner').getByRole('button').all()) {
        if (!(await b.isVisible())) continue;
        expect(overlaps(t, await box(b)), `toast over a header button at ${width}px`).toBe(false);
      }
      if (width === 375) await page.screenshot({ path: shot('toast-over-panel-375.png') });
    }
  });
});

/** A guest's web order for pickup, through the API. */
async function placeGuestOrder(s: Staff): Promise<number> {
  const order = await placeWebOrder(s.api, s.companyId, {
    contact: { name: 'Toast Prueba', phone: '310 555 0177', email: null },
    address: null,
    minimum: DEMO_MINIMUM_ORDER,
  });
  return order.number;
}

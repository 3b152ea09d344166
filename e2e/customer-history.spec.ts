import { formatMoney } from '@hornada/domain/format';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import {
  accountButton,
  apiToken,
  DEMO,
  expectNoSeriousAxeViolations,
  marketCompanyId,
  shot,
  signInByApi,
} from './support/session';

/**
 * The customer's order history (docs/design.md §5/§6): a customer registered for the test, with orders it
 * placed through the checkout API, sees them newest first, cancels one while pending, orders another again at
 * today's prices (a product taken off is skipped and named), and follows the bakery's moves without a reload.
 */

const PASSWORD = 'almojabana-caliente';
const stamp = Date.now().toString(36);
const email = `historia-${stamp}@hornada.test`;
const names = { a: `Mogolla e2e ${stamp}`, b: `Roscón e2e ${stamp}` };
const PRICE_A = 12_000;
const PRICE_B = 9_000;
const TODAY_A = 13_500;

interface Setup {
  api: APIRequestContext;
  companyId: string;
  admin: string;
  staff: string;
  customer: string;
  products: { a: string; b: string };
  /** Placed in this order: the first is older. */
  orders: { id: string; number: number; total: number }[];
}
let s: Setup;

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const sessionId = () =>
  `e2e${stamp}${Math.random().toString(36).slice(2)}`
    .replace(/[^A-Za-z0-9]/g, '')
    .padEnd(20, 'x')
    .slice(0, 20);

async function product(name: string, price: number): Promise<string> {
  const res = await s.api.post(`/api/companies/${s.companyId}/products`, {
    headers: bearer(s.admin),
    data: { name, price, active: true },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { data: { id: string } }).data.id;
}

async function patchProduct(id: string, data: Record<string, unknown>) {
  const res = await s.api.patch(`/api/companies/${s.companyId}/products/${id}`, { headers: bearer(s.admin), data });
  expect(res.status(), await res.text()).toBe(200);
}

/** An order placed by the customer through the cart and checkout API, for the first day and window offered. */
async function placeOrder(
  items: { productId: string; quantity: number }[],
  paymentMethod: 'cash' | 'transfer',
  token = s.customer,
) {
  const holder = { ...bearer(token), 'x-session-id': sessionId() };
  const cart = await s.api.post('/api/carts', { headers: holder, data: { companyId: s.companyId, items } });
  expect(cart.status(), await cart.text()).toBe(201);
  const cartId = ((await cart.json()) as { data: { id: string } }).data.id;
  const days = (
    (await (await s.api.get(`/api/companies/${s.companyId}/delivery-days?days=14`)).json()) as {
      data: { date: string; windows: { id: string | null; remaining: number | null }[] }[];
    }
  ).data;
  const day = days.find((d) => d.windows.some((w) => w.remaining === null || w.remaining > 0))!;
  const window = day.windows.find((w) => w.remaining === null || w.remaining > 0)!;
  const res = await s.api.post(`/api/carts/${cartId}/checkout`, {
    headers: { ...holder, 'idempotency-key': `history-${sessionId()}` },
    data: {
      contact: { name: 'Marta Historia', phone: '310 555 0199', email },
      fulfillment: 'delivery',
      address: { line: 'Carrera 7 # 45-10', neighborhood: 'Chapinero', city: 'Bogotá', notes: null },
      dueDate: day.date,
      window: window.id,
      paymentMethod,
      notes: null,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  const order = ((await res.json()) as { data: { id: string; number: number; total: number } }).data;
  return { id: order.id, number: order.number, total: order.total };
}

const card = (page: Page, number: number) =>
  page.getByRole('list', { name: 'Tus pedidos' }).getByRole('article', { name: `Pedido #${number}` });

async function openHistory(page: Page) {
  await signInByApi(page, email, PASSWORD);
  await expect(accountButton(page, 'Marta')).toBeVisible();
  await page.goto('/customer/history');
  await expect(page.getByRole('heading', { level: 1, name: 'Mis pedidos' })).toBeVisible();
}

test.describe.configure({ mode: 'serial' });

test.describe('customer order history', () => {
  test.beforeAll(async ({ playwright, baseURL }) => {
    const api = await playwright.request.newContext({ baseURL });
    const companyId = await marketCompanyId(api);
    const staff = await apiToken(api, DEMO.staff);
    const registered = await api.post('/api/auth/register', {
      headers: bearer(staff),
      data: { email, password: PASSWORD, name: 'Marta Historia', role: 'company_customer', companyId },
    });
    expect(registered.status(), await registered.text()).toBe(201);
    s = {
      api,
      companyId,
      admin: await apiToken(api, DEMO.admin),
      staff,
      customer: await apiToken(api, email, PASSWORD),
      products: { a: '', b: '' },
      orders: [],
    };
    s.products = { a: await product(names.a, PRICE_A), b: await product(names.b, PRICE_B) };
    s.orders.push(
      await placeOrder(
        [
          { productId: s.products.a, quantity: 1 },
          { productId: s.products.b, quantity: 1 },
        ],
        'transfer',
      ),
    );
    s.orders.push(await placeOrder([{ productId: s.products.a, quantity: 2 }], 'cash'));
  });

  test.afterAll(async () => {
    // The products were the test's own: taken off the shop (orders keep their names and prices).
    for (const id of Object.values(s?.products ?? {})) if (id) await patchProduct(id, { active: false });
    await s?.api.dispose();
  });

  test('newest first; cancel while pending; order again at today’s prices, skipping what is off sale', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const [older, newer] = s.orders as [Setup['orders'][0], Setup['orders'][0]];
    await openHistory(page);
    const list = page.getByRole('list', { name: 'Tus pedidos' }).getByRole('listitem');
    await expect(list).toHaveCount(2);
    await expect(list.nth(0)).toContainText(`Pedido #${newer.number}`);
    await expect(list.nth(1)).toContainText(`Pedido #${older.number}`);
    await expect(card(page, older.number)).toContainText(`1 × ${names.a}, 1 × ${names.b}`);
    await expect(card(page, older.number)).toContainText(formatMoney(older.total));
    await expect(card(page, older.number)).toContainText('Pendiente');
    await expect(card(page, older.number)).toContainText('Sin pagar');

    // The detail of the transfer order: lines, totals, address and how to pay.
    await card(page, older.number).getByRole('button', { name: 'Ver detalle' }).click();
    const detail = card(page, older.number);
    await expect(detail.getByRole('list', { name: `Productos del pedido #${older.number}` })).toContainText(
      `${formatMoney(PRICE_A)} c/u`,
    );
    await expect(detail).toContainText('Carrera 7 # 45-10, Chapinero, Bogotá');
    await expect(detail.getByRole('heading', { name: 'Cómo pagar por transferencia' })).toBeVisible();
    await expect(detail).toContainText('Transferencia · Sin pagar');

    await page.setViewportSize({ width: 375, height: 800 });
    await page.screenshot({ path: shot('customer-history-375.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: shot('customer-history-1280.png'), fullPage: true });
    await expectNoSeriousAxeViolations(page, '/customer/history');

    // Cancel asks first, with a reason.
    await card(page, newer.number)
      .getByRole('button', { name: `Cancelar el pedido #${newer.number}` })
      .click();
    const dialog = page.getByRole('alertdialog', { name: `¿Cancelar el pedido #${newer.number}?` });
    await expect(dialog).toBeVisible();
    await expectNoSeriousAxeViolations(page, 'the cancel dialog');
    await dialog.getByRole('button', { name: 'Cancelar pedido' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('Cuéntanos por qué lo cancelas.');
    await page.setViewportSize({ width: 375, height: 800 });
    await page.screenshot({ path: shot('customer-history-cancel-375.png') });
    await page.setViewportSize({ width: 1280, height: 800 });
    await dialog.getByLabel('Motivo').fill('Me equivoqué de día');
    await dialog.getByRole('button', { name: 'Cancelar pedido' }).click();
    await expect(dialog).toBeHidden();
    await expect(card(page, newer.number)).toContainText('Cancelado');
    await expect(card(page, newer.number).getByRole('button', { name: /^Cancelar el pedido/ })).toHaveCount(0);
    await expect(page.getByText(`Cancelamos el pedido #${newer.number}.`)).toBeVisible();

    // Today's prices: the bakery raised one product and took the other off sale.
    await patchProduct(s.products.a, { price: TODAY_A });
    await patchProduct(s.products.b, { active: false });
    await card(page, older.number)
      .getByRole('button', { name: `Pedir de nuevo el pedido #${older.number}` })
      .click();
    await expect(page).toHaveURL('/carrito');
    await expect(page.getByText(`${names.b} ya no está disponible.`)).toBeVisible();
    const lines = page.getByRole('list', { name: 'Productos en tu carrito' }).getByRole('listitem');
    await expect(lines).toHaveCount(1);
    await expect(lines.first()).toContainText(names.a);
    await expect(lines.first()).toContainText(`${formatMoney(TODAY_A)} c/u`);
    await expect(lines.first().locator('.line-total')).toHaveText(formatMoney(TODAY_A));
    await page.setViewportSize({ width: 375, height: 800 });
    await page.screenshot({ path: shot('customer-history-reorder-cart-375.png') });
    await patchProduct(s.products.b, { active: true });
  });

  test('the bakery’s moves show without a reload; cancelling an order that moved meanwhile says so', async ({
    page,
    expectConsoleErrors,
  }) => {
    expectConsoleErrors(422);
    test.setTimeout(60_000);
    const [older] = s.orders as [Setup['orders'][0]];
    await openHistory(page);
    await expect(card(page, older.number)).toContainText('Pendiente');

    // The customer opens the cancel dialog; meanwhile staff confirms the order.
    await card(page, older.number)
      .getByRole('button', { name: `Cancelar el pedido #${older.number}` })
      .click();
    const dialog = page.getByRole('alertdialog', { name: `¿Cancelar el pedido #${older.number}?` });
    await expect(dialog).toBeVisible();
    const confirmed = await s.api.patch(`/api/companies/${s.companyId}/orders/${older.id}`, {
      headers: bearer(s.staff),
      data: { status: 'confirmed' },
    });
    expect(confirmed.status(), await confirmed.text()).toBe(200);
    await expect(card(page, older.number)).toContainText('Confirmado', { timeout: 15_000 });

    await dialog.getByLabel('Motivo').fill('Ya no lo necesito');
    await dialog.getByRole('button', { name: 'Cancelar pedido' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('Este pedido no puede pasar a ese estado. Ahora está Confirmado.')).toBeVisible();
    await expect(card(page, older.number)).toContainText('Confirmado');
    await expect(card(page, older.number).getByRole('button', { name: /^Cancelar el pedido/ })).toHaveCount(0);
  });
  test('a customer with no orders is invited to the shop', async ({ page }) => {
    const fresh = `sin-pedidos-${stamp}@hornada.test`;
    const res = await s.api.post('/api/auth/register', {
      headers: bearer(s.staff),
      data: { email: fresh, password: PASSWORD, name: 'Nora Nueva', role: 'company_customer', companyId: s.companyId },
    });
    expect(res.status(), await res.text()).toBe(201);
    await signInByApi(page, fresh, PASSWORD);
    await expect(accountButton(page, 'Nora')).toBeVisible();
    await page.goto('/customer/history');
    await expect(page.getByText('Aún no tienes pedidos')).toBeVisible();
    await page.getByRole('link', { name: 'Ir a la tienda' }).click();
    await expect(page).toHaveURL('/');
  });
  test('ten at a time: "Ver más pedidos" brings the older ones', async ({ page }) => {
    test.setTimeout(90_000);
    const many = `muchos-pedidos-${stamp}@hornada.test`;
    const res = await s.api.post('/api/auth/register', {
      headers: bearer(s.staff),
      data: {
        email: many,
        password: PASSWORD,
        name: 'Marta Frecuente',
        role: 'company_customer',
        companyId: s.companyId,
      },
    });
    expect(res.status(), await res.text()).toBe(201);
    const token = await apiToken(s.api, many, PASSWORD);
    const numbers: number[] = [];
    for (let i = 0; i < 11; i++) {
      numbers.push((await placeOrder([{ productId: s.products.a, quantity: 2 }], 'cash', token)).number);
    }
    await signInByApi(page, many, PASSWORD);
    await expect(accountButton(page, 'Marta')).toBeVisible();
    await page.goto('/customer/history');
    const list = page.getByRole('list', { name: 'Tus pedidos' }).getByRole('listitem');
    await expect(list).toHaveCount(10);
    await expect(list.first()).toContainText(`Pedido #${numbers[10]}`);
    await expect(page.getByText('Ves 10 de 11 pedidos.')).toBeVisible();
    await page.getByRole('button', { name: 'Ver más pedidos' }).click();
    await expect(list).toHaveCount(11);
    await expect(list.last()).toContainText(`Pedido #${numbers[0]}`);
    await expect(page.getByRole('button', { name: 'Ver más pedidos' })).toHaveCount(0);
  });
});

import type { APIRequestContext } from '@playwright/test';
import type { ProductionDay } from '@hornada/domain/production';
import { expect, test } from './fixtures';
import { bogotaDay } from './support/clock';
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
 * Production: the office plans a demo day on Producción agrupada (products, batches, ingredient
 * needs with a shortage in red), prints its production sheet and packing labels; the baker's tablet adds a
 * unit made and the office's page shows the progress without a reload.
 */

/** Today in Bogotá (as the app sees it), and the days after it. */
const dayFromToday = bogotaDay;

async function productionOf(api: APIRequestContext, companyId: string, token: string, date: string) {
  const res = await api.get(`/api/companies/${companyId}/production?date=${date}&include=orders`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { data: ProductionDay }).data;
}

test('the grouped day shows a shortage and prints its sheet and labels', async ({ page, playwright, baseURL }) => {
  test.setTimeout(90_000);
  const api = await playwright.request.newContext({ baseURL });
  const companyId = await marketCompanyId(api);
  const token = await apiToken(api, DEMO.admin);
  // The demo's upcoming days: the first one whose ingredients fall short.
  let chosen: ProductionDay | null = null;
  const days: ProductionDay[] = [];
  for (let offset = 0; offset <= 3 && !chosen; offset++) {
    const day = await productionOf(api, companyId, token, dayFromToday(offset));
    days.push(day);
    if (day.ingredients.some((i) => i.shortage > 0)) chosen = day;
  }
  // None falls short now (the suite's journeys before this one make, cancel and deliver demo orders, and
  // production takes from stock): the first day that needs an ingredient is made short of it by recording
  // its stock as 0, put back at the end.
  let restoreStock: (() => Promise<unknown>) | null = null;
  if (!chosen) {
    const day = days.find((d) => d.ingredients.some((i) => i.needed > 0));
    expect(day, 'a demo day that needs ingredients').toBeTruthy();
    const need = day!.ingredients.find((i) => i.needed > 0)!;
    const url = `/api/companies/${companyId}/ingredients/${need.ingredientId}`;
    const headers = { authorization: `Bearer ${token}` };
    const emptied = await api.patch(url, { headers, data: { stock: 0 } });
    expect(emptied.status(), await emptied.text()).toBe(200);
    restoreStock = () => api.patch(url, { headers, data: { stock: need.stock } });
    chosen = await productionOf(api, companyId, token, day!.date);
  }
  const day = chosen;
  const short = day.ingredients.find((i) => i.shortage > 0)!;
  expect(short, 'a demo day with a shortage').toBeTruthy();
  try {
    await signInByApi(page, DEMO.admin);
    await expect(accountButton(page, 'Marta')).toBeVisible();
    await page.goto(`/dashboard/orders/production/grouped?date=${day.date}`);
    await expect(page.getByRole('heading', { name: 'Producción agrupada', level: 1 })).toBeVisible();
    const first = day.products[0]!;
    const row = page.getByRole('row').filter({ hasText: first.name }).first();
    await expect(row).toContainText(String(first.quantity));
    // The shortage, in words and in red.
    const warning = page.getByText(new RegExp(`^Faltan? .* de ${short.name.toLocaleLowerCase('es-CO')}$`)).first();
    await expect(warning).toBeVisible();
    await expect(warning).toHaveClass(/text-red-700/);
    await page.screenshot({ path: shot('production-grouped.png'), fullPage: true });
    await expectNoSeriousAxeViolations(page, 'producción agrupada');

    // The production sheet, as it prints: alone on the page, the day and the products with their batches.
    await page.getByRole('button', { name: 'Hoja de producción' }).click();
    const sheet = page.getByRole('dialog', { name: 'Hoja de producción' });
    await expect(sheet).toContainText('Hoja de producción');
    await expect(sheet).toContainText(first.name);
    await expectNoSeriousAxeViolations(page, 'hoja de producción');
    await page.emulateMedia({ media: 'print' });
    await expect(page.getByRole('heading', { name: 'Producción agrupada', level: 1 })).toBeHidden();
    await expect(sheet.getByRole('button', { name: 'Imprimir' })).toBeHidden();
    await page.screenshot({ path: shot('production-sheet-print.png'), fullPage: true });
    await page.emulateMedia({ media: 'screen' });
    await sheet.getByRole('button', { name: 'Cerrar' }).click();

    // The packing labels: one per order, with its number and customer.
    await page.getByRole('button', { name: 'Etiquetas de empaque' }).click();
    const labels = page.getByRole('dialog', { name: 'Etiquetas de empaque' });
    const order = day.orders![0]!;
    await expect(labels).toContainText(`#${order.number}`);
    await expect(labels).toContainText(order.customer);
    await expect(labels).toContainText('Alérgenos');
    await page.emulateMedia({ media: 'print' });
    await page.screenshot({ path: shot('production-labels-print.png'), fullPage: true });
    await page.emulateMedia({ media: 'screen' });
  } finally {
    await restoreStock?.();
  }
});

test('a tap on the kitchen tablet raises the progress on the office page without a reload', async ({
  page,
  browser,
  playwright,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const api = await playwright.request.newContext({ baseURL });
  const companyId = await marketCompanyId(api);
  const token = await apiToken(api, DEMO.admin);
  const today = dayFromToday(0);
  const headers = { authorization: `Bearer ${token}` };
  // Its own order, baked today whatever the day and hour: pickup, due when its preparation day is today
  // (the bakery's lead days), confirmed by the office.
  const settingsUrl = `/api/companies/${companyId}/settings`;
  const settings = (await (await api.get(settingsUrl, { headers })).json()) as {
    data: { productionLeadDays: number; deliveryDays: number[]; deliveryWindows: { id: string }[] };
  };
  // The day it is due may be one the bakery does not open (a Sunday, for a Saturday's baking with one lead
  // day): the bakery opens that weekday while the journey runs.
  const dueDate = dayFromToday(settings.data.productionLeadDays);
  const weekday = new Date(`${dueDate}T12:00:00Z`).getUTCDay();
  const openDays = settings.data.deliveryDays;
  if (!openDays.includes(weekday)) {
    const opened = await api.patch(settingsUrl, { headers, data: { deliveryDays: [...openDays, weekday] } });
    expect(opened.status(), await opened.text()).toBe(200);
  }
  try {
    const [item] = (
      (await (await api.get(`/api/companies/${companyId}/products?per_page=1&active=true`)).json()) as {
        data: { id: string; name: string }[];
      }
    ).data;
    const placed = await api.post(`/api/companies/${companyId}/orders`, {
      headers,
      data: {
        contact: { name: 'Cliente del horno', phone: '300 555 0142' },
        items: [{ productId: item!.id, quantity: 3 }],
        fulfillment: 'pickup',
        dueDate,
        window: settings.data.deliveryWindows[0]?.id ?? null,
        paymentMethod: 'cash',
      },
    });
    expect(placed.status(), await placed.text()).toBe(201);
    const order = ((await placed.json()) as { data: { id: string } }).data;
    const confirmed = await api.patch(`/api/companies/${companyId}/orders/${order.id}`, {
      headers,
      data: { status: 'confirmed' },
    });
    expect(confirmed.status(), await confirmed.text()).toBe(200);
    const day = await productionOf(api, companyId, token, today);
    const product = day.products.find((p) => p.productId === item!.id)!;
    expect(product, "the order's product in today's production").toBeDefined();

    // The office.
    await signInByApi(page, DEMO.admin);
    await expect(accountButton(page, 'Marta')).toBeVisible();
    await page.goto(`/dashboard/orders/production/grouped?date=${today}`);
    const officeRow = page.locator(`tr[data-product="${product.productId}"]`);
    await expect(officeRow).toBeVisible();
    const officeBar = officeRow.getByRole('progressbar');
    const before = Number(await officeBar.getAttribute('aria-valuenow'));

    // The kitchen tablet.
    const tablet = await browser.newContext({ viewport: { width: 1024, height: 768 }, hasTouch: true, baseURL });
    const kitchen = await tablet.newPage();
    await signInByApi(kitchen, DEMO.production);
    await expect(accountButton(kitchen, 'Rosa')).toBeVisible();
    await kitchen.goto('/production/orders');
    await expect(kitchen.getByRole('heading', { name: 'Qué hornear hoy', level: 1 })).toBeVisible();
    const add = kitchen.getByRole('button', { name: `Sumar una unidad de ${product.name}` });
    const box = await add.boundingBox();
    expect(box!.height).toBeGreaterThanOrEqual(48);
    await expectNoSeriousAxeViolations(kitchen, 'qué hornear');
    await add.tap();
    const card = kitchen.locator(`li[data-product="${product.productId}"]`);
    await expect(card.getByRole('progressbar')).toHaveAttribute('aria-valuenow', String(before + 1));
    await kitchen.screenshot({ path: shot('production-tablet.png') });

    // The office's page follows, without a reload.
    await expect(officeBar).toHaveAttribute('aria-valuenow', String(before + 1));

    await kitchen.goto('/production/summary');
    await expect(kitchen.getByRole('heading', { name: 'Resumen del día', level: 1 })).toBeVisible();
    await expect(kitchen.getByText('Unidades hechas')).toBeVisible();
    await expectNoSeriousAxeViolations(kitchen, 'resumen del día');
    await tablet.close();

    await page.goto(`/dashboard/orders/production/single?date=${today}`);
    await expect(page.getByRole('heading', { name: 'Producción por pedido', level: 1 })).toBeVisible();
    await expectNoSeriousAxeViolations(page, 'producción por pedido');
  } finally {
    if (!openDays.includes(weekday)) await api.patch(settingsUrl, { headers, data: { deliveryDays: openDays } });
  }
});

import { readFile } from 'node:fs/promises';
import { formatMoney } from '@hornada/domain/format';
import { expect, test } from './fixtures';
import { productAndSlot } from './support/order-slots';
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
 * Dashboard › Ventas: a café's order on a coming day is in that day's report (totals, the chart and
 * its table, the B2B table); the presets set the range; the CSV downloads with its BOM and the café's row;
 * Recharts is loaded by this screen only; the orders screen's strip links here.
 */

const stamp = Date.now().toString(36);
const chartChunk = /\/assets\/sales-chart-/;

test('the sales report: a day with a B2B order, presets, chart and table, CSV read back', async ({
  page,
  playwright,
  baseURL,
}, testInfo) => {
  test.setTimeout(120_000);
  const api = await playwright.request.newContext({ baseURL });
  const companyId = await marketCompanyId(api);
  const headers = { authorization: `Bearer ${await apiToken(api, DEMO.admin)}` };
  const name = `Café Ventas ${stamp}`;
  const client = await api.post(`/api/companies/${companyId}/b2bClients`, { headers, data: { businessName: name } });
  expect(client.status(), await client.text()).toBe(201);
  const clientId = ((await client.json()) as { data: { id: string } }).data.id;
  const { product, day, window } = await productAndSlot(api, companyId, 1);
  const res = await api.post(`/api/companies/${companyId}/orders`, {
    headers,
    data: {
      contact: { name: 'Laura Gómez', phone: '301 555 0142' },
      b2bClientId: clientId,
      items: [{ productId: product.id, quantity: 7 }],
      fulfillment: 'pickup',
      dueDate: day,
      window,
      paymentMethod: 'credit',
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  const order = ((await res.json()) as { data: { total: number } }).data;
  const report = (await (
    await api.get(`/api/companies/${companyId}/reports/sales?from=${day}&to=${day}`, { headers })
  ).json()) as { data: { totals: { revenue: number; orders: number } } };

  const scripts: string[] = [];
  page.on('response', (r) => {
    if (r.request().resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
  });
  await signInByApi(page, DEMO.admin);
  await expect(accountButton(page, 'Marta')).toBeVisible();

  // The orders screen: its strip, and no chart library.
  await page.goto('/dashboard/orders');
  const strip = page.getByRole('navigation', { name: 'Resumen de hoy' });
  await expect(strip.getByRole('link', { name: /Pedidos de hoy/ })).toBeVisible();
  await expect(strip.getByRole('link', { name: /Pagos pendientes \$/ })).toHaveAttribute(
    'href',
    '/dashboard/orders/unpaid',
  );
  // Tomorrow's shortages from the production read: a count (or "Ninguno"), linking to tomorrow's plan.
  const shortages = strip.getByRole('link', { name: /Faltantes para mañana (Ninguno|\d+ ingredientes?)$/ });
  await expect(shortages).toHaveAttribute('href', /^\/dashboard\/orders\/production\/grouped\?date=\d{4}-\d{2}-\d{2}$/);
  expect(scripts.filter((s) => chartChunk.test(s))).toEqual([]);
  await strip.getByRole('link', { name: /Ventas de hoy/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Ventas' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Hoy', pressed: true })).toBeVisible();

  // The presets: each sets the range in the address and is marked pressed.
  const year = new URL(page.url()).searchParams.get('desde')!.slice(0, 4);
  await page.getByRole('button', { name: 'Este año' }).click();
  await expect(page).toHaveURL(new RegExp(`desde=${year}-01-01`));
  await expect(page.getByRole('button', { name: 'Este año', pressed: true })).toBeVisible();
  await page.getByRole('button', { name: 'El mes pasado' }).click();
  await expect(page).toHaveURL(/desde=\d{4}-\d{2}-01&hasta=\d{4}-\d{2}-(28|29|30|31)/);
  await page.getByRole('button', { name: 'Últimos 30 días' }).click();
  await expect(page.getByRole('button', { name: 'Últimos 30 días', pressed: true })).toBeVisible();

  // The order's day, typed into the range: its totals, chart, table and the café.
  await page.goto(`/dashboard/salesReport?desde=${day}&hasta=${day}`);
  const totals = page.getByRole('definition').filter({ hasText: '$' }).first();
  await expect(totals).toHaveText(formatMoney(report.data.totals.revenue));
  expect(report.data.totals.revenue).toBeGreaterThanOrEqual(order.total);
  await expect(page.getByTestId('sales-chart').locator('.recharts-bar-rectangle').first()).toBeVisible();
  expect(scripts.filter((s) => chartChunk.test(s)).length).toBeGreaterThan(0);
  await page.getByText('Ver ventas por día como tabla').click();
  const dayRow = page.getByRole('table', { name: 'Ventas por día' }).getByRole('row', { name: new RegExp(day) });
  await expect(dayRow).toContainText(formatMoney(report.data.totals.revenue));
  await expect(dayRow).toContainText(String(report.data.totals.orders));
  const cafe = page
    .getByRole('table', { name: 'Ventas por cliente mayorista' })
    .getByRole('row', { name: new RegExp(name) });
  await expect(cafe).toContainText(formatMoney(order.total));
  await expectNoSeriousAxeViolations(page, 'informe de ventas');
  await page.screenshot({ path: shot('sales-report-1280.png'), fullPage: true });

  // The CSV, saved and read back: the BOM, the Spanish headers, the café with its total as a plain integer.
  // By default split by `;` (Excel in Spanish opens it in columns); the comma file is one choice away.
  const readCsv = async (file: string) => {
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Descargar CSV' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`ventas-${day}-a-${day}.csv`);
    await download.saveAs(testInfo.outputPath(file));
    const bytes = await readFile(testInfo.outputPath(file));
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    return bytes.subarray(3).toString('utf8').split('\r\n');
  };
  const excel = await readCsv('ventas-excel.csv');
  expect(excel[0]).toBe('Sección;Concepto;Pedidos;Unidades;Ventas;Pagado;Por cobrar');
  expect(excel).toContain(`Cliente B2B;${name};1;;${order.total};0;${order.total}`);
  await page.getByLabel('Formato del CSV').selectOption('comma');
  const lines = await readCsv('ventas.csv');
  expect(lines[0]).toBe('Sección,Concepto,Pedidos,Unidades,Ventas,Pagado,Por cobrar');
  expect(lines).toContain(`Cliente B2B,${name},1,,${order.total},0,${order.total}`);
  expect(lines).toContain(`Día,${day},${report.data.totals.orders},,${report.data.totals.revenue},,`);

  // On a phone: the page does not scroll sideways, the figures and the chart still show.
  await page.setViewportSize({ width: 375, height: 800 });
  await page.reload();
  await expect(page.getByTestId('sales-chart').locator('.recharts-bar-rectangle').first()).toBeVisible();
  await page.screenshot({ path: shot('sales-report-375.png'), fullPage: true });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(
    0,
  );
  await expectNoSeriousAxeViolations(page, 'informe de ventas (375 px)');
  await api.dispose();
});

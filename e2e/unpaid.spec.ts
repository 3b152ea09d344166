import type { APIRequestContext } from '@playwright/test';
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
 * Pagos pendientes: a café that buys on credit owes two orders; the admin finds it among the open
 * balances, opens its statement of account, then selects both orders and marks them paid in one go, and the
 * café's balance leaves the table.
 */

const stamp = Date.now().toString(36);

/** A B2B client made through the API, with one credit order (pickup, unpaid) for each quantity. */
async function clientOwing(
  api: APIRequestContext,
  companyId: string,
  headers: Record<string, string>,
  client: Record<string, unknown>,
  contact: { name: string; phone: string },
  quantities: number[],
) {
  const made = await api.post(`/api/companies/${companyId}/b2bClients`, { headers, data: client });
  expect(made.status(), await made.text()).toBe(201);
  const clientId = ((await made.json()) as { data: { id: string } }).data.id;
  const { product, day, window } = await productAndSlot(api, companyId, 2);
  const numbers: number[] = [];
  const ids: string[] = [];
  for (const quantity of quantities) {
    const res = await api.post(`/api/companies/${companyId}/orders`, {
      headers,
      data: {
        contact,
        b2bClientId: clientId,
        items: [{ productId: product.id, quantity }],
        fulfillment: 'pickup',
        dueDate: day,
        window,
        paymentMethod: 'credit',
      },
    });
    expect(res.status(), await res.text()).toBe(201);
    const created = ((await res.json()) as { data: { id: string; number: number } }).data;
    numbers.push(created.number);
    ids.push(created.id);
  }
  return { numbers, ids };
}

test('two orders of a B2B client are marked paid in bulk on the unpaid screen', async ({
  page,
  playwright,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const api = await playwright.request.newContext({ baseURL });
  const companyId = await marketCompanyId(api);
  const headers = { authorization: `Bearer ${await apiToken(api, DEMO.admin)}` };
  const name = `Café Prueba ${stamp}`;
  const { numbers, ids } = await clientOwing(
    api,
    companyId,
    headers,
    { businessName: name, paymentTermsDays: 15, creditLimit: 400_000 },
    { name: 'Laura Gómez', phone: '301 555 0142' },
    [10, 12],
  );

  await signInByApi(page, DEMO.admin);
  await expect(accountButton(page, 'Marta')).toBeVisible();
  await page.goto('/dashboard/orders/unpaid');
  await expect(page.getByRole('heading', { name: 'Pagos pendientes', level: 1 })).toBeVisible();
  const party = page.getByRole('button', { name });
  await expect(party).toBeVisible();
  const row = page.getByRole('row').filter({ has: party });
  await expect(row).toContainText('Cliente empresarial');
  await expect(row).toContainText('de $400,000');
  await expectNoSeriousAxeViolations(page, 'pagos pendientes');
  // On a phone the table scrolls inside its own box: the page does not scroll sideways.
  await page.setViewportSize({ width: 375, height: 800 });
  await page.reload();
  await expect(party).toBeVisible();
  await page.screenshot({ path: shot('unpaid-375.png') });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(
    0,
  );
  await page.setViewportSize({ width: 1280, height: 720 });

  // Its statement of account: the bakery, the client, both orders and the balance, printable.
  await row.getByRole('button', { name: 'Estado de cuenta' }).click();
  const statement = page.getByRole('dialog', { name: 'Estado de cuenta' });
  await expect(statement).toContainText(name);
  for (const n of numbers) await expect(statement).toContainText(`#${n}`);
  await expect(statement.getByRole('button', { name: 'Imprimir' })).toBeVisible();
  await page.emulateMedia({ media: 'print' });
  await page.screenshot({ path: shot('unpaid-statement-print.png'), fullPage: true });
  await page.emulateMedia({ media: 'screen' });
  await statement.getByRole('button', { name: 'Cerrar' }).click();
  await expect(statement).toBeHidden();

  // Expand, select both orders, mark them paid after the confirmation.
  await party.click();
  for (const n of numbers) await page.getByRole('checkbox', { name: `Seleccionar pedido #${n}` }).check();
  await expect(page.getByText('2 pedidos seleccionados')).toBeVisible();
  await page.screenshot({ path: shot('unpaid-selected.png'), fullPage: true });
  await page.getByRole('button', { name: 'Marcar como pagado' }).click();
  const dialog = page.getByRole('alertdialog', { name: '¿Marcar como pagados?' });
  await expect(dialog).toContainText('2 pedidos');
  const sent = page.waitForRequest((r) => r.url().endsWith('/orders/mark-paid') && r.method() === 'POST');
  await dialog.getByRole('button', { name: 'Marcar como pagado' }).click();
  // One Idempotency-Key per submit: a second press or a retry marks nothing twice.
  expect((await sent).headers()['idempotency-key']).toMatch(/^[0-9a-f]{32}$/);
  await expect(page.getByRole('status').filter({ hasText: '2 pedidos marcados como pagados.' })).toBeVisible();
  await expect(party).toBeHidden();

  // The orders are paid, each with its history entry by the admin.
  for (const n of numbers) {
    const list = (await (await api.get(`/api/companies/${companyId}/orders?number=${n}`, { headers })).json()) as {
      data: { paymentStatus: string; history: { field: string; to: unknown; by: { name: string } }[] }[];
    };
    const order = list.data[0]!;
    expect(order.paymentStatus).toBe('paid');
    expect(order.history.filter((h) => h.field === 'paymentStatus' && h.to === 'paid').map((h) => h.by.name)).toEqual([
      'Marta Lucía Rincón',
    ]);
  }

  // A café returns a paid order's goods: the admin records the refund with its reason, from the order's detail.
  await page.goto(`/dashboard/orders?date_field=dueDate&start_date=today&order=${ids[0]}`);
  const panel = page.getByRole('dialog', { name: `Pedido #${numbers[0]}` });
  await panel.getByRole('button', { name: 'Registrar reembolso' }).click();
  const refund = page.getByRole('alertdialog', { name: `¿Registrar el reembolso del pedido #${numbers[0]}?` });
  await refund.getByRole('button', { name: 'Registrar reembolso' }).click();
  await expect(refund.getByText('Escribe el motivo')).toBeVisible();
  await refund.getByLabel('Motivo del reembolso').fill('Llegó un pan quemado');
  await refund.getByRole('button', { name: 'Registrar reembolso' }).click();
  // The whole of what was paid, by default: the order is refunded, its refund listed with the reason.
  await expect(page.getByRole('status').filter({ hasText: `Pedido #${numbers[0]}: reembolso de ` })).toBeVisible();
  await expect(panel.getByRole('region', { name: 'Reembolsos' })).toContainText('Llegó un pan quemado');
  await expect(panel).toContainText('Reembolsado');
  await page.screenshot({ path: shot('unpaid-refund.png') });
  await api.dispose();
});

test('the unpaid screen follows an order paid elsewhere, live', async ({ page, playwright, baseURL }) => {
  test.setTimeout(90_000);
  const api = await playwright.request.newContext({ baseURL });
  const companyId = await marketCompanyId(api);
  const headers = { authorization: `Bearer ${await apiToken(api, DEMO.admin)}` };
  const name = `Panadería Vecina ${stamp}`;
  const { numbers, ids } = await clientOwing(
    api,
    companyId,
    headers,
    { businessName: name, paymentTermsDays: 0 },
    { name: 'Jorge Pardo', phone: '301 555 0177' },
    [5, 7],
  );

  await signInByApi(page, DEMO.admin);
  await expect(accountButton(page, 'Marta')).toBeVisible();
  await page.goto('/dashboard/orders/unpaid');
  const party = page.getByRole('button', { name });
  await expect(party).toBeVisible();
  await party.click();
  const box = (n: number) => page.getByRole('checkbox', { name: `Seleccionar pedido #${n}` });
  for (const n of numbers) await expect(box(n)).toBeVisible();

  // Another person marks one order paid from elsewhere: this open screen follows without a reload.
  const paid = await api.patch(`/api/companies/${companyId}/orders/${ids[0]}`, {
    headers,
    data: { paymentStatus: 'paid' },
  });
  expect(paid.status(), await paid.text()).toBe(200);
  await expect(box(numbers[0]!)).toBeHidden({ timeout: 10_000 });
  await expect(box(numbers[1]!)).toBeVisible();
  // And the other: the party leaves the table.
  const second = await api.patch(`/api/companies/${companyId}/orders/${ids[1]}`, {
    headers,
    data: { paymentStatus: 'paid' },
  });
  expect(second.status(), await second.text()).toBe(200);
  await expect(party).toBeHidden({ timeout: 10_000 });
  await api.dispose();
});

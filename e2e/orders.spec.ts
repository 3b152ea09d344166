import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { guestOrdersWithCash } from './support/guest-checkout';
import {
  accountButton,
  apiToken,
  DEMO,
  expectNoSeriousAxeViolations,
  marketCompanyId,
  shot,
  signInByApi,
} from './support/session';

/** The page does not scroll sideways (the table scrolls inside its own box when it must). */
async function expectNoSideways(page: Page): Promise<void> {
  const wide = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    return Array.from(document.querySelectorAll('body *'))
      .filter((el) => el.getBoundingClientRect().right > width + 1)
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${el.className.toString().slice(0, 60)}`);
  });
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    wide.join('\n'),
  ).toBeLessThanOrEqual(0);
}

/** Staff signed in on the orders screen (their landing page), its list loaded. */
async function staffOnOrders(page: Page): Promise<void> {
  await signInByApi(page, DEMO.staff);
  await expect(accountButton(page, 'Julián')).toBeVisible();
  // Today and upcoming by default, relative in the URL so a saved link stays current.
  await expect(page).toHaveURL(/\/dashboard\/orders\?date_field=dueDate&start_date=today$/);
  await expect(page.getByRole('table', { name: 'Pedidos' }).getByRole('row').nth(1)).toBeVisible();
}

test.describe('orders screen', () => {
  test('a web order appears live with a toast; staff confirms it from the row and the guest sees it; search and detail', async ({
    page,
    browser,
  }) => {
    test.setTimeout(120_000);
    await staffOnOrders(page);
    // Staff watch the pending orders; a second tab shows only delivered ones (the new order is not in it).
    await page
      .getByRole('group', { name: 'Filtrar por estado' })
      .getByRole('button', { name: /^Pendiente/ })
      .click();
    await expect(page).toHaveURL(/status=pending/);
    // The chime for new orders: off until turned on (it plays for the order below).
    const sound = page.getByRole('button', { name: 'Sonido de pedidos nuevos' });
    await expect(sound).toHaveAttribute('aria-pressed', 'false');
    await sound.click();
    await expect(sound).toHaveAttribute('aria-pressed', 'true');
    // Narrowed to the guest's name: 25 a page by due day, and the suite's earlier journeys leave enough
    // pending orders due today to push a new one past the first page.
    await page.getByLabel('Buscar pedidos').fill('Valentina Ospina');
    await expect(page).toHaveURL(/q=Valentina/);
    const other = await page.context().newPage();
    await other.goto('/dashboard/orders?date_field=dueDate&start_date=today&status=delivered');
    await expect(other.getByRole('button', { name: /^Entregado/, pressed: true })).toBeVisible();

    // A guest orders through the storefront in a browser of their own.
    const guestContext = await browser.newContext();
    const guest = await guestContext.newPage();
    const placed = await guestOrdersWithCash(guest, {
      name: 'Valentina Ospina',
      phone: '312 555 0199',
      line: 'Carrera 7 # 45-10',
      neighborhood: 'Chapinero',
    });
    const n = placed.number;

    // The staff page shows it without a reload, with the toast; the tab filtered elsewhere still toasts.
    const toast = page.getByRole('status').filter({ hasText: `Nuevo pedido #${n}` });
    await expect(toast).toBeVisible({ timeout: 5000 });
    await expect(toast).toContainText('Valentina Ospina');
    await expect(other.getByRole('status').filter({ hasText: `Nuevo pedido #${n}` })).toBeVisible({ timeout: 5000 });
    await other.close();
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: `Pedido #${n}, ver detalle` }) });
    await expect(row).toBeVisible({ timeout: 5000 });
    await expect(row).toContainText('Valentina Ospina');
    await expect(row).toContainText('Pendiente');

    // Staff confirms it with the row's quick action; the guest's confirmation follows without a reload.
    await row.getByRole('button', { name: `Confirmar el pedido #${n}` }).click();
    await expect(page.getByRole('status').filter({ hasText: `Pedido #${n}: Confirmado.` })).toBeVisible();
    await expect(guest.getByRole('status').filter({ hasText: 'Confirmado' })).toBeVisible({ timeout: 15_000 });
    await guestContext.close();

    // Search by number (as people type it) finds it under every status.
    await page
      .getByRole('group', { name: 'Filtrar por estado' })
      .getByRole('button', { name: /^Todos/ })
      .click();
    await page.getByLabel('Buscar pedidos').fill(`#${n}`);
    await expect(page).toHaveURL(new RegExp(`q=%23${n}`));
    const rows = page.getByRole('table', { name: 'Pedidos' }).getByRole('row');
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(1)).toContainText('Confirmado');

    // The detail panel: lines, totals, contact links, the map, the history with the confirmation.
    await page.getByRole('link', { name: `Pedido #${n}, ver detalle` }).click();
    await expect(page).toHaveURL(/[?&]order=/);
    const panel = page.getByRole('dialog', { name: `Pedido #${n}` });
    await expect(panel).toBeVisible();
    await expect(panel).toBeFocused();
    await expect(panel.getByRole('table', { name: `Productos del pedido #${n}` })).toContainText(placed.product);
    await expect(panel.getByRole('table', { name: `Productos del pedido #${n}` })).toContainText(
      String(placed.quantity),
    );
    await expect(panel).toContainText('Total');
    await expect(panel.getByRole('link', { name: 'Ver en el mapa' })).toHaveAttribute(
      'href',
      /^https:\/\/www\.google\.com\/maps\/search\/\?api=1&query=.*Carrera/,
    );
    await expect(panel.getByRole('link', { name: 'Llamar' })).toHaveAttribute('href', 'tel:3125550199');
    await expect(panel.getByRole('link', { name: 'WhatsApp' })).toHaveAttribute(
      'href',
      /^https:\/\/wa\.me\/573125550199/,
    );
    const history = panel.getByRole('list', { name: `Historial del pedido #${n}` });
    await expect(history).toContainText('Estado: Pendiente → Confirmado');
    await expect(history).toContainText('Julián');
    await expect(history).toContainText('Pedido recibido: Pendiente');
    await expectNoSeriousAxeViolations(page, '/dashboard/orders (detalle)');
    await page.screenshot({ path: shot('orders-detail-1280.png') });
    await page.setViewportSize({ width: 375, height: 800 });
    await expect(panel).toBeVisible();
    await page.screenshot({ path: shot('orders-detail-375.png') });
    await history.scrollIntoViewIfNeeded();
    await page.screenshot({ path: shot('orders-detail-history-375.png') });
    // On a phone the sheet covers the list: Tab stays inside it.
    await panel.focus();
    await page.keyboard.press('Shift+Tab');
    expect(await panel.evaluate((el) => el.contains(document.activeElement))).toBe(true);

    // Escape closes it, and focus goes back to the list.
    await page.keyboard.press('Escape');
    await expect(panel).toHaveCount(0);
    await expect(page).not.toHaveURL(/[?&]order=/);
    await expect(page.getByRole('link', { name: `Pedido #${n}, ver detalle` })).toBeFocused();

    // The list itself, on a phone and at desktop width.
    await page.getByRole('button', { name: 'Borrar búsqueda' }).click();
    await expect(page).not.toHaveURL(/q=/);
    await expect(page.getByRole('table', { name: 'Pedidos' }).getByRole('row').nth(2)).toBeVisible();
    await page.screenshot({ path: shot('orders-list-375.png'), fullPage: true });
    await expectNoSideways(page);
    await expectNoSeriousAxeViolations(page, '/dashboard/orders (375)');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: shot('orders-list-1280.png'), fullPage: true });
    await expectNoSideways(page);
    // The chime stays on after a reload (remembered in this browser).
    await page.reload();
    await expect(page.getByRole('button', { name: 'Sonido de pedidos nuevos' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await expectNoSeriousAxeViolations(page, '/dashboard/orders');
  });

  test('a move the server refuses shows its Spanish message; cancelling asks a reason', async ({
    page,
    playwright,
    baseURL,
    expectConsoleErrors,
  }) => {
    expectConsoleErrors(422);
    test.setTimeout(60_000);
    // An order placed by staff through the API for the first day and window offered.
    const api = await playwright.request.newContext({ baseURL });
    const companyId = await marketCompanyId(api);
    const token = await apiToken(api, DEMO.staff);
    const auth = { authorization: `Bearer ${token}` };
    const days = (await (await api.get(`/api/companies/${companyId}/delivery-days`)).json()) as {
      data: { date: string; windows: { id: string | null }[] }[];
    };
    const day = days.data.find((d) => d.windows.length > 0)!;
    const products = (await (await api.get(`/api/companies/${companyId}/products?per_page=1`)).json()) as {
      data: { id: string; price: number }[];
    };
    const product = products.data[0]!;
    const create = (name: string) =>
      api.post(`/api/companies/${companyId}/orders`, {
        headers: auth,
        data: {
          contact: { name, phone: '300 555 0123' },
          items: [{ productId: product.id, quantity: Math.ceil(25_000 / product.price) }],
          fulfillment: 'pickup',
          address: null,
          dueDate: day.date,
          window: day.windows[0]!.id,
          paymentMethod: 'cash',
        },
      });
    const made = await create('Prueba Rechazo');
    expect(made.status(), await made.text()).toBe(201);
    const order = ((await made.json()) as { data: { id: string; number: number } }).data;

    // This page hears nothing from the stream (held), so it still shows the order as pending…
    await page.route('**/changes?**', () => undefined);
    await staffOnOrders(page);
    // The due-day range: presets kept relative in the URL, or two dates.
    const range = page.getByLabel('Fecha de entrega');
    await range.selectOption({ label: 'Próximos 7 días' });
    await expect(page).toHaveURL(/start_date=today&end_date=today%2B6/);
    await expect(range).toHaveValue('next7');
    await range.selectOption({ label: 'Entre dos fechas…' });
    await expect(page.getByLabel('Desde')).toHaveValue(/^\d{4}-\d{2}-\d{2}$/);
    await expect(page.getByLabel('Hasta')).toHaveValue(/^\d{4}-\d{2}-\d{2}$/);
    await range.selectOption({ label: 'Hoy y próximos' });
    await expect(page).toHaveURL(/start_date=today(&|$)/);
    await expect(page).not.toHaveURL(/end_date/);
    await expect(page.getByLabel('Desde')).toHaveCount(0);
    // The row is stale only if the page's read of the search answered before the cancel: until then the row
    // shown is the unfiltered list's, and a search still on its way would bring the cancelled order.
    const searched = page.waitForResponse(
      (r) =>
        r.url().includes('/orders?') && r.url().includes(`search=${order.number}`) && r.url().includes('per_page=25'),
    );
    await page.getByLabel('Buscar pedidos').fill(String(order.number));
    await expect(page).toHaveURL(new RegExp(`q=${order.number}`));
    expect((await searched).status()).toBe(200);
    const row = page
      .getByRole('row')
      .filter({ has: page.getByRole('link', { name: `Pedido #${order.number}, ver detalle` }) });
    await expect(row).toContainText('Pendiente');
    // …while someone else cancels it.
    const cancelled = await api.patch(`/api/companies/${companyId}/orders/${order.id}`, {
      headers: auth,
      data: { status: 'cancelled', cancelReason: 'El cliente llamó a cancelar' },
    });
    expect(cancelled.status()).toBe(200);
    await row.getByRole('button', { name: `Confirmar el pedido #${order.number}` }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Este pedido no puede pasar a ese estado.' })).toBeVisible();
    // The row then shows where the order stands.
    await expect(row).toContainText('Cancelado');

    // Cancelling from the menu asks for a reason first.
    const second = await create('Prueba Cancelar');
    const other = ((await second.json()) as { data: { id: string; number: number } }).data;
    await page.getByLabel('Buscar pedidos').fill(String(other.number));
    await expect(page).toHaveURL(new RegExp(`q=${other.number}`));
    const row2 = page
      .getByRole('row')
      .filter({ has: page.getByRole('link', { name: `Pedido #${other.number}, ver detalle` }) });
    await row2.getByRole('button', { name: `Más acciones del pedido #${other.number}` }).click();
    await page.getByRole('menuitem', { name: 'Cancelar pedido…' }).click();
    const dialog = page.getByRole('alertdialog', { name: `¿Cancelar el pedido #${other.number}?` });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancelar pedido' }).click();
    await expect(dialog.getByText('Escribe el motivo')).toBeVisible();
    await dialog.getByLabel('Motivo de la cancelación').fill('Sin harina para ese día');
    await dialog.getByRole('button', { name: 'Cancelar pedido' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('status').filter({ hasText: `Pedido #${other.number} cancelado.` })).toBeVisible();
    await expect(row2).toContainText('Cancelado');
    // A cancelled order offers no more moves.
    await expect(row2.getByRole('button', { name: /Confirmar/ })).toHaveCount(0);
    await api.dispose();
  });
});

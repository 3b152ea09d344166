import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { now } from './support/clock';
import { e2eDataDir } from './support/database';
import { guestFillsSummary } from './support/guest-checkout';
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
 * Online payment without the sandbox's page: the gateway's hosted checkout is stood in for by
 * the test (the browser is sent there; the test reads the link the server signed), and the gateway's
 * answer arrives as it would from Wompi, a `transaction.updated` event signed with the app's events
 * secret (the sandbox's development keys in the e2e DATA_DIR).
 */

const CHECKOUT = '**/pasarela-de-prueba?**';

interface Attempt {
  reference: string;
  amountInCents: number;
  redirectUrl: string;
}

/** The gateway's page stands in as a blank page: the link the server signed is what is checked. */
async function standInForGateway(page: Page): Promise<void> {
  await page.route(CHECKOUT, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Pasarela</title>' }),
  );
}

/** The browser is at the gateway's checkout: the attempt its link carries, signed by the server. */
async function atGateway(page: Page): Promise<Attempt> {
  await expect(page).toHaveURL(/\/pasarela-de-prueba\?/);
  const url = new URL(page.url());
  expect(url.searchParams.get('currency')).toBe('COP');
  expect(url.searchParams.get('signature:integrity')).toMatch(/^[0-9a-f]{64}$/);
  return {
    reference: url.searchParams.get('reference')!,
    amountInCents: Number(url.searchParams.get('amount-in-cents')),
    redirectUrl: url.searchParams.get('redirect-url')!,
  };
}

/** The gateway reports the attempt's transaction: a Wompi event, signed as docs/design.md §5 says. */
/**
 * The orders screen narrowed to one order by its number: the list shows 25 a page by due day, and the
 * suite's other orders (standing orders among them) can push a day-after-tomorrow order off the first page
 * when a live change makes the list read again.
 */
async function showOnly(page: Page, number: number) {
  await page.getByLabel('Buscar pedidos').fill(`#${number}`);
  await expect(page).toHaveURL(new RegExp(`q=%23${number}`));
  await expect(page.getByRole('table', { name: 'Pedidos' }).getByRole('row')).toHaveCount(2);
}

async function gatewayReports(api: APIRequestContext, attempt: Attempt, status: string, id = `tx-${randomUUID()}`) {
  const keys = JSON.parse(readFileSync(path.join(e2eDataDir(), 'keys', 'payments-sandbox.json'), 'utf8')) as {
    eventsSecret: string;
  };
  const transaction = {
    id,
    reference: attempt.reference,
    amount_in_cents: attempt.amountInCents,
    currency: 'COP',
    status,
    payment_method_type: 'NEQUI',
  };
  // Covering every field the server acts on: with Wompi's three alone the server would ask the
  // sandbox about this transaction, which it never made.
  const properties = [
    'transaction.id',
    'transaction.status',
    'transaction.amount_in_cents',
    'transaction.reference',
    'transaction.currency',
  ];
  const timestamp = Math.floor(now().getTime() / 1000);
  const t = transaction;
  const checksum = createHash('sha256')
    .update(`${t.id}${t.status}${t.amount_in_cents}${t.reference}${t.currency}${timestamp}${keys.eventsSecret}`)
    .digest('hex');
  const res = await api.post('/api/payments/events', {
    headers: { 'x-event-checksum': checksum },
    data: {
      event: 'transaction.updated',
      data: { transaction },
      environment: 'test',
      signature: { properties, checksum },
      timestamp,
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  return id;
}

/** A guest fills the summary and places the order with "Pago en línea": the browser goes to the gateway. */
async function guestPaysOnline(page: Page, name: string): Promise<Attempt> {
  await standInForGateway(page);
  await guestFillsSummary(page, { name, phone: '311 555 0142', line: 'Calle 53 # 24-10', neighborhood: 'Galerías' });
  await page.getByRole('radio', { name: /Pago en línea/ }).check();
  await page.getByRole('button', { name: 'Realizar pedido' }).click();
  return atGateway(page);
}

const answer = (page: Page) => page.getByRole('region', { name: /pago/i });

test.describe('online payment', () => {
  test('a guest pays online: pending, declined, a new try, then approved, the page following by itself', async ({
    page,
    playwright,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const api = await playwright.request.newContext({ baseURL });
    const first = await guestPaysOnline(page, 'Mariana Ruiz');
    expect(first.redirectUrl).toMatch(/\/respuesta-de-pago\?pedido=/);

    // The gateway comes back with a transaction id the page only passes on: the server asks the gateway.
    await page.goto(`${first.redirectUrl}&id=tx-not-known`);
    const heading = page.getByRole('heading', { level: 1 });
    await expect(heading).toHaveText(/^Pedido #\d+$/);
    const number = Number((await heading.textContent())!.replace(/\D/g, ''));
    expect(first.reference.startsWith(`${number}-1-`)).toBe(true);
    await expect(answer(page)).toContainText('Tu pago está en proceso');
    await page.setViewportSize({ width: 375, height: 800 });
    await page.screenshot({ path: shot('payment-response-pending-375.png'), fullPage: true });

    // Declined at the gateway: the page says so by itself, and offers a new try and the other ways to pay.
    await gatewayReports(api, first, 'DECLINED');
    await expect(answer(page)).toContainText('El pago no fue aprobado', { timeout: 15_000 });
    await expect(answer(page)).toContainText(`No se hizo ningún cobro por el pedido #${number}`);
    await expect(answer(page).getByRole('link', { name: 'escríbenos por WhatsApp' })).toHaveAttribute(
      'href',
      /^https:\/\/wa\.me\//,
    );
    await page.screenshot({ path: shot('payment-response-declined-375.png'), fullPage: true });
    await expectNoSeriousAxeViolations(page, '/respuesta-de-pago (rechazado)');

    // "Intentar de nuevo": a new attempt with a new reference, at the gateway again.
    await page.getByRole('button', { name: 'Intentar de nuevo' }).click();
    const second = await atGateway(page);
    expect(second.reference).not.toBe(first.reference);
    expect(second.reference.startsWith(`${number}-2-`)).toBe(true);
    expect(second.amountInCents).toBe(first.amountInCents);

    // Back without an id: pending; approved later, and the page follows without a reload.
    await page.goto(second.redirectUrl);
    await expect(answer(page)).toContainText('Tu pago está en proceso');
    await gatewayReports(api, second, 'APPROVED');
    await expect(answer(page)).toContainText('Pago aprobado', { timeout: 15_000 });
    await expect(answer(page)).toContainText(`Tu pedido #${number} está confirmado`);
    await expect(page.getByRole('status').filter({ hasText: /^Confirmado$/ })).toBeVisible();
    await page.screenshot({ path: shot('payment-response-approved-375.png'), fullPage: true });
    await api.dispose();
  });

  test("staff's orders screen shows the payment change without a reload, with a toast", async ({
    page,
    browser,
    playwright,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    await signInByApi(page, DEMO.staff);
    await expect(accountButton(page, 'Julián')).toBeVisible();
    await expect(page.getByRole('table', { name: 'Pedidos' }).getByRole('row').nth(1)).toBeVisible();

    const guestContext = await browser.newContext();
    const guest = await guestContext.newPage();
    const attempt = await guestPaysOnline(guest, 'Tomás Herrera');
    const number = Number(attempt.reference.split('-')[0]);
    const row = page
      .getByRole('row')
      .filter({ has: page.getByRole('link', { name: `Pedido #${number}, ver detalle` }) });
    // Found by its number: in the default view a new order due days ahead may land past the first page (the
    // list is by due day), and that the new order appears live is orders.spec's own journey.
    await showOnly(page, number);
    await expect(row).toBeVisible({ timeout: 10_000 });
    await expect(row).toContainText('Tomás Herrera');
    await expect(row).not.toContainText('Pagado');

    const api = await playwright.request.newContext({ baseURL });
    await gatewayReports(api, attempt, 'APPROVED');
    await expect(page.getByRole('status').filter({ hasText: `Pago recibido · #${number}` })).toBeVisible({
      timeout: 10_000,
    });
    await expect(row).toContainText('Pagado');
    await expect(row).toContainText('Confirmado');
    await api.dispose();
    await guestContext.close();
  });
});

test.describe('a payment received after cancelling', () => {
  test('the orders screen flags it live for a refund, and the admin clears it once the money went back', async ({
    page,
    browser,
    playwright,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    await signInByApi(page, DEMO.admin);
    await expect(accountButton(page, 'Marta')).toBeVisible();
    await expect(page.getByRole('table', { name: 'Pedidos' }).getByRole('row').nth(1)).toBeVisible();

    const guestContext = await browser.newContext();
    const attempt = await guestPaysOnline(await guestContext.newPage(), 'Valentina Ortiz');
    const number = Number(attempt.reference.split('-')[0]);
    const api = await playwright.request.newContext({ baseURL });
    const companyId = await marketCompanyId(api);
    const headers = { authorization: `Bearer ${await apiToken(api, DEMO.staff)}` };
    const list = (await (await api.get(`/api/companies/${companyId}/orders?number=${number}`, { headers })).json()) as {
      data: { id: string }[];
    };
    const cancelled = await api.patch(`/api/companies/${companyId}/orders/${list.data[0]!.id}`, {
      headers,
      data: { status: 'cancelled', cancelReason: 'La clienta llamó para cancelar' },
    });
    expect(cancelled.status(), await cancelled.text()).toBe(200);
    await showOnly(page, number);
    const row = page
      .getByRole('row')
      .filter({ has: page.getByRole('link', { name: `Pedido #${number}, ver detalle` }) });
    await expect(row).toContainText('Cancelado', { timeout: 10_000 });
    await expect(row).not.toContainText('Devolver pago');

    // The bank approves it late: the order stays cancelled, and the screen says the money must go back.
    await gatewayReports(api, attempt, 'APPROVED');
    await expect(row).toContainText('Devolver pago', { timeout: 10_000 });
    await expect(row).toContainText('Cancelado');
    await row.getByRole('link', { name: `Pedido #${number}, ver detalle` }).click();
    const panel = page.getByRole('dialog', { name: `Pedido #${number}` });
    await expect(panel.getByRole('alert')).toContainText('Pago recibido después de cancelar: devolver');
    await page.screenshot({ path: shot('refund-due-detail.png') });
    await panel.getByRole('button', { name: 'Devolución hecha' }).click();
    const confirm = page.getByRole('alertdialog', { name: `¿Ya devolviste los pagos del pedido #${number}?` });
    await confirm.getByRole('button', { name: 'Sí, ya se devolvieron' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: `Pedido #${number}: devolución registrada.` }),
    ).toBeVisible();
    await expect(panel.getByRole('alert')).toBeHidden();
    await api.dispose();
    await guestContext.close();
  });
});

/** A guest places an online order and lands on the sandbox's hosted checkout (the real page). */
async function guestAtSandbox(page: Page, name: string): Promise<number> {
  await guestFillsSummary(page, { name, phone: '311 555 0177', line: 'Carrera 15 # 88-20', neighborhood: 'El Chicó' });
  await page.getByRole('radio', { name: /Pago en línea/ }).check();
  await page.getByRole('button', { name: 'Realizar pedido' }).click();
  const attempt = await atGateway(page);
  return Number(attempt.reference.split('-')[0]);
}

test.describe('online payment through the sandbox', () => {
  test('a guest pays and is approved; another declines, tries again and is approved', async ({ page }) => {
    test.setTimeout(120_000);
    const number = await guestAtSandbox(page, 'Camila Rojas');
    await page.setViewportSize({ width: 375, height: 800 });
    await page.screenshot({ path: shot('sandbox-checkout-375.png'), fullPage: true });
    await page.getByRole('button', { name: 'Aprobar' }).click();
    await expect(page).toHaveURL(/\/respuesta-de-pago\?pedido=.*&id=/);
    await expect(answer(page)).toContainText('Pago aprobado', { timeout: 15_000 });
    await expect(answer(page)).toContainText(`Tu pedido #${number} está confirmado`);

    const other = await guestAtSandbox(page, 'Sebastián Mora');
    await page.getByRole('button', { name: 'Rechazar' }).click();
    await expect(answer(page)).toContainText('El pago no fue aprobado', { timeout: 15_000 });
    await page.getByRole('button', { name: 'Intentar de nuevo' }).click();
    const again = await atGateway(page);
    expect(again.reference.startsWith(`${other}-2-`)).toBe(true);
    await page.getByRole('button', { name: 'Aprobar' }).click();
    await expect(answer(page)).toContainText('Pago aprobado', { timeout: 15_000 });
    await expect(answer(page)).toContainText(`Tu pedido #${other} está confirmado`);
  });

  test('a guest leaves the payment pending and approves it later at the sandbox; the response page follows', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const number = await guestAtSandbox(page, 'Andrés Gil');
    await page.getByRole('button', { name: 'Dejar pendiente' }).click();
    await expect(page).toHaveURL(/\/respuesta-de-pago\?pedido=.*&id=/);
    await expect(answer(page)).toContainText('Tu pago está en proceso', { timeout: 15_000 });
    const id = new URL(page.url()).searchParams.get('id')!;

    const sandbox = await page.context().newPage();
    await sandbox.goto(`/pasarela-de-prueba/transacciones/${encodeURIComponent(id)}`);
    await sandbox.getByRole('button', { name: 'Aprobar' }).click();
    await expect(answer(page)).toContainText('Pago aprobado', { timeout: 20_000 });
    await expect(answer(page)).toContainText(`Tu pedido #${number} está confirmado`);
    await sandbox.close();
  });
});

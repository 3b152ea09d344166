import { expect, test } from './fixtures';
import { productAndSlot } from './support/order-slots';
import { accountButton, DEMO, marketCompanyId, signInByApi } from './support/session';

/**
 * Suspicious web orders: three guest orders with one phone for one day are flagged on the
 * staff's orders screen, and one click (its reason already written, confirmed once) cancels one through the
 * usual status move; with only two left, the others lose the flag.
 */

const stamp = Date.now().toString(36);
const sessionId = (n: number) =>
  `sus${stamp}${n}`
    .replace(/[^A-Za-z0-9]/g, '')
    .padEnd(20, 'x')
    .slice(0, 20);

test('staff see web orders sharing a phone flagged and cancel one in one click', async ({
  page,
  playwright,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const api = await playwright.request.newContext({ baseURL });
  const companyId = await marketCompanyId(api);
  const { product, day, window } = await productAndSlot(api, companyId, 3);
  // A phone of this run only, written three ways: the server reads one phone.
  const digits = String(Date.now()).slice(-7);
  const phones = [`316 ${digits}`, `+57 316${digits}`, `316-${digits}`];
  const numbers: number[] = [];
  for (const [i, phone] of phones.entries()) {
    const holder = { 'x-session-id': sessionId(i) };
    const cart = await api.post('/api/carts', {
      headers: holder,
      data: { companyId, items: [{ productId: product.id, quantity: Math.ceil(30_000 / product.price) }] },
    });
    expect(cart.status(), await cart.text()).toBe(201);
    const cartId = ((await cart.json()) as { data: { id: string } }).data.id;
    const res = await api.post(`/api/carts/${cartId}/checkout`, {
      headers: { ...holder, 'idempotency-key': `suspicious-${stamp}-${i}` },
      data: {
        contact: { name: `Sospechoso ${i + 1}`, phone },
        fulfillment: 'delivery',
        address: { line: 'Calle 1 # 2-3', neighborhood: 'Centro', city: 'Bogotá', notes: null },
        dueDate: day,
        window,
        paymentMethod: 'cash',
        notes: null,
      },
    });
    expect(res.status(), await res.text()).toBe(201);
    numbers.push(((await res.json()) as { data: { number: number } }).data.number);
  }

  await signInByApi(page, DEMO.staff);
  await expect(accountButton(page, 'Julián')).toBeVisible();
  await page.getByLabel('Buscar pedidos').fill(`316${digits}`);
  await expect(page).toHaveURL(new RegExp(`q=316${digits}`));
  const rowOf = (n: number) =>
    page.getByRole('row').filter({ has: page.getByRole('link', { name: `Pedido #${n}, ver detalle` }) });
  for (const n of numbers) {
    await expect(rowOf(n).getByText(/^Sospechoso: Mismo teléfono/)).toBeVisible();
  }

  await rowOf(numbers[0]!)
    .getByRole('button', { name: `Cancelar el pedido sospechoso #${numbers[0]}` })
    .click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog.getByLabel('Motivo de la cancelación')).toHaveValue(/^Pedido sospechoso/);
  await dialog.getByRole('button', { name: 'Cancelar pedido' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Pedido #${numbers[0]} cancelado.` })).toBeVisible();
  await expect(rowOf(numbers[0]!)).toContainText('Cancelado');
  // Two unpaid orders with that phone are no longer suspicious.
  for (const n of numbers) await expect(rowOf(n).getByText(/^Sospechoso: Mismo teléfono/)).toHaveCount(0);
  await api.dispose();
});

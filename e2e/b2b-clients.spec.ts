import { expect, test } from './fixtures';
import { adminApi, pageShot } from './support/admin-api';
import { accountButton, DEMO, expectNoSeriousAxeViolations, signInByApi } from './support/session';

/**
 * Dashboard › Clientes mayoristas: a wrong NIT check digit is a Spanish message under the
 * field; with a right one and two prices of its own the client is saved, and an order taken for it at order
 * entry is priced with those prices by the server. Axe and screenshots of the client's page.
 */

interface Product {
  id: string;
  name: string;
  price: number;
  b2bPrice: number | null;
}
interface Order {
  id: string;
  items: { productId: string; unitPrice: number; quantity: number }[];
}

const suffix = () => Math.random().toString(36).slice(2, 7);

test('a B2B client: the NIT check digit, two prices of its own, and an order at those prices', async ({
  page,
  playwright,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const api = await adminApi(await playwright.request.newContext({ baseURL }));
  const products = await api.call<Product[]>('GET', 'products?active=true&sort=name&per_page=1000');
  const [first, second] = products;
  expect(second, 'two demo products').toBeDefined();
  const prices = new Map([
    [first!.id, Math.max(100, first!.price - 300)],
    [second!.id, Math.max(100, second!.price - 450)],
  ]);
  const name = `Café Mayorista ${suffix()}`;
  let clientId: string | null = null;
  let orderId: string | null = null;
  try {
    await signInByApi(page, DEMO.staff);
    await expect(accountButton(page, 'Julián')).toBeVisible();
    await page.goto('/dashboard/b2b-clients');
    await expect(page.getByRole('heading', { level: 1, name: 'Clientes mayoristas' })).toBeVisible();
    await expectNoSeriousAxeViolations(page, '/dashboard/b2b-clients');
    await page.getByRole('link', { name: 'Nuevo cliente' }).first().click();
    await expect(page.getByRole('heading', { level: 1, name: 'Nuevo cliente mayorista' })).toBeVisible();

    await page.getByLabel('Razón social').fill(name);
    const nit = page.getByLabel(/^NIT/);
    await nit.fill('900123456-1');
    await nit.blur();
    const message = page.getByText('El dígito de verificación no corresponde a este NIT: debería ser 8.');
    await expect(message).toBeVisible();
    await expect(nit).toHaveAttribute('aria-invalid', 'true');
    await nit.fill('900.123.456-8');
    await expect(message).toBeHidden();
    await page.getByLabel('Contacto', { exact: false }).first().fill('Laura Gómez');
    await page.getByLabel(/^Teléfono/).fill('+57 310 555 0142');
    await page.getByLabel(/^Plazo de pago/).fill('30');

    for (const p of [first!, second!]) {
      await page.getByLabel('Producto', { exact: true }).selectOption({ label: p.name });
      await page.getByRole('button', { name: 'Agregar precio' }).click();
      const price = page.getByLabel(`Precio de ${p.name}`, { exact: true });
      await expect(price).toBeVisible();
      await price.fill(String(prices.get(p.id)));
    }
    // Each row shows the list price beside the client's.
    await expect(page.getByRole('list', { name: 'Precios propios' })).toContainText('Lista');
    await page.getByRole('button', { name: 'Guardar cliente' }).click();
    await expect(page.getByText(`Registramos a «${name}».`)).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard\/b2b-clients$/);

    await page.getByLabel('Buscar clientes mayoristas').fill(name);
    // As a person does: the list answers the search (its URL says so) before a result is opened.
    await expect(page).toHaveURL(/[?&]q=/);
    const link = page.getByRole('link', { name, exact: true });
    await expect(link).toBeVisible();
    await link.click();
    await expect(page.getByRole('heading', { level: 1, name: 'Cliente mayorista' })).toBeVisible();
    clientId = new URL(page.url()).searchParams.get('cliente');
    await expect(page.getByLabel('Razón social')).toHaveValue(name);
    await expect(page.getByTestId('b2b-balance')).toContainText('$0');
    await expectNoSeriousAxeViolations(page, 'b2b client page');
    await pageShot(page, 1280, 'b2b-client-1280.png');
    await pageShot(page, 375, 'b2b-client-375.png');

    // Order entry for this client: the server prices it with the client's own prices.
    await page.goto('/dashboard/orders/create');
    await page.getByRole('radio', { name: /Cliente B2B/ }).check();
    await page.getByLabel('Cliente B2B', { exact: true }).selectOption({ label: name });
    for (const p of [first!, second!]) {
      await page.getByLabel('Buscar producto').fill(p.name);
      await page.getByRole('button', { name: `Agregar ${p.name}`, exact: true }).click();
      await page.getByLabel('Buscar producto').fill('');
    }
    await page.getByRole('radio', { name: 'Recoge en la panadería' }).check();
    await page.getByRole('group', { name: 'Horario' }).getByRole('radio').first().check();
    await page.getByRole('button', { name: 'Crear pedido' }).click();
    await expect(page.getByText(/^Pedido #\d+ creado$/)).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard\/orders\?order=[\w-]+(&|$)/);
    orderId = new URL(page.url()).searchParams.get('order');
    const order = await api.call<Order>('GET', `orders/${orderId}`);
    expect(order.items.map((l) => [l.productId, l.unitPrice])).toEqual(
      [first!, second!].map((p) => [p.id, prices.get(p.id)]),
    );
  } finally {
    if (orderId) await api.call('PATCH', `orders/${orderId}`, { status: 'cancelled', cancelReason: 'Prueba E2E' });
    if (clientId) await api.call('PATCH', `b2bClients/${clientId}`, { active: false });
    await api.dispose();
  }
});

test('a standing order created on the client page makes its orders, marked "Recurrente" on the orders screen', async ({
  page,
  playwright,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const api = await adminApi(await playwright.request.newContext({ baseURL }));
  const [product] = await api.call<Product[]>('GET', 'products?active=true&sort=name&per_page=1');
  const client = await api.call<{ id: string; businessName: string }>('POST', 'b2bClients', {
    businessName: `Hotel Recurrente ${suffix()}`,
    contactName: 'Mario Díaz',
    phone: '+57 310 555 0177',
    address: 'Calle 80 # 12-34, Bogotá',
  });
  // A day is made once it enters the order horizon (the window's opening less the bakery's lead hours): on a
  // Saturday after the morning window the next open day is Monday, past a 24-hour lead, and nothing would be
  // made yet. Four days' lead while the journey runs puts the next open days in the horizon at any hour.
  const { orderLeadHours } = await api.call<{ orderLeadHours: number }>('GET', 'settings');
  await api.call('PATCH', 'settings', { orderLeadHours: Math.max(orderLeadHours, 96) });
  try {
    await signInByApi(page, DEMO.staff);
    await expect(accountButton(page, 'Julián')).toBeVisible();
    await page.goto(`/dashboard/b2b-clients?cliente=${client.id}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Cliente mayorista' })).toBeVisible();
    await expect(page.getByText('Este cliente no tiene pedidos recurrentes.')).toBeVisible();
    await page.getByRole('button', { name: 'Nuevo pedido recurrente' }).click();
    // Every weekday: whatever today is, the days already in the order horizon are made at once.
    for (const day of ['Lunes', 'Martes', 'Miércoles', 'Jueves', 'Viernes', 'Sábado', 'Domingo']) {
      await page.getByRole('checkbox', { name: day, exact: true }).check();
    }
    await page.getByLabel('Producto del pedido').selectOption({ label: product!.name });
    await page.getByRole('button', { name: 'Agregar producto' }).click();
    await page.getByLabel(`Cantidad de ${product!.name}`).fill('40');
    await page.getByLabel('Entrega').selectOption('pickup');
    await page.getByLabel('Días sin pedido').fill('2026-12-24');
    await page.getByRole('button', { name: 'Agregar día' }).click();
    await expect(page.getByRole('list', { name: 'Días sin pedido' })).toContainText('24 de dic');
    await page.getByRole('button', { name: 'Guardar pedido recurrente' }).click();
    await expect(page.getByText('Creamos el pedido recurrente.')).toBeVisible();

    const next = page.getByRole('list', { name: 'Próximos pedidos' });
    await expect(next.getByRole('listitem')).toHaveCount(10);
    const made = next.getByRole('link', { name: /^Pedido #\d+$/ });
    await expect(made.first()).toBeVisible({ timeout: 15_000 });
    await expect(page.getByRole('list', { name: 'Pedidos recurrentes del cliente' })).toContainText(
      `40 × ${product!.name}`,
    );
    await expectNoSeriousAxeViolations(page, 'b2b client page with a standing order');
    await pageShot(page, 1280, 'b2b-standing-1280.png');
    await pageShot(page, 375, 'b2b-standing-375.png');

    const number = (await made.first().textContent())!.replace('Pedido #', '');
    await made.first().click();
    await expect(page).toHaveURL(/\/dashboard\/orders\?order=/);
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: `#${number}` }) });
    const detail = page.getByRole('dialog').or(page.getByRole('complementary'));
    await expect(page.getByText('Recurrente').first()).toBeVisible();
    await expect(row.or(detail).getByText('Recurrente').first()).toBeVisible();

    // Its own list: every client's standing orders, linking to the client's page.
    await page.goto('/dashboard/standing-orders');
    await expect(page.getByRole('heading', { level: 1, name: 'Pedidos recurrentes' })).toBeVisible();
    const listed = page.getByRole('link', { name: client.businessName, exact: true });
    await expect(listed).toBeVisible();
    await expectNoSeriousAxeViolations(page, '/dashboard/standing-orders');
    await listed.click();
    await expect(page.getByRole('heading', { level: 1, name: 'Cliente mayorista' })).toBeVisible();
  } finally {
    const mine = await api.call<{ id: string; status: string }[]>(
      'GET',
      `orders?b2bClientId=${client.id}&per_page=100`,
    );
    for (const o of mine) {
      if (o.status !== 'cancelled') {
        await api.call('PATCH', `orders/${o.id}`, { status: 'cancelled', cancelReason: 'Prueba E2E' });
      }
    }
    const standing = await api.call<{ id: string }[]>('GET', `standingOrders?b2bClientId=${client.id}`);
    for (const s of standing) await api.call('PATCH', `standingOrders/${s.id}`, { active: false });
    await api.call('PATCH', `b2bClients/${client.id}`, { active: false });
    await api.call('PATCH', 'settings', { orderLeadHours });
    await api.dispose();
  }
});

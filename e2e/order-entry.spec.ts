import type { APIRequestContext, Page } from '@playwright/test';
import { formatMoney } from '@hornada/domain/format';
import { unitPriceFor } from '@hornada/domain/order-pricing';
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
 * Staff order entry, /dashboard/orders/create (docs/design.md §5): a B2B order priced by the
 * client's own price, the product's b2bPrice and the discount, with the credit warning; a customer's order at
 * list prices; Spanish validation, the leave-without-saving guard, axe, screenshots at 1280 and 375 px.
 */

interface Product {
  id: string;
  name: string;
  price: number;
  b2bPrice: number | null;
}
interface Order {
  id: string;
  number: number;
  channel: string;
  b2bClientId: string | null;
  customerId: string | null;
  total: number;
  paymentMethod: string;
  items: { productId: string; unitPrice: number; quantity: number }[];
  history: { field: string; note?: string }[];
}

interface Api {
  companyId: string;
  call<T>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, data?: unknown): Promise<T>;
  /** How many records a list query finds. */
  count(path: string): Promise<number>;
  dispose(): Promise<void>;
}

async function adminApi(request: APIRequestContext): Promise<Api> {
  const companyId = await marketCompanyId(request);
  const token = await apiToken(request, DEMO.admin);
  return {
    companyId,
    async call<T>(method: string, path: string, data?: unknown) {
      const res = await request.fetch(`/api/companies/${companyId}/${path}`, {
        method,
        headers: { authorization: `Bearer ${token}` },
        ...(data === undefined ? {} : { data }),
      });
      expect(res.ok(), `${method} ${path}: ${await res.text()}`).toBe(true);
      return res.status() === 204 ? (undefined as T) : ((await res.json()) as { data: T }).data;
    },
    async count(path: string) {
      const res = await request.get(`/api/companies/${companyId}/${path}&per_page=1`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.ok(), await res.text()).toBe(true);
      return ((await res.json()) as { total: number }).total;
    },
    dispose: () => request.dispose(),
  };
}

const suffix = () => Math.random().toString(36).slice(2, 7);

async function openEntry(page: Page) {
  await signInByApi(page, DEMO.staff);
  await expect(accountButton(page, 'Julián')).toBeVisible();
  await page.goto('/dashboard/orders/create');
  await expect(page.getByRole('heading', { level: 1, name: 'Nuevo pedido' })).toBeVisible();
  await expect(page.getByLabel('Buscar producto')).toBeVisible();
}

async function addProduct(page: Page, name: string) {
  await page.getByLabel('Buscar producto').fill(name);
  await page.getByRole('button', { name: `Agregar ${name}`, exact: true }).click();
  await page.getByLabel('Buscar producto').fill('');
}

/** The whole page at `width`, in a window as tall as the page (a full-page capture scatters sticky parts). */
async function pageShot(page: Page, width: number, name: string) {
  await page.setViewportSize({ width, height: 900 });
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width, height });
  await page.screenshot({ path: shot(name) });
}

const orderLine = (page: Page, name: string) =>
  page
    .getByRole('list', { name: 'Productos del pedido' })
    .getByRole('listitem')
    .filter({ has: page.getByText(name, { exact: true }) });

test.describe('staff order entry', () => {
  test('a B2B order: the three price rules, the credit warning, and the server keeps those prices', async ({
    page,
    playwright,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    const api = await adminApi(await playwright.request.newContext({ baseURL }));
    const products = await api.call<Product[]>('GET', 'products?active=true&sort=name&per_page=1000');
    const withB2b = products.filter((p) => p.b2bPrice !== null);
    const without = products.filter((p) => p.b2bPrice === null);
    expect(withB2b.length, 'a demo product with a b2bPrice').toBeGreaterThan(0);
    expect(without.length, 'demo products without a b2bPrice').toBeGreaterThan(1);
    const own = without[0]!;
    const wholesale = withB2b[0]!;
    const discounted = without[1]!;
    // A client of the test's own: its price for one product, 7.5 % off the rest, and a low credit limit.
    const creditLimit = 5_000;
    const client = await api.call<{ id: string; businessName: string }>('POST', 'b2bClients', {
      businessName: `Cafetería E2E ${suffix()}`,
      contactName: 'Camila Ríos',
      phone: '+57 310 555 0199',
      email: 'compras@cafeteria-e2e.test',
      address: 'Carrera 7 # 45-10, Bogotá',
      discountPercent: 7.5,
      prices: [{ productId: own.id, price: Math.max(100, own.price - 700) }],
      paymentTermsDays: 30,
      creditLimit,
    });
    const terms = { discountPercent: 7.5, prices: [{ productId: own.id, price: Math.max(100, own.price - 700) }] };
    const expected = new Map([own, wholesale, discounted].map((p) => [p.id, unitPriceFor(p, terms)]));
    // An unpaid credit order the client already has.
    const [day] = await api.call<{ date: string; windows: { id: string | null }[] }[]>('GET', 'delivery-days?days=14');
    const earlier = await api.call<Order>('POST', 'orders', {
      b2bClientId: client.id,
      contact: { name: 'Camila Ríos', phone: '+57 310 555 0199' },
      items: [{ productId: wholesale.id, quantity: 2 }],
      fulfillment: 'pickup',
      dueDate: day!.date,
      window: day!.windows[0]!.id,
      paymentMethod: 'credit',
    });
    const created: string[] = [earlier.id];

    try {
      await openEntry(page);
      await page.getByRole('radio', { name: /Cliente B2B/ }).check();
      await page.getByLabel('Cliente B2B', { exact: true }).selectOption({ label: client.businessName });
      // The client's contact and address fill the form; credit is its payment.
      await expect(page.getByLabel('Nombre de contacto')).toHaveValue('Camila Ríos');
      await expect(page.getByLabel('Dirección', { exact: true })).toHaveValue('Carrera 7 # 45-10, Bogotá');
      await expect(page.getByRole('radio', { name: /Crédito/ })).toBeChecked();

      for (const p of [own, wholesale, discounted]) await addProduct(page, p.name);
      await orderLine(page, discounted.name)
        .getByRole('textbox', { name: `Cantidad de ${discounted.name}` })
        .fill('3');
      await orderLine(page, own.name)
        .getByRole('button', { name: `Agregar uno de ${own.name}` })
        .click();
      const rules: [Product, string, number][] = [
        [own, 'Precio del cliente', 2],
        [wholesale, 'Precio mayorista', 1],
        [discounted, 'Lista menos 7,5 %', 3],
      ];
      for (const [p, rule, quantity] of rules) {
        const line = orderLine(page, p.name);
        await expect(line).toContainText(`${formatMoney(expected.get(p.id)!)} c/u`);
        await expect(line).toContainText(rule);
        await expect(line.getByTestId('line-total')).toHaveText(
          `Total de ${p.name}: ` + formatMoney(expected.get(p.id)! * quantity),
        );
      }
      const subtotal = rules.reduce((sum, [p, , q]) => sum + expected.get(p.id)! * q, 0);
      await expect(page.getByTestId('entry-subtotal')).toHaveText(formatMoney(subtotal));

      await page.getByRole('group', { name: 'Horario' }).getByRole('radio').first().check();
      // The map pin: typed coordinates show with a link to check them; "Quitar" empties both.
      const pin = page.getByRole('group', { name: 'Ubicación en el mapa' });
      await page.getByLabel('Latitud').fill('4.6458');
      await page.getByLabel('Longitud').fill('-74.0613');
      await expect(pin.getByTestId('pin-coordinates')).toHaveText('4.645800, -74.061300');
      await expect(pin.getByRole('link', { name: /^Ver en el mapa/ })).toHaveAttribute(
        'href',
        /query=4\.6458%2C-74\.0613$/,
      );
      await pin.getByRole('button', { name: 'Quitar ubicación' }).click();
      await expect(page.getByLabel('Latitud')).toHaveValue('');
      await expect(page.getByLabel('Longitud')).toHaveValue('');
      await page.getByLabel('Latitud').fill('4.6458');
      await page.getByLabel('Longitud').fill('-74.0613');
      // Unpaid credit plus this order passes the limit: a warning with the figures, not a block.
      const warning = page.getByRole('alert').filter({ hasText: 'Supera el cupo de crédito' });
      await expect(warning).toBeVisible();
      await expect(warning).toContainText(formatMoney(creditLimit));
      await expect(warning).toContainText(formatMoney(earlier.total));

      await pageShot(page, 1280, 'order-entry-1280.png');
      await pageShot(page, 375, 'order-entry-375.png');
      // Nothing wider than the phone: the page never scrolls sideways.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      await page.setViewportSize({ width: 1280, height: 900 });
      await expectNoSeriousAxeViolations(page, '/dashboard/orders/create');

      await page.getByRole('button', { name: 'Crear pedido' }).click();
      const toast = page.getByText(/^Pedido #\d+ creado$/);
      await expect(toast).toBeVisible();
      // What it said, read while it shows (a toast goes after 3 s; the orders screen may take longer to open).
      const said = await toast.textContent();
      await expect(page).toHaveURL(/\/dashboard\/orders\?order=[\w-]+(&|$)/);
      const id = new URL(page.url()).searchParams.get('order')!;
      created.push(id);
      const order = await api.call<Order>('GET', `orders/${id}`);
      expect(said).toBe(`Pedido #${order.number} creado`);
      expect(order).toMatchObject({
        channel: 'b2b',
        b2bClientId: client.id,
        paymentMethod: 'credit',
        address: { lat: 4.6458, lng: -74.0613 },
      });
      expect(order.items.map((l) => [l.productId, l.unitPrice, l.quantity])).toEqual(
        rules.map(([p, , q]) => [p.id, expected.get(p.id), q]),
      );
    } finally {
      for (const id of created) {
        await api.call('PATCH', `orders/${id}`, { status: 'cancelled', cancelReason: 'Prueba E2E' });
      }
      await api.call('PATCH', `b2bClients/${client.id}`, { active: false });
      await api.dispose();
    }
  });

  test('a customer order at list prices: the customer found, the lead-time pass, the toast and the orders screen', async ({
    page,
    playwright,
    baseURL,
  }) => {
    test.setTimeout(60_000);
    const api = await adminApi(await playwright.request.newContext({ baseURL }));
    const [product] = await api.call<Product[]>('GET', 'products?active=true&sort=-price&per_page=1');
    const [customer] = await api.call<{ id: string }[]>('GET', 'users?role=company_customer&search=cliente@hornada');
    const before = await api.count(`orders?customerId=${customer!.id}`);
    let createdId: string | null = null;
    try {
      // What the form says of a missing field or a wrong quantity, and its leave guard, are the entry screen's own
      // (entry-screen.dom.test.tsx); this walks one order through the real server.
      await openEntry(page);
      await page.getByLabel('Buscar cliente').fill('cliente@hornada');
      await page
        .getByRole('list', { name: 'Clientes encontrados' })
        .getByRole('button', { name: /Ana María/ })
        .click();
      await expect(page.getByLabel('Nombre de contacto')).toHaveValue('Ana María de la Torre');
      await addProduct(page, product!.name);
      // List price, no B2B rule.
      const line = orderLine(page, product!.name);
      await expect(line).toContainText(`${formatMoney(product!.price)} c/u`);
      await expect(line).not.toContainText('Precio');
      await line.getByRole('textbox', { name: `Cantidad de ${product!.name}` }).fill('2');

      const phone = page.getByRole('textbox', { name: 'Teléfono' });
      // The demo customer has no phone on file: the screen asks for one.
      if (!(await phone.inputValue())) await phone.fill('300 555 0101');
      await expect(page.getByText('Escribe un teléfono de contacto.')).toBeHidden();
      await page.getByRole('radio', { name: 'Recoge en la panadería' }).check();
      // Today is offered though its windows are within the lead time (docs/design.md §5: staff may pass it, warned).
      const day = page.getByLabel('Día', { exact: true });
      const first = day.locator('option').first();
      // «Hoy» names today only: on a Sunday (no deliveries) Monday comes first, as «Mañana».
      const today = (await first.getAttribute('value')) === bogotaDay();
      expect((await first.textContent())?.startsWith('Hoy'), 'the first day says «Hoy» only when it is today').toBe(
        today,
      );
      if (today) await day.selectOption({ index: 0 });
      await page.getByRole('group', { name: 'Horario' }).getByRole('radio').last().check();
      if (today) {
        await expect(page.getByRole('status').filter({ hasText: 'dentro del plazo de pedidos' })).toBeVisible();
      }
      await page.getByRole('radio', { name: 'Efectivo' }).check();
      await expect(page.getByTestId('entry-total')).toHaveText(formatMoney(product!.price * 2));
      await page.getByRole('button', { name: 'Crear pedido' }).dblclick();
      await expect(page.getByText(/^Pedido #\d+ creado$/)).toBeVisible();
      await expect(page).toHaveURL(/\/dashboard\/orders\?order=[\w-]+(&|$)/);
      createdId = new URL(page.url()).searchParams.get('order');
      const order = await api.call<Order>('GET', `orders/${createdId}`);
      expect(order).toMatchObject({ channel: 'staff', paymentMethod: 'cash', total: product!.price * 2 });
      expect(order.customerId).not.toBeNull();
      // The history records the pass (a Sunday or a blackout day has no "today" to pick).
      if (today) expect(order.history.map((h) => h.note)).toContain('lead-time');
      // One order however the button was clicked.
      expect(await api.count(`orders?customerId=${order.customerId}`)).toBe(before + 1);
    } finally {
      if (createdId)
        await api.call('PATCH', `orders/${createdId}`, { status: 'cancelled', cancelReason: 'Prueba E2E' });
      await api.dispose();
    }
  });

  test('a walk-in order: the server refusing a product shows under its line, and removing it lets the order through', async ({
    page,
    playwright,
    baseURL,
    expectConsoleErrors,
  }) => {
    test.setTimeout(60_000);
    expectConsoleErrors(422);
    const api = await adminApi(await playwright.request.newContext({ baseURL }));
    const [other] = await api.call<Product[]>('GET', 'products?active=true&sort=price&per_page=1');
    const gone = await api.call<Product>('POST', 'products', { name: `Pan E2E ${suffix()}`, price: 3100 });
    let createdId: string | null = null;
    try {
      await openEntry(page);
      await page.getByRole('radio', { name: /Sin cuenta/ }).check();
      await page.getByLabel('Nombre de contacto').fill('Pedro Gómez');
      await page.getByRole('textbox', { name: 'Teléfono' }).fill('311 555 0102');
      await page.getByRole('radio', { name: 'Recoge en la panadería' }).check();
      await page.getByRole('group', { name: 'Horario' }).getByRole('radio').first().check();
      // Enter in the search adds the first match.
      await page.getByLabel('Buscar producto').fill(gone.name);
      await page.getByLabel('Buscar producto').press('Enter');
      await expect(orderLine(page, gone.name)).toContainText(`${formatMoney(3100)} c/u`);

      // Someone takes the product off the catalogue meanwhile: the server's 422 lands under its line.
      await api.call('PATCH', `products/${gone.id}`, { active: false });
      await page.getByRole('button', { name: 'Crear pedido' }).click();
      await expect(orderLine(page, gone.name)).toContainText('Un producto de tu pedido ya no está disponible.');
      await expect(page).toHaveURL(/\/dashboard\/orders\/create$/);

      await orderLine(page, gone.name)
        .getByRole('button', { name: `Quitar ${gone.name} del pedido` })
        .click();
      await expect(page.getByRole('list', { name: 'Productos del pedido' })).toHaveCount(0);
      await addProduct(page, other!.name);
      await page.getByRole('button', { name: 'Crear pedido' }).click();
      await expect(page.getByText(/^Pedido #\d+ creado$/)).toBeVisible();
      await expect(page).toHaveURL(/\/dashboard\/orders\?order=[\w-]+(&|$)/);
      createdId = new URL(page.url()).searchParams.get('order');
      const order = await api.call<Order>('GET', `orders/${createdId}`);
      expect(order).toMatchObject({ channel: 'staff', customerId: null, b2bClientId: null, total: other!.price });
    } finally {
      if (createdId)
        await api.call('PATCH', `orders/${createdId}`, { status: 'cancelled', cancelReason: 'Prueba E2E' });
      await api.call('DELETE', `products/${gone.id}`);
      await api.dispose();
    }
  });
  test('an answer lost on the way: the retry sends the same Idempotency-Key and the server makes one order', async ({
    page,
    playwright,
    baseURL,
    expectConsoleErrors,
  }) => {
    test.setTimeout(60_000);
    expectConsoleErrors('net::ERR_FAILED');
    const api = await adminApi(await playwright.request.newContext({ baseURL }));
    const [product] = await api.call<Product[]>('GET', 'products?active=true&sort=price&per_page=1');
    const name = `Pedro Réplica ${suffix()}`;
    const keys: string[] = [];
    let createdId: string | null = null;
    try {
      await openEntry(page);
      // The first create reaches the server, which makes the order, but its answer never comes back.
      await page.route(`**/api/companies/${api.companyId}/orders`, async (route) => {
        if (route.request().method() !== 'POST') return route.continue();
        keys.push(route.request().headers()['idempotency-key'] ?? '');
        if (keys.length === 1) {
          await route.fetch();
          return route.abort('failed');
        }
        return route.continue();
      });
      await page.getByRole('radio', { name: /Sin cuenta/ }).check();
      await page.getByLabel('Nombre de contacto').fill(name);
      await page.getByRole('textbox', { name: 'Teléfono' }).fill('311 555 0103');
      await page.getByRole('radio', { name: 'Recoge en la panadería' }).check();
      await page.getByRole('group', { name: 'Horario' }).getByRole('radio').first().check();
      await addProduct(page, product!.name);
      await page.getByRole('button', { name: 'Crear pedido' }).click();
      await expect(
        page.getByText('No pudimos conectarnos. Revisa tu conexión e intenta de nuevo.').first(),
      ).toBeVisible();
      await expect(page).toHaveURL(/\/dashboard\/orders\/create$/);
      await page.getByRole('button', { name: 'Crear pedido' }).click();
      await expect(page.getByText(/^Pedido #\d+ creado$/)).toBeVisible();
      createdId = new URL(page.url()).searchParams.get('order');
      expect(keys).toHaveLength(2);
      expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
      expect(keys[1]).toBe(keys[0]);
      expect(await api.count(`orders?search=${encodeURIComponent(name)}`)).toBe(1);
    } finally {
      if (createdId)
        await api.call('PATCH', `orders/${createdId}`, { status: 'cancelled', cancelReason: 'Prueba E2E' });
      await api.dispose();
    }
  });
});

import type { APIRequestContext, Browser } from '@playwright/test';
import type { DeliveryDay } from '@hornada/domain/delivery';
import type { Order } from '@hornada/domain/schemas/orders';
import { expect, test } from './fixtures';
import { pageShot } from './support/admin-api';
import { bogotaDay } from './support/clock';
import { newBakery, type NewBakery } from './support/new-bakery';
import {
  accountButton,
  clickSignOut,
  expectNoSeriousAxeViolations,
  shot,
  signIn,
  signInByApi,
} from './support/session';

/**
 * Delivery, at a bakery of the journey's own that delivers every day (so the journey holds on a Sunday
 * too, and no other journey's orders join its routes): the office assigns three of today's orders to its
 * driver and orders the route nearest-neighbour from the bakery; the driver's phone (375 px) shows them in
 * that order; the driver taps "Entregado" without signal, sees "Pendiente de enviar", and the office's open
 * page shows the order delivered once the phone is back online. The run sheet's print preview, the
 * summary, the manifest and the service worker, and axe on each page.
 */

const DRIVER_NAME = 'Wilson Cárdenas';

/** Today in Bogotá, as the app sees it. */
const today = () => bogotaDay();

/** The bakery (Teusaquillo): from there nearest neighbour goes near → middle → far. */
const BAKERY_AT = { lat: 4.6278, lng: -74.0712 };
/** The orders are made in another order than the route's, so the route is the server's doing. */
const POINTS = {
  far: { lat: 4.6705, lng: -74.0551 },
  near: { lat: 4.6301, lng: -74.0699 },
  middle: { lat: 4.6458, lng: -74.0613 },
};

/** A bakery that delivers every day from Teusaquillo, with one product and a driver named DRIVER_NAME. */
async function deliveringBakery(request: APIRequestContext, name: string) {
  const bakery = await newBakery(request, name);
  await bakery.bakesEveryDay();
  await bakery.call('PATCH', 'settings', { address: 'Calle 39 # 17-26, Teusaquillo, Bogotá', location: BAKERY_AT });
  const product = (await bakery.call<{ id: string }>('POST', 'products', { name: 'Pan de bono', price: 2500 })).id;
  const driver = await bakery.user('delivery_assistant', DRIVER_NAME);
  return { bakery, product, driver };
}

/** A delivery order due today at a point, made by the office and walked to ready (given to `driverId`, if any). */
async function readyOrder(
  bakery: NewBakery,
  product: string,
  name: string,
  point: { lat: number; lng: number },
  driverId: string | null = null,
): Promise<{ id: string; number: number }> {
  const order = await bakery.call<{ id: string; number: number }>('POST', 'orders', {
    contact: { name: `Cliente ${name}`, phone: '300 555 0101' },
    items: [{ productId: product, quantity: 10 }],
    fulfillment: 'delivery',
    address: { line: `Calle de prueba ${name}`, city: 'Bogotá', ...point },
    dueDate: today(),
    paymentMethod: 'cash',
    deliveryAssistantId: driverId,
  });
  for (const status of ['confirmed', 'in_production', 'ready']) {
    await bakery.call('PATCH', `orders/${order.id}`, { status });
  }
  return order;
}

/** A phone (375 px) of its own, collecting its console errors but those of being offline on purpose. */
async function newPhone(browser: Browser) {
  const phone = await browser.newContext({
    viewport: { width: 375, height: 800 },
    locale: 'es-CO',
    timezoneId: 'America/Bogota',
  });
  const page = await phone.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    // Offline reads fail, and the move of an order taken back is a 404 (the conflict).
    if (m.type() === 'error' && !/ERR_INTERNET_DISCONNECTED|Failed to fetch|net::ERR|status of 404/.test(m.text()))
      errors.push(`${m.text()} ${m.location().url}`);
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return { phone, page, errors };
}

test('the office routes three orders, the driver delivers one offline, the office sees it', async ({
  page,
  browser,
  request,
  expectConsoleErrors,
}) => {
  test.setTimeout(120_000);
  // The driver's phone goes offline on purpose: its live stream and reads fail while it is.
  expectConsoleErrors('ERR_INTERNET_DISCONNECTED');
  const { bakery, product, driver: driverUser } = await deliveringBakery(request, 'Horno de la Ruta');
  const date = today();
  const numbers: Record<keyof typeof POINTS, number> = { far: 0, near: 0, middle: 0 };
  for (const name of ['far', 'near', 'middle'] as const) {
    numbers[name] = (await readyOrder(bakery, product, name, POINTS[name])).number;
  }

  async function stopsOf(): Promise<string[]>;
  async function stopsOf(full: true): Promise<DeliveryDay['routes'][number]['stops']>;
  async function stopsOf(full?: true) {
    const day = await bakery.call<DeliveryDay>('GET', `deliveries?date=${date}`);
    const stops = day.routes.find((r) => r.driver?.name === DRIVER_NAME)?.stops ?? [];
    return full ? stops : stops.map((s) => String(s.number));
  }

  // The office: select the three, give them to the driver, order the route.
  await signInByApi(page, bakery.email, bakery.password);
  await expect(accountButton(page, 'Dueña')).toBeVisible();
  await page.goto(`/dashboard/orders/delivery?date=${date}`);
  await expect(page.getByRole('heading', { name: 'Domicilios', level: 1 })).toBeVisible();
  for (const n of Object.values(numbers)) await page.getByLabel(`Seleccionar pedido #${n}`).check();
  await page.getByRole('combobox', { name: 'Asignar a' }).selectOption({ label: DRIVER_NAME });
  await page.getByRole('button', { name: 'Asignar 3 pedidos' }).click();
  const route = page.locator('section', { has: page.getByRole('heading', { name: new RegExp(`^${DRIVER_NAME}`) }) });
  await expect(route.locator('[data-stop]')).toHaveCount(3);
  await route.getByRole('button', { name: `Ordenar ruta de ${DRIVER_NAME}` }).click();
  await expect(page.getByText(`Ruta de ${DRIVER_NAME} ordenada.`)).toBeVisible();
  // Nearest neighbour from the bakery: near, then middle, then far.
  const expected = await stopsOf();
  expect(expected).toEqual([numbers.near, numbers.middle, numbers.far].map(String));
  const shown = () => route.locator('[data-stop]').evaluateAll((els) => els.map((e) => e.getAttribute('data-stop')));
  await expect.poll(shown).toEqual(expected);
  // Reordered by hand: dragged, then back with the keyboard's button.
  await route.locator(`[data-stop="${expected[1]}"]`).dragTo(route.locator(`[data-stop="${expected[0]}"]`));
  const dragged = [expected[1], expected[0], ...expected.slice(2)];
  await expect.poll(shown).toEqual(dragged);
  await route.getByRole('button', { name: `Subir el pedido #${expected[0]}` }).click();
  await expect.poll(shown).toEqual(expected);
  expect(await stopsOf()).toEqual(expected);
  await expect(route.getByRole('link', { name: `Google Maps para el pedido #${numbers.near}` })).toHaveAttribute(
    'href',
    /query=4\.6301%2C-74\.0699/,
  );
  await pageShot(page, 375, 'delivery-office-375.png');
  await expectNoSeriousAxeViolations(page, 'domicilios');

  // The run sheet, as it prints.
  await route.getByRole('button', { name: 'Hoja de ruta' }).click();
  const sheet = page.getByRole('dialog', { name: `Hoja de ruta de ${DRIVER_NAME}` });
  await expect(sheet).toContainText('Hoja de ruta');
  await expect(sheet).toContainText(`1. #${numbers.near}`);
  await expect(sheet).toContainText('en efectivo');
  await expectNoSeriousAxeViolations(page, 'hoja de ruta');
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('heading', { name: 'Domicilios', level: 1 })).toBeHidden();
  await page.screenshot({ path: shot('delivery-run-sheet-print.png'), fullPage: true });
  await page.emulateMedia({ media: 'screen' });
  await sheet.getByRole('button', { name: 'Cerrar' }).click();

  // The driver's phone: the same order, big cards.
  const { phone, page: driver, errors: driverErrors } = await newPhone(browser);
  await signInByApi(driver, driverUser.email, driverUser.password);
  await expect(driver).toHaveURL(/\/driver\/orders/);
  await expect(driver.getByRole('heading', { name: 'Mi ruta de hoy', level: 1 })).toBeVisible();
  await expect
    .poll(() => driver.locator('[data-stop]').evaluateAll((els) => els.map((e) => e.getAttribute('data-stop'))))
    .toEqual(expected);
  // The manifest and the service worker of the installable app.
  const manifestHref = await driver.locator('link[rel="manifest"]').getAttribute('href');
  expect(manifestHref).toBe('/driver.webmanifest');
  const manifest = (await (await request.get(manifestHref!)).json()) as {
    start_url: string;
    display: string;
    icons: { sizes: string }[];
  };
  expect(manifest).toMatchObject({ start_url: '/driver/orders', display: 'standalone' });
  expect(manifest.icons.map((i) => i.sizes)).toEqual(['192x192', '512x512']);
  // The page registered the service worker of /driver/: poll until it is active.
  const activeScope = () =>
    driver.evaluate(async () => {
      const r = await navigator.serviceWorker.getRegistration('/driver/orders');
      return r?.active ? r.scope : null;
    });
  await expect.poll(activeScope, { timeout: 10_000 }).toMatch(/\/driver\/$/);
  // …and, once it has kept what this page loaded, says the phone may reopen it without signal.
  await expect(driver.locator('html')).toHaveAttribute('data-offline-ready', 'true', { timeout: 15_000 });
  const card = driver.locator(`[data-stop="${numbers.near}"]`);
  const target = await card.getByRole('button', { name: 'En camino' }).boundingBox();
  expect(target!.height).toBeGreaterThanOrEqual(44);
  await card.getByRole('button', { name: 'En camino' }).click();
  await expect(card.getByRole('button', { name: 'Entregado' })).toBeVisible();
  await expect(card.getByText('Pendiente de enviar')).toBeHidden();
  await expect(card.getByLabel('Efectivo recibido')).not.toHaveValue('0');
  await driver.screenshot({ path: shot('delivery-driver-375.png'), fullPage: true });
  await expectNoSeriousAxeViolations(driver, 'mi ruta');

  // Without signal: kept on the phone.
  await phone.setOffline(true);
  await card.getByRole('button', { name: 'Entregado' }).click();
  await expect(card.getByText('Pendiente de enviar')).toBeVisible();
  // Still without signal, the phone reopens the page: the service worker gives the shell and today's
  // route, and the move is still kept on the phone.
  await driver.reload();
  await expect(driver.getByRole('heading', { name: 'Mi ruta de hoy', level: 1 })).toBeVisible();
  await expect(card.getByText('Pendiente de enviar')).toBeVisible();
  await driver.screenshot({ path: shot('delivery-driver-offline-375.png'), fullPage: true });
  await expectNoSeriousAxeViolations(driver, 'mi ruta sin conexión, con una acción pendiente');
  const office = route.locator(`[data-stop="${numbers.near}"]`);
  await expect(office).toContainText('En camino');
  await phone.setOffline(false);
  await expect(card.getByText('Pendiente de enviar')).toBeHidden({ timeout: 10_000 });
  // The office's open page, live.
  await expect(office).toContainText('Entregado', { timeout: 5_000 });
  await expect(office).toContainText('Recibido');
  await expectNoSeriousAxeViolations(page, 'domicilios con un pedido entregado');

  // A conflict: without signal the driver sets off with another stop, which the office meanwhile takes
  // back; once online the phone says so in plain Spanish instead of dropping the move.
  const other = driver.locator(`[data-stop="${numbers.middle}"]`);
  await phone.setOffline(true);
  await other.getByRole('button', { name: 'En camino' }).click();
  await expect(other.getByText('Pendiente de enviar')).toBeVisible();
  const middle = (await stopsOf(true)).find((s) => s.number === numbers.middle)!;
  await bakery.call('PATCH', `orders/${middle.id}`, { deliveryAssistantId: null });
  await phone.setOffline(false);
  await expect(driver.getByRole('alert')).toContainText(
    `No se pudo marcar en camino el pedido #${numbers.middle}: ya no está asignado a ti. Llama a la panadería.`,
  );
  // The stop taken back leaves the phone's route.
  await expect(other).toHaveCount(0);
  await driver.screenshot({ path: shot('delivery-driver-conflict-375.png'), fullPage: true });
  await expectNoSeriousAxeViolations(driver, 'mi ruta con un conflicto');
  await driver.getByRole('button', { name: 'Entendido' }).click();
  await expect(driver.getByRole('alert')).toBeHidden();

  // "No recibió": nobody opens at the far stop. Without signal the driver sends it back with the reason;
  // once online, the office's open page shows it flagged, to reassign.
  const far = driver.locator(`[data-stop="${numbers.far}"]`);
  await far.getByRole('button', { name: 'En camino' }).click();
  await expect(far.getByRole('button', { name: 'Entregado' })).toBeVisible();
  // Sent: its «Pendiente de enviar» line goes, and the card with it moves under the finger.
  await expect(far.getByText('Pendiente de enviar')).toBeHidden();
  await far.getByRole('button', { name: 'No recibió' }).click();
  const back = far.getByRole('button', { name: 'Devolver a la panadería' });
  await back.click();
  await expect(far.getByRole('alert')).toHaveText('Elige por qué no se entregó.');
  await far.getByRole('radio', { name: 'Otro' }).check();
  await back.click();
  await expect(far.getByRole('alert')).toHaveText('Cuenta qué pasó (hasta 200 caracteres).');
  await far.getByLabel('¿Qué pasó?').fill('Portería cerrada, nadie contesta');
  await expect(far.getByText('32 de 200 caracteres')).toBeVisible();
  await expectNoSeriousAxeViolations(driver, 'no recibió');
  await driver.screenshot({ path: shot('delivery-driver-not-received-375.png'), fullPage: true });
  await phone.setOffline(true);
  await back.click();
  const returned = 'No recibió: Otro: Portería cerrada, nadie contesta';
  await expect(far).toContainText(returned);
  await expect(far.getByText('Pendiente de enviar')).toBeVisible();
  await phone.setOffline(false);
  await expect(far.getByText('Pendiente de enviar')).toBeHidden({ timeout: 10_000 });
  // Back at the office, still the driver's: it may set off again once the customer answers.
  await expect(far).toContainText(returned);
  await expect(far.getByRole('button', { name: 'En camino' })).toBeVisible();
  const farRow = route.locator(`[data-stop="${numbers.far}"]`);
  await expect(farRow).toContainText(returned, { timeout: 5_000 });
  await expect(farRow).toHaveAttribute('data-returned', 'true');
  await expect(farRow).toContainText('Listo');
  await expect(page.getByRole('heading', { name: '1 pedido volvió sin entregar' })).toBeVisible();
  await page.getByRole('button', { name: 'Seleccionarlos para reasignar' }).click();
  await expect(page.getByLabel(`Seleccionar pedido #${numbers.far}`)).toBeChecked();
  await expect(page.getByRole('button', { name: 'Asignar 1 pedido' })).toBeEnabled();
  // Read at once, as the selection enables "Asignar", at both widths (a serious contrast failure was seen here).
  await expectNoSeriousAxeViolations(page, 'domicilios con un pedido devuelto', { atTransitionStart: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await expectNoSeriousAxeViolations(page, 'domicilios con un pedido devuelto, 375 px');
  await pageShot(page, 375, 'delivery-office-returned-375.png');
  const farOrder = (await stopsOf(true)).find((s) => s.number === numbers.far)!;
  const { history } = await bakery.call<Order>('GET', `orders/${farOrder.id}`);
  expect(history.filter((h) => h.field === 'notReceived').map((h) => h.to)).toEqual([
    { reason: 'other', details: 'Portería cerrada, nadie contesta' },
  ]);

  // The summary: the cash collected by the driver.
  const day = await bakery.call<DeliveryDay>('GET', `deliveries?date=${date}`);
  const mine = day.routes.find((r) => r.driver?.name === DRIVER_NAME)!;
  expect(mine.totals.delivered).toBe(1);
  await page.goto(`/dashboard/orders/delivery/summary?date=${date}`);
  const row = page.getByRole('row', { name: new RegExp(DRIVER_NAME) });
  await expect(row).toContainText(`$${mine.totals.cashCollected.toLocaleString('en-US')}`);
  await pageShot(page, 375, 'delivery-summary-375.png');
  await expectNoSeriousAxeViolations(page, 'resumen de domicilios');

  await driver.goto('/driver/summary');
  await expect(driver.getByRole('heading', { name: 'Resumen del día', level: 1 })).toBeVisible();
  await expect(driver.getByText('Entregados')).toBeVisible();
  await driver.screenshot({ path: shot('delivery-driver-summary-375.png'), fullPage: true });
  await expectNoSeriousAxeViolations(driver, 'resumen del repartidor');
  expect(driverErrors).toEqual([]);
  await phone.close();
});

test('two drivers on one phone: each one’s kept route and moves are theirs alone; sign-out warns and forgets', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const { bakery, product, driver: first } = await deliveringBakery(request, 'Horno del Teléfono');
  // A second driver of the bakery, who shares the phone.
  const second = await bakery.user('delivery_assistant', 'Sofía Rincón');
  // A person's id on the phone is their uid (the user's id, as the session gives it).
  const firstUid = first.id;
  const secondUid = second.id;
  const order = await readyOrder(bakery, product, 'compartido', POINTS.middle, first.id);
  const status = async () => (await bakery.call<Order>('GET', `orders/${order.id}`)).status;

  const { phone, page, errors } = await newPhone(browser);
  /** The phone's IndexedDB: the drivers' databases, and how many records one of them keeps in a store. */
  const databases = () =>
    page.evaluate(async () =>
      (await indexedDB.databases())
        .map((d) => d.name ?? '')
        .filter((n) => n.startsWith('hornada-driver'))
        .sort(),
    );
  const kept = (uid: string, store: 'actions' | 'routes') =>
    page.evaluate(
      ([name, storeName]) =>
        new Promise<number>((resolve, reject) => {
          const open = indexedDB.open(name);
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const db = open.result;
            const count = db.transaction(storeName, 'readonly').objectStore(storeName).count();
            count.onsuccess = () => {
              db.close();
              resolve(count.result);
            };
            count.onerror = () => reject(count.error);
          };
        }),
      [`hornada-driver:${uid}`, store] as const,
    );
  const signOut = (firstName: string) => clickSignOut(page, firstName);
  /** Signed out and sent home (the home page may fail to load without signal: the session is what counts). */
  const signedOut = async () => {
    await expect(page).toHaveURL(/^https?:\/\/[^/]+\/$/);
    await expect.poll(() => page.evaluate(() => localStorage.getItem('auth-email'))).toBeNull();
  };

  // The first driver's route is kept on the phone under their own id.
  await signIn(page, first.email, first.password);
  await expect(page).toHaveURL(/\/driver\/orders/);
  const card = page.locator(`[data-stop="${order.number}"]`);
  await expect(card).toBeVisible();
  await expect.poll(() => kept(firstUid, 'routes')).toBe(1);

  /** The status of order `number` in the route `uid` keeps on the phone (null: not kept). */
  const keptStatus = (uid: string, number: number) =>
    page.evaluate(
      ([name, wanted]) =>
        new Promise<string | null>((resolve, reject) => {
          const open = indexedDB.open(name);
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const db = open.result;
            const all = db.transaction('routes', 'readonly').objectStore('routes').getAll();
            all.onsuccess = () => {
              db.close();
              // Whatever the day's shape: the object that carries this number and a status.
              const find = (v: unknown): string | null => {
                if (!v || typeof v !== 'object') return null;
                const o = v as Record<string, unknown>;
                if (o.number === wanted && typeof o.status === 'string') return o.status;
                for (const child of Object.values(o)) {
                  const found = find(child);
                  if (found) return found;
                }
                return null;
              };
              resolve(find(all.result));
            };
            all.onerror = () => reject(all.error);
          };
        }),
      [`hornada-driver:${uid}`, number] as const,
    );

  // Without signal they set off; signing out asks about the move not sent.
  await phone.setOffline(true);
  await card.getByRole('button', { name: 'En camino' }).click();
  await expect(card.getByText('Pendiente de enviar')).toBeVisible();
  await signOut('Wilson');
  const warning = page.getByRole('dialog', { name: 'Tienes 1 acción pendiente de enviar' });
  await expect(warning).toBeVisible();
  await expect(warning).toContainText('otra persona que entre no la ve');
  await expectNoSeriousAxeViolations(page, 'aviso de acciones pendientes');
  await page.screenshot({ path: shot('delivery-driver-sign-out-pending-375.png') });
  // Staying is a choice: still signed in, the move still kept.
  await warning.getByRole('button', { name: 'Seguir conectado para enviarla' }).click();
  await expect(warning).toBeHidden();
  await expect(accountButton(page, 'Wilson')).toBeVisible();
  await expect(card.getByText('Pendiente de enviar')).toBeVisible();
  // Signing out keeping it: the route leaves the phone, the move stays for this driver only.
  await signOut('Wilson');
  await warning.getByRole('button', { name: 'Cerrar sesión y guardarla' }).click();
  await signedOut();
  await expect.poll(() => kept(firstUid, 'routes')).toBe(0);
  expect(await kept(firstUid, 'actions')).toBe(1);
  await phone.setOffline(false);

  // The second driver on the same phone: none of the first one's stops, moves or conflicts, and nothing of
  // theirs is sent with this session.
  await signIn(page, second.email, second.password);
  await expect(page).toHaveURL(/\/driver\/orders/);
  await expect(page.getByText('Hoy no tienes domicilios asignados.')).toBeVisible();
  await expect(page.getByText('Pendiente de enviar')).toHaveCount(0);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.locator('[data-stop]')).toHaveCount(0);
  await expect.poll(databases).toEqual([`hornada-driver:${firstUid}`, `hornada-driver:${secondUid}`].sort());
  expect(await kept(secondUid, 'actions')).toBe(0);
  expect(await kept(firstUid, 'actions')).toBe(1);
  expect(await status()).toBe('ready');
  await expectNoSeriousAxeViolations(page, 'mi ruta de otra repartidora');
  // Nothing pending for her: signing out asks nothing.
  await signOut('Sofía');
  await signedOut();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // The first driver back: their kept move goes out now, with their own session.
  await signIn(page, first.email, first.password);
  await expect(page).toHaveURL(/\/driver\/orders/);
  await expect.poll(status, { timeout: 10_000 }).toBe('out_for_delivery');
  await expect(card.getByText('Pendiente de enviar')).toBeHidden();
  expect(await kept(firstUid, 'actions')).toBe(0);

  // Discarding: the move never leaves the phone, and nothing of theirs stays on it. The route read after the
  // move was sent must be the one kept before the signal goes (offline, the phone shows what it kept).
  await expect(card.getByRole('button', { name: 'Entregado' })).toBeVisible();
  await expect.poll(() => keptStatus(firstUid, order.number)).toBe('out_for_delivery');
  await phone.setOffline(true);
  await card.getByRole('button', { name: 'Entregado' }).click();
  await expect(card.getByText('Pendiente de enviar')).toBeVisible();
  await signOut('Wilson');
  await warning.getByRole('button', { name: 'Cerrar sesión y descartarla' }).click();
  await signedOut();
  await expect.poll(databases).toEqual([`hornada-driver:${secondUid}`]);
  await phone.setOffline(false);
  expect(await status()).toBe('out_for_delivery');
  expect(errors).toEqual([]);
  await phone.close();
});

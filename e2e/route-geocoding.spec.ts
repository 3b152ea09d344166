import { expect, test } from './fixtures';
import { shotsAtBothWidths } from './support/admin-api';
import { dayFromToday, newBakery } from './support/new-bakery';
import { expectNoSeriousAxeViolations, signInByApi } from './support/session';

/**
 * "Ordenar ruta" at a new bakery: its shoppers' addresses are placed on the map by the geocoder
 * (the app's local stand-in here, as the payment sandbox stands in for the gateway), the route says how many
 * stops it could not place, the office pins the one it could not find, and the next route puts it in its place.
 */

const DRIVER = 'Diana Ruta';
/** The bakery, in Teusaquillo. */
const BAKERY = { lat: 4.6278, lng: -74.0712 };

test('the route places its stops, says which it could not, and staff pin that one', async ({
  page,
  playwright,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const api = await playwright.request.newContext({ baseURL });
  const bakery = await newBakery(api, 'Panadería La Ruta');
  await bakery.bakesEveryDay();
  await bakery.call('PATCH', 'settings', { location: BAKERY });
  const driver = await bakery.user('delivery_assistant', DRIVER);
  const product = await bakery.call<{ id: string }>('POST', 'products', { name: 'Pan de bono', price: 2500 });
  const settings = await bakery.call<{ deliveryWindows: { id: string }[] }>('GET', 'settings');
  const today = dayFromToday(0);
  const order = (name: string, line: string) =>
    bakery.call<{ id: string; number: number }>('POST', 'orders', {
      contact: { name, phone: '300 555 0177' },
      items: [{ productId: product.id, quantity: 6 }],
      fulfillment: 'delivery',
      // Typed as people type them: the geocoder reads "Cra." and "#60-12" as the stand-in's "Carrera 7 # 60-12".
      address: { line, neighborhood: null, city: 'Bogotá' },
      dueDate: today,
      window: settings.deliveryWindows[0]?.id ?? null,
      paymentMethod: 'cash',
      deliveryAssistantId: driver.id,
    });
  // Made far, then the place nobody knows, then near: the route's order is the server's doing.
  const far = await order('Lucía Lejos', 'Calle 85 # 11-40');
  const lost = await order('Pedro Perdido', 'Vereda La Esperanza, finca El Roble');
  const near = await order('Carmen Cerca', 'Cra. 7 #60-12');

  await signInByApi(page, bakery.email, bakery.password);
  await page.goto(`/dashboard/orders/delivery?date=${today}`);
  await expect(page.getByRole('heading', { name: 'Domicilios', level: 1 })).toBeVisible();
  const route = page.locator('section', { has: page.getByRole('heading', { name: new RegExp(`^${DRIVER}`) }) });
  await expect(route.locator('[data-stop]')).toHaveCount(3);
  await route.getByRole('button', { name: `Ordenar ruta de ${DRIVER}` }).click();
  await expect(page.getByText(`Ruta de ${DRIVER} ordenada. 1 parada sin ubicación quedó al final.`)).toBeVisible();
  const shown = () => route.locator('[data-stop]').evaluateAll((els) => els.map((e) => e.getAttribute('data-stop')));
  await expect.poll(shown).toEqual([near, far, lost].map((o) => String(o.number)));
  await shotsAtBothWidths(page, 'route-geocoding-unplaced');
  await expectNoSeriousAxeViolations(page, 'domicilios con una parada sin ubicación');

  // The office looks at the stop it could not place, and pins it from the map app's coordinates.
  await page.goto(`/dashboard/orders?order=${lost.id}`);
  const detail = page.getByRole('dialog', { name: `Pedido #${lost.number}` });
  await expect(detail.getByText('Sin ubicación: no encontramos esta dirección en el mapa')).toBeVisible();
  await detail.getByRole('button', { name: 'Fijar ubicación' }).click();
  const pin = detail.getByLabel('Ubicación en el mapa (latitud, longitud)');
  await pin.fill('por la vía a La Calera');
  await detail.getByRole('button', { name: 'Guardar ubicación' }).click();
  await expect(detail.getByRole('alert')).toContainText('Escribe la ubicación como latitud, longitud');
  await expectNoSeriousAxeViolations(page, 'fijar la ubicación de un pedido');
  await pin.fill('4.6301, -74.0699');
  await detail.getByRole('button', { name: 'Guardar ubicación' }).click();
  await expect(page.getByText(`Ubicación del pedido #${lost.number} guardada.`)).toBeVisible();
  await expect(detail.getByText('Ubicación fijada a mano')).toBeVisible();
  await expect(detail.getByText('4.630100, -74.069900')).toBeVisible();
  await shotsAtBothWidths(page, 'route-geocoding-pinned');

  // The geocoder's own find reads as such.
  await page.goto(`/dashboard/orders?order=${near.id}`);
  await expect(
    page.getByRole('dialog', { name: `Pedido #${near.number}` }).getByText('Ubicada por dirección'),
  ).toBeVisible();

  // Ordered again: the pinned stop, the nearest to the bakery, goes first; nothing is left unplaced.
  await page.goto(`/dashboard/orders/delivery?date=${today}`);
  await route.getByRole('button', { name: `Ordenar ruta de ${DRIVER}` }).click();
  await expect(page.getByText(`Ruta de ${DRIVER} ordenada.`, { exact: true })).toBeVisible();
  await expect.poll(shown).toEqual([lost, near, far].map((o) => String(o.number)));
  await expectNoSeriousAxeViolations(page, 'domicilios con todas las paradas ubicadas');
});

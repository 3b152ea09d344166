import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatMoney } from '@hornada/domain/format';
import { Settings } from '@hornada/domain/schemas/settings';
import { ApiError } from '../../lib/api/http';
import { toastStore } from '../../lib/toast-store';
import { orderEntryApi, type Order, type Product } from './api';
import type { EntryData } from './entry-data';
import { EntryScreen } from './entry-screen';

/** Staff order entry as staff meet it: what it asks for, the prices it shows, what it sends, what it says back. */

const product = (id: string, name: string, price: number) =>
  ({ id, name, price, active: true, b2bPrice: null }) as unknown as Product;

const data: EntryData = {
  settings: Settings.parse({
    companyId: 'la-espiga',
    updatedAt: '2026-11-28T12:00:00.000Z',
    marketName: 'Panadería La Espiga',
    timeZone: 'America/Bogota',
    pickupEnabled: true,
    deliveryFee: 4000,
    paymentMethods: ['cash', 'transfer'],
    deliveryWindows: [{ id: 'tarde', label: 'Tarde', start: '14:00', end: '18:00', capacity: null }],
  }),
  products: [product('p1', 'Pan de bono', 2500), product('p2', 'Torta negra', 65000)],
  clients: [],
  days: [
    {
      date: '2026-11-30',
      windows: [
        { id: 'tarde', label: 'Tarde (14:00 a 18:00)', capacity: null, remaining: null, late: false, full: false },
      ],
    },
  ],
  today: '2026-11-29',
};

function renderEntry() {
  const router = createMemoryRouter(
    [
      { path: '/dashboard/orders/create', element: <EntryScreen companyId="la-espiga" data={data} /> },
      { path: '/dashboard/orders', element: <h1>Pedidos</h1> },
    ],
    { initialEntries: ['/dashboard/orders/create'] },
  );
  render(<RouterProvider router={router} />);
  return { router, user: userEvent.setup() };
}

const line = (name: string) =>
  within(screen.getByRole('list', { name: 'Productos del pedido' }))
    .getAllByRole('listitem')
    .find((li) => li.textContent?.includes(name))!;

async function addProduct(user: ReturnType<typeof userEvent.setup>, name: string) {
  await user.type(screen.getByLabelText('Buscar producto'), name);
  await user.click(screen.getByRole('button', { name: `Agregar ${name}` }));
  await user.clear(screen.getByLabelText('Buscar producto'));
}

async function walkIn(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('radio', { name: /Sin cuenta/ }));
  await user.type(screen.getByLabelText('Nombre de contacto'), 'Pedro Gómez');
  await user.type(screen.getByRole('textbox', { name: 'Teléfono' }), '311 555 0102');
  await user.click(screen.getByRole('radio', { name: 'Recoge en la panadería' }));
  await user.click(within(screen.getByRole('group', { name: 'Horario' })).getByRole('radio'));
}

afterEach(() => {
  vi.restoreAllMocks();
  toastStore.setState({ toasts: [] });
});

describe('order entry', () => {
  it('says in Spanish what an order lacks, and checks each quantity', async () => {
    const create = vi.spyOn(orderEntryApi, 'create');
    const { user } = renderEntry();
    await user.click(screen.getByRole('button', { name: 'Crear pedido' }));
    expect(await screen.findByText('Busca y elige un cliente.')).toBeTruthy();
    expect(screen.getByText('Agrega al menos un producto.')).toBeTruthy();
    expect(screen.getByText('Escribe el nombre de contacto.')).toBeTruthy();
    await addProduct(user, 'Pan de bono');
    const quantity = within(line('Pan de bono')).getByRole('textbox', { name: 'Cantidad de Pan de bono' });
    await user.clear(quantity);
    await user.type(quantity, '0');
    expect(await within(line('Pan de bono')).findByText('Escribe una cantidad entera entre 1 y 1000.')).toBeTruthy();
    expect(create).not.toHaveBeenCalled();
  });

  it('prices the lines from the catalogue and adds the fee for a delivery only', async () => {
    const { user } = renderEntry();
    await addProduct(user, 'Pan de bono');
    await addProduct(user, 'Torta negra');
    await user.click(within(line('Pan de bono')).getByRole('button', { name: 'Agregar uno de Pan de bono' }));
    expect(line('Pan de bono').textContent).toContain(`${formatMoney(2500)} c/u`);
    expect(screen.getByTestId('entry-total').textContent).toBe(formatMoney(2 * 2500 + 65000 + 4000));
    await user.click(screen.getByRole('radio', { name: 'Recoge en la panadería' }));
    expect(screen.getByTestId('entry-total').textContent).toBe(formatMoney(2 * 2500 + 65000));
  });

  it('sends one walk-in order with its key, says so and opens it on the orders screen', async () => {
    const create = vi.spyOn(orderEntryApi, 'create').mockResolvedValue({ id: 'o-9', number: 1042 } as unknown as Order);
    const { user, router } = renderEntry();
    await walkIn(user);
    await addProduct(user, 'Torta negra');
    await user.click(screen.getByRole('button', { name: 'Crear pedido' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/orders'));
    expect(router.state.location.search).toBe('?order=o-9');
    expect(create).toHaveBeenCalledTimes(1);
    const [companyId, body, key] = create.mock.calls[0]!;
    expect(companyId).toBe('la-espiga');
    expect(key).toMatch(/\S{8,}/);
    expect(body).toMatchObject({
      customerId: null,
      b2bClientId: null,
      contact: { name: 'Pedro Gómez', phone: '311 555 0102' },
      items: [{ productId: 'p2', quantity: 1 }],
      fulfillment: 'pickup',
      dueDate: '2026-11-30',
      window: 'tarde',
      paymentMethod: 'cash',
    });
    expect(toastStore.getState().toasts.map((t) => t.message)).toContain('Pedido #1042 creado');
  });

  it('puts the server’s refusal of a product under its line, and a retry keeps the same key', async () => {
    const create = vi
      .spyOn(orderEntryApi, 'create')
      .mockRejectedValueOnce(
        new ApiError(
          'Product unavailable',
          422,
          'orders/product-unavailable',
          'Un producto de tu pedido ya no está disponible.',
          {
            details: [{ path: 'items.0.productId', message: 'Product is not available' }],
          },
        ),
      )
      .mockResolvedValueOnce({ id: 'o-10', number: 1043 } as unknown as Order);
    const { user, router } = renderEntry();
    await walkIn(user);
    await addProduct(user, 'Pan de bono');
    await user.click(screen.getByRole('button', { name: 'Crear pedido' }));
    expect(
      await within(line('Pan de bono')).findByText('Un producto de tu pedido ya no está disponible.'),
    ).toBeTruthy();
    expect(router.state.location.pathname).toBe('/dashboard/orders/create');
    await user.click(screen.getByRole('button', { name: 'Crear pedido' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/orders'));
    expect(create.mock.calls[1]![2]).toBe(create.mock.calls[0]![2]);
  });

  it('asks before leaving an order with lines', async () => {
    const { user, router } = renderEntry();
    await addProduct(user, 'Pan de bono');
    await router.navigate('/dashboard/orders');
    expect(await screen.findByRole('alertdialog', { name: '¿Salir sin guardar?' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Seguir editando' }));
    expect(router.state.location.pathname).toBe('/dashboard/orders/create');
  });
});

import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Cart } from '@hornada/domain/schemas/carts';
import type { CheckoutBody, OfferedDay } from '@hornada/domain/schemas/orders';
import { authStore } from '../../lib/auth/auth-store';
import { ApiError } from '../../lib/api/http';
import { checkoutApi, type CheckoutLoaderData } from './checkout-api';
import { CheckoutForm } from './checkout-form';

/** The checkout form as a shopper meets it: what it asks for, what it sends, and what it says back. */

const cart: Cart = {
  id: 'cart-1',
  companyId: 'la-espiga',
  customerId: null,
  createdAt: '2026-11-28T12:00:00.000Z',
  updatedAt: '2026-11-28T12:00:00.000Z',
  items: [
    {
      productId: 'p1',
      quantity: 2,
      name: 'Pan de bono',
      unitPrice: 2500,
      lineTotal: 5000,
      image: null,
      available: true,
    },
  ],
  contact: null,
  fulfillment: 'delivery',
  address: null,
  dueDate: null,
  window: null,
  notes: null,
  subtotal: 5000,
  deliveryFee: 4000,
  total: 9000,
  minimumOrder: 0,
  missingForMinimum: 0,
};

const days: OfferedDay[] = [
  {
    date: '2026-11-30',
    dueDate: '2026-11-30T05:00:00.000Z',
    windows: [
      { id: 'manana', label: 'Mañana', start: '08:00', end: '11:00', capacity: 25, remaining: 0 },
      { id: 'tarde', label: 'Tarde', start: '14:00', end: '18:00', capacity: 25, remaining: 2 },
    ],
  },
  {
    date: '2026-12-01',
    dueDate: '2026-12-01T05:00:00.000Z',
    windows: [{ id: null, label: 'Todo el día', start: '00:00', end: '23:59', capacity: null, remaining: null }],
  },
];

const settings: CheckoutLoaderData = {
  marketName: 'Panadería La Espiga',
  companyId: 'la-espiga',
  logo: null,
  timeZone: 'America/Bogota',
  pickupEnabled: true,
  paymentMethods: ['cash', 'transfer'],
  transferInstructions: null,
  whatsapp: null,
  windows: [],
  address: 'Calle 39 # 17-26, Teusaquillo, Bogotá',
};

const pricing = { deliveryFee: 4000, freeDeliveryFrom: null, minimumOrder: 0 };

function renderForm(overrides: { cart?: Partial<Cart>; days?: OfferedDay[] } = {}) {
  const router = createMemoryRouter(
    [
      {
        path: '/resumen-de-pedido/cart-1',
        element: (
          <CheckoutForm
            cart={{ ...cart, ...overrides.cart }}
            days={overrides.days ?? days}
            pricing={pricing}
            settings={settings}
          />
        ),
      },
      { path: '/respuesta-de-pago', element: <p>Respuesta del pago</p> },
    ],
    { initialEntries: ['/resumen-de-pedido/cart-1'] },
  );
  render(<RouterProvider router={router} />);
  return { user: userEvent.setup(), router };
}

const placed = { accessToken: 'tok-1', payment: null } as unknown as Awaited<ReturnType<typeof checkoutApi.place>>;

afterEach(() => {
  vi.restoreAllMocks();
  authStore.setState({ user: null });
});

async function fillContact(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText('Nombre'), '  Lucía Pérez ');
  await user.type(screen.getByLabelText('Teléfono'), '300 555 0101');
}

describe('the checkout form', () => {
  it('says in Spanish what is missing once a placing is tried, and follows the fields as they change', async () => {
    const place = vi.spyOn(checkoutApi, 'place').mockResolvedValue(placed);
    const { user } = renderForm();
    // Nothing is said before a first try.
    expect(screen.queryByText('Escribe tu nombre.')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Realizar pedido' }));
    expect(await screen.findByText('Escribe tu nombre.')).toBeTruthy();
    expect(screen.getByText('Escribe un teléfono de contacto.')).toBeTruthy();
    expect(screen.getByText('Escribe la dirección de entrega.')).toBeTruthy();
    expect(screen.getByText('Elige un horario.')).toBeTruthy();
    expect(screen.getByLabelText('Nombre').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText('Nombre').getAttribute('aria-describedby')).toBe('name-error');
    expect(place).not.toHaveBeenCalled();

    await user.type(screen.getByLabelText('Nombre'), 'Lucía');
    await waitFor(() => expect(screen.queryByText('Escribe tu nombre.')).toBeNull());
    expect(screen.getByText('Escribe un teléfono de contacto.')).toBeTruthy();
  });

  it('refuses an e-mail that is not one, under its field', async () => {
    const { user } = renderForm();
    await user.type(screen.getByLabelText(/Correo/), 'lucia@');
    await user.click(screen.getByRole('button', { name: 'Realizar pedido' }));
    expect(await screen.findByText('Escribe un correo válido, por ejemplo nombre@correo.com.')).toBeTruthy();
  });

  it('sends one order with the trimmed fields, however often it is clicked, and goes to the payment answer', async () => {
    let finish: (v: typeof placed) => void = () => undefined;
    const place = vi.spyOn(checkoutApi, 'place').mockImplementation(() => new Promise((resolve) => (finish = resolve)));
    const { user, router } = renderForm();
    await fillContact(user);
    await user.type(screen.getByLabelText('Dirección'), 'Carrera 7 # 45-10 ');
    await user.type(screen.getByLabelText(/Barrio/), 'Chapinero');
    const windows = screen.getByRole('radiogroup', { name: 'Horario' });
    // A full window cannot be chosen.
    expect((within(windows).getByRole('radio', { name: /mañana/ }) as HTMLInputElement).disabled).toBe(true);
    await user.click(within(windows).getByRole('radio', { name: /Tarde/ }));
    await user.click(screen.getByRole('radio', { name: /Transferencia/ }));
    const button = screen.getByRole('button', { name: 'Realizar pedido' });
    // Two submits in the same tick (a double tap before the button can turn busy), then a click on it busy.
    fireEvent.submit(button.closest('form')!);
    fireEvent.submit(button.closest('form')!);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Realizando tu pedido…' })).toBeTruthy());
    await user.click(screen.getByRole('button', { name: 'Realizando tu pedido…' }));
    expect(place).toHaveBeenCalledTimes(1);
    const [cartId, key, body] = place.mock.calls[0]!;
    expect(cartId).toBe('cart-1');
    expect(key).toMatch(/\S{8,}/);
    expect(body).toEqual({
      contact: { name: 'Lucía Pérez', phone: '300 555 0101', email: null },
      fulfillment: 'delivery',
      address: { line: 'Carrera 7 # 45-10', neighborhood: 'Chapinero', city: null, notes: null, lat: null, lng: null },
      dueDate: '2026-11-30',
      window: 'tarde',
      paymentMethod: 'transfer',
      notes: null,
      createAccount: false,
      remember: false,
    } satisfies CheckoutBody);
    finish(placed);
    await waitFor(() => expect(router.state.location.pathname).toBe('/respuesta-de-pago'));
    expect(router.state.location.search).toBe('?pedido=tok-1');
  });

  it('for pickup asks no address, sends none, and a day without windows needs none', async () => {
    const place = vi.spyOn(checkoutApi, 'place').mockResolvedValue(placed);
    const { user } = renderForm();
    await fillContact(user);
    await user.click(screen.getByRole('radio', { name: 'Recoger en la panadería' }));
    expect(screen.queryByLabelText('Dirección')).toBeNull();
    expect(screen.getByText('Recoges en: Calle 39 # 17-26, Teusaquillo, Bogotá')).toBeTruthy();
    await user.selectOptions(screen.getByLabelText('Día'), '2026-12-01');
    expect(screen.queryByRole('radiogroup', { name: 'Horario' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Realizar pedido' }));
    await waitFor(() => expect(place).toHaveBeenCalledTimes(1));
    expect(place.mock.calls[0]![2]).toMatchObject({
      fulfillment: 'pickup',
      address: null,
      dueDate: '2026-12-01',
      window: null,
      paymentMethod: 'cash',
    });
  });

  it('says the server’s refusal in Spanish and lets the shopper try again', async () => {
    const place = vi
      .spyOn(checkoutApi, 'place')
      .mockRejectedValueOnce(
        new ApiError('Window full', 409, 'orders/window-full', 'Ese horario se llenó. Elige otro, por favor.'),
      )
      .mockResolvedValueOnce(placed);
    const { user, router } = renderForm();
    await fillContact(user);
    await user.click(screen.getByRole('radio', { name: 'Recoger en la panadería' }));
    await user.click(screen.getByRole('radio', { name: /Tarde/ }));
    await user.click(screen.getByRole('button', { name: 'Realizar pedido' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Ese horario se llenó. Elige otro, por favor.');
    const again = screen.getByRole('button', { name: 'Realizar pedido' }) as HTMLButtonElement;
    expect(again.disabled).toBe(false);
    await user.click(again);
    await waitFor(() => expect(router.state.location.pathname).toBe('/respuesta-de-pago'));
    // The retry is the same attempt: the same idempotency key.
    expect(place.mock.calls[1]![1]).toBe(place.mock.calls[0]![1]);
  });

  it('a guest with an e-mail may ask for an account; a signed-in customer is offered to remember the data', async () => {
    const place = vi.spyOn(checkoutApi, 'place').mockResolvedValue(placed);
    const { user } = renderForm();
    expect(screen.queryByRole('checkbox', { name: /Crear mi cuenta/ })).toBeNull();
    await user.type(screen.getByLabelText(/Correo/), 'lucia@correo.co');
    await user.click(screen.getByRole('checkbox', { name: /Crear mi cuenta/ }));
    expect(screen.queryByRole('checkbox', { name: /Recordar estos datos/ })).toBeNull();
    await fillContact(user);
    await user.click(screen.getByRole('radio', { name: 'Recoger en la panadería' }));
    await user.click(screen.getByRole('radio', { name: /Tarde/ }));
    await user.click(screen.getByRole('button', { name: 'Realizar pedido' }));
    await waitFor(() => expect(place).toHaveBeenCalledTimes(1));
    expect(place.mock.calls[0]![2]).toMatchObject({
      contact: { email: 'lucia@correo.co' },
      createAccount: true,
      remember: false,
    });
  });

  it('fills a signed-in customer’s phone, saved address and last payment method', async () => {
    authStore.setState({
      user: {
        uid: 'u1',
        email: 'ana@correo.co',
        name: 'Ana María',
        role: 'company_customer',
        companyId: 'la-espiga',
        emailVerified: true,
      },
    });
    vi.spyOn(checkoutApi, 'me').mockResolvedValue({
      phone: '300 111 2233',
      addresses: [
        {
          label: null,
          line: 'Calle 45 # 13-20',
          neighborhood: 'Chapinero',
          city: 'Bogotá',
          notes: null,
          lat: 4.63,
          lng: -74.06,
        },
      ],
    });
    vi.spyOn(checkoutApi, 'lastPaymentMethod').mockResolvedValue('transfer');
    renderForm();
    await waitFor(() => expect((screen.getByLabelText('Teléfono') as HTMLInputElement).value).toBe('300 111 2233'));
    expect((screen.getByLabelText('Nombre') as HTMLInputElement).value).toBe('Ana María');
    expect((screen.getByLabelText('Dirección') as HTMLInputElement).value).toBe('Calle 45 # 13-20');
    expect((screen.getByLabelText('Tus direcciones') as HTMLSelectElement).value).toBe('0');
    await waitFor(() =>
      expect((screen.getByRole('radio', { name: /Transferencia/ }) as HTMLInputElement).checked).toBe(true),
    );
    expect((screen.getByRole('checkbox', { name: /Recordar estos datos/ }) as HTMLInputElement).checked).toBe(true);
  });
});

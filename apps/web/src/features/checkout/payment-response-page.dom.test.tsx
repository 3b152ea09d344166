import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { GuestOrder } from '@hornada/domain/schemas/orders';
import type { CheckoutLoaderData } from './checkout-api';
import { Confirmation } from './payment-response-page';

/** An order as its guest link answers it (checked against the contract, so the test cannot drift from it). */
const order = (over: Partial<GuestOrder>) =>
  GuestOrder.parse({
    id: 'o1',
    companyId: 'la-espiga',
    createdAt: '2026-11-28T12:00:00.000Z',
    updatedAt: '2026-11-28T12:00:00.000Z',
    number: 1042,
    channel: 'web',
    contact: { name: 'Lucía Fernández', phone: '3105550101', email: null },
    items: [{ productId: 'p1', name: 'Pan de bono', unitPrice: 2500, quantity: 8, notes: null, lineTotal: 20000 }],
    subtotal: 20000,
    discount: 0,
    deliveryFee: 4000,
    total: 24000,
    fulfillment: 'delivery',
    address: null,
    dueDate: '2026-11-30T05:00:00.000Z',
    window: null,
    status: 'pending',
    paymentStatus: 'unpaid',
    paymentMethod: 'cash',
    completedAt: null,
    cancelReason: null,
    notes: null,
    ...over,
  });

const settings: CheckoutLoaderData = {
  marketName: 'La Espiga',
  companyId: 'la-espiga',
  logo: null,
  timeZone: 'America/Bogota',
  pickupEnabled: false,
  paymentMethods: ['cash'],
  transferInstructions: null,
  whatsapp: null,
  windows: [],
  address: null,
};

function show(o: GuestOrder) {
  const router = createMemoryRouter(
    [{ path: '/respuesta-de-pago', element: <Confirmation order={o} view="offline" token="t" settings={settings} /> }],
    { initialEntries: ['/respuesta-de-pago?pedido=t'] },
  );
  render(<RouterProvider router={router} />);
}

describe('the order its link opens', () => {
  it('thanks the shopper for an order in progress', () => {
    show(order({}));
    expect(screen.getByText('¡Gracias, Lucía! Recibimos tu pedido.')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Pedido #1042');
  });

  it('says plainly that a cancelled order was cancelled, and why, without thanking for it', () => {
    show(order({ status: 'cancelled', cancelReason: 'No tenemos harina para ese día' }));
    expect(screen.getByText('Lucía, este pedido fue cancelado.')).toBeTruthy();
    expect(screen.queryByText(/Gracias/)).toBeNull();
    expect(screen.getByText('Motivo: No tenemos harina para ese día')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toContain('Cancelado');
  });
});

import type { APIRequestContext } from '@playwright/test';
import { expect } from '../fixtures';

/** A product of the market and a day and window with room for `places` more orders, read from the public API. */
export async function productAndSlot(api: APIRequestContext, companyId: string, places: number) {
  const products = (await (await api.get(`/api/companies/${companyId}/products?per_page=1`)).json()) as {
    data: { id: string; price: number }[];
  };
  const days = (
    (await (await api.get(`/api/companies/${companyId}/delivery-days?days=14`)).json()) as {
      data: { date: string; windows: { id: string | null; remaining: number | null }[] }[];
    }
  ).data;
  const roomy = (w: { remaining: number | null }) => w.remaining === null || w.remaining >= places;
  const day = days.find((d) => d.windows.some(roomy))!;
  return { product: products.data[0]!, day: day.date, window: day.windows.find(roomy)!.id };
}

export interface PlacedOrder {
  id: string;
  number: number;
  total: number;
}

/**
 * A web order through the cart and checkout API (as a guest, or as the customer whose token is given): a
 * product of the market, enough of it for the demo's minimum, on the first day and window with room.
 */
export async function placeWebOrder(
  api: APIRequestContext,
  companyId: string,
  order: {
    token?: string;
    contact: { name: string; phone: string; email: string | null };
    address: { line: string; neighborhood: string; city: string; notes: null } | null;
    minimum: number;
  },
): Promise<PlacedOrder> {
  const { product, day, window } = await productAndSlot(api, companyId, 1);
  const session = `web${Date.now()}${Math.random().toString(36).slice(2)}`
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(0, 20)
    .padEnd(20, 'x');
  const holder = { 'x-session-id': session, ...(order.token ? { authorization: `Bearer ${order.token}` } : {}) };
  const quantity = Math.ceil(order.minimum / product.price) + 1;
  const cart = await api.post('/api/carts', {
    headers: holder,
    data: { companyId, items: [{ productId: product.id, quantity }] },
  });
  expect(cart.status(), await cart.text()).toBe(201);
  const cartId = ((await cart.json()) as { data: { id: string } }).data.id;
  const res = await api.post(`/api/carts/${cartId}/checkout`, {
    headers: { ...holder, 'idempotency-key': `web-${session}` },
    data: {
      contact: order.contact,
      fulfillment: order.address ? 'delivery' : 'pickup',
      address: order.address,
      dueDate: day,
      window,
      paymentMethod: 'cash',
      notes: null,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { data: PlacedOrder }).data;
}

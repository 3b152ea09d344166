/**
 * Person names are title-cased on every path the server writes them (docs/product.md §1), not only where a form sends
 * them: a B2B client's contact (POST, PATCH) and the orders a standing order makes from a client whose
 * contact was stored in lower case before this rule. Rows the server does not write are left alone, and a
 * business name keeps the client's own spelling ("S.A.S.").
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { B2bClient, Order } from '@hornada/domain';
import { b2bClients, orders } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { json } from '../helpers/app';
import { MONDAY_10AM, ordersCalls, setupOrdersApp, type OrdersApp } from '../helpers/orders';

let o: OrdersApp;
const { b2bClient, staffOrder } = ordersCalls(() => o);

beforeAll(async () => {
  o = await setupOrdersApp();
});
afterAll(async () => {
  await o?.t.close();
});

const clientsPath = () => `/api/companies/${o.companyId}/b2bClients`;

async function readClient(id: string): Promise<B2bClient> {
  const res = await o.t.call({ method: 'GET', url: `${clientsPath()}/${id}`, token: o.admin.token });
  expect(res.statusCode, res.body).toBe(200);
  return json<{ data: B2bClient }>(res).data;
}

/** A client row as an earlier version stored it: its contact in lower case, never written since. */
async function oldClient(contactName: string) {
  const id = newId();
  const now = o.t.clock.now();
  await o.t.db.insert(b2bClients).values({
    id,
    companyId: o.companyId,
    createdAt: now,
    updatedAt: now,
    businessName: 'Café La Macarena S.A.S.',
    contactName,
    phone: '310 555 0142',
  });
  return id;
}

describe('person names', () => {
  it("title-cases a B2B client's contact on create and on edit, and keeps the business name as typed", async () => {
    const id = await b2bClient({ businessName: 'café la macarena S.A.S.', contactName: 'laura gómez de la hoz' });
    expect(await readClient(id)).toMatchObject({
      businessName: 'café la macarena S.A.S.',
      contactName: 'Laura Gómez de la Hoz',
    });
    const patch = await o.t.call({
      method: 'PATCH',
      url: `${clientsPath()}/${id}`,
      token: o.staff.token,
      payload: { contactName: 'HERNÁN DARÍO DEL VALLE' },
    });
    expect(patch.statusCode, patch.body).toBe(200);
    expect(json<{ data: B2bClient }>(patch).data.contactName).toBe('Hernán Darío del Valle');
  });

  it('leaves a stored contact alone until it is written', async () => {
    const id = await oldClient('pedro pérez');
    const patch = await o.t.call({
      method: 'PATCH',
      url: `${clientsPath()}/${id}`,
      token: o.staff.token,
      payload: { phone: '310 555 0199' },
    });
    expect(patch.statusCode, patch.body).toBe(200);
    expect(await readClient(id)).toMatchObject({ contactName: 'pedro pérez', phone: '310 555 0199' });
  });

  it('title-cases the contact of the orders a standing order makes, and of a staff order', async () => {
    const b2bClientId = await oldClient('maría de los ángeles ruiz');
    const res = await o.t.call({
      method: 'POST',
      url: `/api/companies/${o.companyId}/standingOrders`,
      token: o.staff.token,
      payload: {
        b2bClientId,
        weekdays: [3],
        items: [{ productId: o.pan, quantity: 10 }],
        fulfillment: 'pickup',
        window: 'am',
        startsOn: '2026-11-25',
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const standingOrderId = json<{ data: { id: string } }>(res).data.id;
    // Tuesday: Wednesday enters the horizon (the orders bakery's production lead is a day).
    o.t.clock.set('2026-11-24T15:00:00.000Z');
    try {
      await o.t.app.modules.standingOrders.run();
      const [made] = await o.t.db
        .select({ contact: orders.contact })
        .from(orders)
        .where(and(eq(orders.standingOrderId, standingOrderId), eq(orders.standingDay, '2026-11-25')));
      expect(made?.contact.name).toBe('María de los Ángeles Ruiz');
    } finally {
      o.t.clock.set(MONDAY_10AM);
    }
    // The client's own row is not the order's to rewrite.
    expect((await readClient(b2bClientId)).contactName).toBe('maría de los ángeles ruiz');

    const order: Order = await staffOrder({ contact: { name: 'JUAN DEL VALLE', phone: '300 123 4567' } });
    expect(order.contact.name).toBe('Juan del Valle');
  });
});

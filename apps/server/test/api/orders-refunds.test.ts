/**
 * Refunds (issue 24 item 8, design §5): only an admin moves a paid order's payment to refunded, and
 * only with a `refundReason`, which lands in the order's history with the move; the reason changes
 * with no other write, and staff, production, drivers and customers cannot refund.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '@hornada/domain';
import { json } from '../helpers/app';
import { CONTACT, ordersCalls, setupOrdersApp, WEDNESDAY, type OrdersApp } from '../helpers/orders';

let o: OrdersApp;
const { staffOrder, postOrder, patch, get } = ordersCalls(() => o);

beforeAll(async () => {
  o = await setupOrdersApp();
});
afterAll(async () => {
  await o?.t.close();
});

const orderOf = async (id: string) => json<{ data: Order }>(await get(id, o.admin)).data;

/** A customer's cash order, delivered by the driver and paid. */
async function paidOrder(): Promise<Order> {
  const order = await staffOrder({ customerId: o.customer.uid, deliveryAssistantId: o.driver.uid });
  const res = await patch(order.id, o.staff, { paymentStatus: 'paid' });
  expect(res.statusCode, res.body).toBe(200);
  return json<{ data: Order }>(res).data;
}

const refund = { paymentStatus: 'refunded', refundReason: 'Torta dañada en la entrega' };

describe('refunds', () => {
  it('an admin refunds a paid order with its reason, both in history', async () => {
    const order = await paidOrder();
    const res = await patch(order.id, o.admin, refund);
    expect(res.statusCode, res.body).toBe(200);
    const after = await orderOf(order.id);
    expect([after.paymentStatus, after.refundReason]).toEqual(['refunded', refund.refundReason]);
    expect(after.history.slice(-2)).toEqual([
      expect.objectContaining({ field: 'refundReason', from: null, to: refund.refundReason }),
      expect.objectContaining({
        field: 'paymentStatus',
        from: 'paid',
        to: 'refunded',
        by: expect.objectContaining({ uid: o.admin.uid }),
      }),
    ]);
  });

  it('needs a reason, and an order that is not paid cannot be refunded', async () => {
    const order = await paidOrder();
    const bare = await patch(order.id, o.admin, { paymentStatus: 'refunded' });
    expect(bare.statusCode).toBe(400);
    expect(json(bare)).toMatchObject({ details: [{ path: 'refundReason' }] });
    const unpaid = await staffOrder();
    const early = await patch(unpaid.id, o.admin, refund);
    expect(early.statusCode).toBe(422);
    expect(json(early)).toMatchObject({ code: 'orders/invalid-payment' });
    expect((await orderOf(order.id)).paymentStatus).toBe('paid');
  });

  it('the reason changes only with the refund, and never on a new order', async () => {
    const order = await paidOrder();
    const res = await patch(order.id, o.admin, { refundReason: 'Sin motivo' });
    expect(res.statusCode).toBe(422);
    expect(json(res)).toMatchObject({ code: 'orders/field-outside-move', details: [{ path: 'refundReason' }] });
    const created = await postOrder(o.admin.token, {
      contact: CONTACT,
      items: [{ productId: o.pan, quantity: 4 }],
      fulfillment: 'pickup',
      dueDate: WEDNESDAY,
      window: 'am',
      refundReason: 'Antes de tiempo',
    });
    expect(created.statusCode, created.body).toBe(422);
    expect(json(created)).toMatchObject({ code: 'orders/field-outside-move' });
    expect((await orderOf(order.id)).refundReason).toBeNull();
  });

  it('staff, production, the driver and the customer cannot refund', async () => {
    const order = await paidOrder();
    expect((await patch(order.id, o.staff, refund)).statusCode).toBe(422);
    expect((await patch(order.id, o.production, refund)).statusCode).toBe(403);
    expect((await patch(order.id, o.driver, refund)).statusCode).toBe(403);
    expect((await patch(order.id, o.customer, refund)).statusCode).toBe(403);
    expect((await patch(order.id, o.otherAdmin, refund)).statusCode).toBe(404);
    const after = await orderOf(order.id);
    expect([after.paymentStatus, after.refundReason]).toEqual(['paid', null]);
  });
});

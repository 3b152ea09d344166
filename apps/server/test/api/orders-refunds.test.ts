/**
 * Refunds (docs/design.md §5): only an admin moves a paid order's payment to refunded, and
 * only with a `refundReason`, which lands in the order's history with the move; the reason changes
 * with no other write, and staff, production, drivers and customers cannot refund.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMoney, type Order } from '@hornada/domain';
import { json, type TestUser } from '../helpers/app';
import { outboxOf, waitForMail } from '../helpers/mail';
import { CONTACT, ordersCalls, setupOrdersApp, WEDNESDAY, type OrdersApp } from '../helpers/orders';

let o: OrdersApp;
let root: TestUser;
const { staffOrder, postOrder, patch, get } = ordersCalls(() => o);

beforeAll(async () => {
  o = await setupOrdersApp();
  root = await o.t.user('system_admin', null);
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
    // The whole move lists one refund of everything paid.
    expect(after.refunds).toEqual([expect.objectContaining({ amount: order.total, reason: refund.refundReason })]);
    expect(after.history.slice(-3)).toEqual([
      expect.objectContaining({ field: 'refundReason', from: null, to: refund.refundReason }),
      expect.objectContaining({
        field: 'paymentStatus',
        from: 'paid',
        to: 'refunded',
        by: expect.objectContaining({ uid: o.admin.uid }),
      }),
      expect.objectContaining({ field: 'refunds', from: 0, to: order.total }),
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

describe('partial refunds', () => {
  const part = (amount: number, reason = 'Faltó un pan') => ({ refund: { amount, reason } });

  it('refunds part of what was paid, one after another, each listed, the last one leaving the order refunded', async () => {
    const order = await paidOrder();
    const first = await patch(order.id, o.admin, part(2500));
    expect(first.statusCode, first.body).toBe(200);
    let after = await orderOf(order.id);
    expect(after.paymentStatus).toBe('paid');
    expect(after.refunds).toEqual([
      expect.objectContaining({
        amount: 2500,
        reason: 'Faltó un pan',
        by: expect.objectContaining({ uid: o.admin.uid }),
      }),
    ]);
    expect(after.history.at(-1)).toMatchObject({ field: 'refunds', from: 0, to: 2500 });
    const rest = order.total - 2500;
    expect((await patch(order.id, o.admin, part(rest, 'Cliente insatisfecho'))).statusCode).toBe(200);
    after = await orderOf(order.id);
    expect(after.refunds.map((r) => r.amount)).toEqual([2500, rest]);
    expect([after.paymentStatus, after.refundReason]).toEqual(['refunded', 'Cliente insatisfecho']);
    // Nothing is left: another refund is refused.
    const more = await patch(order.id, o.admin, part(1));
    expect(more.statusCode).toBe(422);
    expect(json(more)).toMatchObject({ code: 'orders/not-refundable' });
  });

  it('never more than what is left: 422 naming the amount, and the order unchanged', async () => {
    const order = await paidOrder();
    const over = await patch(order.id, o.admin, part(order.total + 1));
    expect(over.statusCode).toBe(422);
    expect(json(over)).toMatchObject({ code: 'orders/refund-too-large', details: [{ path: 'refund.amount' }] });
    expect((await patch(order.id, o.admin, part(1000))).statusCode).toBe(200);
    const left = order.total - 1000;
    const again = await patch(order.id, o.admin, part(left + 1));
    expect(again.statusCode).toBe(422);
    expect(json<{ message: string }>(again).message).toContain(formatMoney(left));
    // Zero, negative and fractional amounts, and no reason, are refused by the schema.
    for (const bad of [part(0), part(-5), part(10.5), { refund: { amount: 100, reason: ' ' } }]) {
      expect((await patch(order.id, o.admin, bad)).statusCode).toBe(400);
    }
    expect((await orderOf(order.id)).refunds.map((r) => r.amount)).toEqual([1000]);
  });

  it('two refunds sent at once cannot refund more than was paid', async () => {
    const order = await paidOrder();
    const amount = order.total - 1000;
    const answers = await Promise.all([
      patch(order.id, o.admin, part(amount, 'Primera')),
      patch(order.id, o.admin, part(amount, 'Segunda')),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 422]);
    const after = await orderOf(order.id);
    expect(after.refunds).toHaveLength(1);
    expect(after.refunds[0]!.amount).toBe(amount);
  });

  it('an unpaid order has nothing to refund; a new order cannot carry one', async () => {
    const unpaid = await staffOrder();
    const res = await patch(unpaid.id, o.admin, part(100));
    expect(res.statusCode).toBe(422);
    expect(json(res)).toMatchObject({ code: 'orders/not-refundable' });
    const created = await postOrder(o.admin.token, {
      contact: CONTACT,
      items: [{ productId: o.pan, quantity: 4 }],
      fulfillment: 'pickup',
      dueDate: WEDNESDAY,
      window: 'am',
      ...part(100),
    });
    expect(created.statusCode).toBe(422);
  });

  it("another company's admin gets a 404; staff, production, the driver and the customer a 403", async () => {
    const order = await paidOrder();
    expect((await patch(order.id, o.otherAdmin, part(100))).statusCode).toBe(404);
    for (const who of [o.staff, o.production, o.driver, o.customer]) {
      const res = await patch(order.id, who, part(100));
      expect(res.statusCode, `${who.role}: ${res.body}`).toBe(403);
    }
    expect((await orderOf(order.id)).refunds).toEqual([]);
  });

  it('mails the customer how much was refunded, of which order, and how the money comes back', async () => {
    const order = await paidOrder();
    const res = await patch(order.id, o.admin, part(2500));
    expect(res.statusCode, res.body).toBe(200);
    const mail = await waitForMail(
      o.t,
      root.token,
      o.customer.email,
      new RegExp(`^Reembolso de tu pedido #${order.number} · Panadería Uno$`),
    );
    expect(mail.text).toContain(`Registramos un reembolso de ${formatMoney(2500)} de tu pedido #${order.number}.`);
    expect(mail.text).toContain(`Te devolvemos ${formatMoney(2500)} en efectivo.`);
    expect(mail.html).toContain('en efectivo');
    // A refused refund mails nothing.
    const before = (await outboxOf(o.t, root.token)).length;
    expect((await patch(order.id, o.admin, part(order.total))).statusCode).toBe(422);
    await new Promise((r) => setTimeout(r, 200));
    expect((await outboxOf(o.t, root.token)).length).toBe(before);
  });
});

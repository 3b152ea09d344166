/**
 * Checkout with online payment (docs/design.md §3 and §5): the order placed with its payment pending
 * at the gateway, the answer carrying the attempt's reference and the signed hosted-checkout link, each
 * attempt its own reference, a repeated checkout answering the same link.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '@hornada/domain';
import { paymentAttempts } from '../../src/db/schema';
import { integritySignature } from '../../src/providers/payments/signatures';
import { json } from '../helpers/app';
import { MONDAY_10AM, type OrdersApp } from '../helpers/orders';
import { PAYMENT_KEYS, paymentsCalls, setupPaymentsApp, type OnlineOrder } from '../helpers/payments';
import { newId } from '../../src/lib/ids';

let o: OrdersApp;
const { cart, checkout, checkoutBody, onlineOrder, staffView } = paymentsCalls(() => o);

beforeAll(async () => {
  o = await setupPaymentsApp();
});
afterAll(async () => {
  await o?.t.close();
});

describe('checkout with online payment', () => {
  it('places the order pending at the gateway and answers the reference and the signed checkout link', async () => {
    const order = await onlineOrder(4);
    expect(order).toMatchObject({
      channel: 'web',
      status: 'pending',
      paymentStatus: 'pending',
      paymentMethod: 'online',
    });
    expect(order.total).toBe(15_000);
    expect(order.payment.reference).toMatch(new RegExp(`^${order.number}-1-[0-9a-f]{12}$`));
    const publicUrl = o.t.app.ctx.config.publicUrl;
    const url = new URL(order.payment.checkoutUrl);
    expect(url.origin + url.pathname).toBe(`${publicUrl}/pasarela-de-prueba`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      'public-key': PAYMENT_KEYS.WOMPI_PUBLIC_KEY,
      currency: 'COP',
      'amount-in-cents': '1500000',
      reference: order.payment.reference,
      'signature:integrity': integritySignature({
        reference: order.payment.reference,
        amountInCents: 1_500_000,
        currency: 'COP',
        integritySecret: PAYMENT_KEYS.WOMPI_INTEGRITY_SECRET,
      }),
      'redirect-url': `${publicUrl}/respuesta-de-pago?pedido=${encodeURIComponent(order.accessToken)}`,
    });

    const full = await staffView(order.id);
    expect(full.payment).toEqual({ gateway: 'sandbox', reference: order.payment.reference, transactionId: null });
    const gateway = { uid: null, name: 'sandbox', role: 'gateway' };
    expect(full.history).toEqual([
      {
        at: MONDAY_10AM,
        by: { uid: null, name: 'Ana Pérez', role: 'guest' },
        field: 'status',
        from: null,
        to: 'pending',
      },
      { at: MONDAY_10AM, by: gateway, field: 'paymentStatus', from: 'unpaid', to: 'pending' },
      { at: MONDAY_10AM, by: gateway, field: 'payment', from: null, to: full.payment },
    ]);
    const attempts = await o.t.db.select().from(paymentAttempts).where(eq(paymentAttempts.orderId, order.id));
    expect(attempts).toMatchObject([
      { attempt: 1, reference: order.payment.reference, amountInCents: 1_500_000, currency: 'COP', status: 'PENDING' },
    ]);
  });

  it('gives every order its own reference, and a repeated checkout the same link', async () => {
    const c = await cart([{ productId: o.pan, quantity: 5 }]);
    const key = newId();
    const body = checkoutBody({ paymentMethod: 'online' });
    const first = json<{ data: OnlineOrder }>(await checkout(c, body, key)).data;
    const again = await checkout(c, body, key);
    expect(again.statusCode, again.body).toBe(201);
    expect(json<{ data: OnlineOrder }>(again).data).toMatchObject({ id: first.id, payment: first.payment });
    const other = await onlineOrder(4);
    expect(other.payment.reference).not.toBe(first.payment.reference);
    const attempts = await o.t.db.select().from(paymentAttempts).where(eq(paymentAttempts.orderId, first.id));
    expect(attempts).toHaveLength(1);
  });

  it('answers no payment link for cash, and shows the link to nobody but the one who checked out', async () => {
    const c = await cart([{ productId: o.pan, quantity: 4 }]);
    const cash = json<{ data: Record<string, unknown> }>(await checkout(c, checkoutBody())).data;
    expect(cash).not.toHaveProperty('payment');
    const online = await onlineOrder(4);
    const link = json<{ data: Partial<Order> }>(
      await o.t.call({ method: 'GET', url: `/api/orders/link/${online.accessToken}` }),
    ).data;
    expect(link).toMatchObject({ paymentStatus: 'pending', paymentMethod: 'online' });
    expect(link).not.toHaveProperty('payment');
  });
});

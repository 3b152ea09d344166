/**
 * The `wompi` driver end to end against the sandbox: an app with PAYMENT_GATEWAY=wompi,
 * its WOMPI_CHECKOUT_URL and WOMPI_API_URL pointed at a second app serving the sandbox on a real port
 * (the gateway, with the same keys), as Wompi's own checkout and API would be. The browser's steps go
 * over HTTP to the gateway; the response page's look-up asks it server to server. The sandbox's events go
 * to its own app, as Wompi's go to the URL its merchant configured: here the look-up alone settles it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOOK_UP_AFTER_MS, PaymentReconciliation } from '../../src/modules/payments/reconciliation';
import { setupTestApp, type TestApp } from '../helpers/app';
import type { OrdersApp } from '../helpers/orders';
import { PAYMENT_KEYS, paymentsCalls, setupPaymentsApp, type OnlineOrder } from '../helpers/payments';

let gateway: TestApp;
let o: OrdersApp;
const { onlineOrder, staffView } = paymentsCalls(() => o);

beforeAll(async () => {
  gateway = await setupTestApp({ listen: true, env: { ...PAYMENT_KEYS, RATE_LIMIT_WRITES: '0' } });
  o = await setupPaymentsApp({
    env: {
      PAYMENT_GATEWAY: 'wompi',
      WOMPI_API_URL: `${gateway.baseUrl}/api/pasarela-de-prueba/v1`,
      WOMPI_CHECKOUT_URL: `${gateway.baseUrl}/pasarela-de-prueba`,
    },
  });
});
afterAll(async () => {
  await o?.t.close();
  await gateway?.close();
});

/** The browser at the gateway: opens the checkout link, presses a button, follows no redirect. */
async function payAtGateway(order: OnlineOrder, decision: string): Promise<string> {
  const link = new URL(order.payment.checkoutUrl);
  expect(link.origin).toBe(gateway.baseUrl);
  const page = await fetch(link);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain(order.payment.reference);
  const form = new URLSearchParams(link.searchParams);
  form.set('decision', decision);
  const res = await fetch(`${gateway.baseUrl}/pasarela-de-prueba`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
    redirect: 'manual',
  });
  expect(res.status).toBe(303);
  const back = new URL(res.headers.get('location')!);
  expect(back.pathname).toBe('/respuesta-de-pago');
  expect(back.searchParams.get('pedido')).toBe(order.accessToken);
  return back.searchParams.get('id')!;
}

const lookUp = (order: OnlineOrder, id: string) =>
  o.t.call({ method: 'GET', url: `/api/orders/link/${order.accessToken}/payment?id=${encodeURIComponent(id)}` });

describe('the wompi driver against the sandbox', () => {
  it("signs a checkout link the sandbox accepts, and the response page's look-up marks the order paid", async () => {
    const order = await onlineOrder();
    const id = await payAtGateway(order, 'APPROVED');
    const res = await lookUp(order, id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ data: { paymentStatus: 'paid', transactionStatus: 'APPROVED' } });
    expect(await staffView(order.id)).toMatchObject({
      paymentStatus: 'paid',
      status: 'confirmed',
      payment: { gateway: 'wompi', transactionId: id, status: 'APPROVED' },
    });
  });

  it('reads a declined and a pending transaction as Wompi reports them', async () => {
    const declined = await onlineOrder();
    const no = await payAtGateway(declined, 'DECLINED');
    expect((await lookUp(declined, no)).json()).toEqual({
      data: { paymentStatus: 'failed', transactionStatus: 'DECLINED' },
    });
    const pending = await onlineOrder();
    const later = await payAtGateway(pending, 'PENDING');
    expect((await lookUp(pending, later)).json()).toEqual({
      data: { paymentStatus: 'pending', transactionStatus: 'PENDING' },
    });
    // Approved later at the gateway: the next look-up pays it.
    const decided = await fetch(`${gateway.baseUrl}/pasarela-de-prueba/transacciones/${later}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'decision=APPROVED',
      redirect: 'manual',
    });
    expect(decided.status).toBe(303);
    expect((await lookUp(pending, later)).json()).toEqual({
      data: { paymentStatus: 'paid', transactionStatus: 'APPROVED' },
    });
  });

  it('finds by its reference a transaction whose id never reached the app (reconciliation)', async () => {
    const order = await onlineOrder();
    // The buyer paid and never came back; the gateway's event went elsewhere: the app knows no id.
    const id = await payAtGateway(order, 'APPROVED');
    expect((await staffView(order.id)).paymentStatus).toBe('pending');
    o.t.clock.advance(LOOK_UP_AFTER_MS + 60_000);
    const job = new PaymentReconciliation(o.t.app.ctx, o.t.app.resources, o.t.app.modules.payments, o.t.app.log);
    expect((await job.run()).lookedUp).toBeGreaterThanOrEqual(1);
    expect(await staffView(order.id)).toMatchObject({
      paymentStatus: 'paid',
      status: 'confirmed',
      payment: { gateway: 'wompi', reference: order.payment.reference, transactionId: id, status: 'APPROVED' },
    });
  });

  it("lists a reference's transactions only to the private key, in Wompi's shape", async () => {
    const order = await onlineOrder();
    const declined = await payAtGateway(order, 'DECLINED');
    const url = `${gateway.baseUrl}/api/pasarela-de-prueba/v1/transactions?reference=${encodeURIComponent(order.payment.reference)}`;
    for (const authorization of [undefined, 'Bearer prv_test_someone_else', PAYMENT_KEYS.WOMPI_PRIVATE_KEY]) {
      const res = await fetch(url, { headers: authorization ? { authorization } : {} });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ error: { type: 'INVALID_ACCESS_TOKEN' } });
    }
    const res = await fetch(url, { headers: { authorization: `Bearer ${PAYMENT_KEYS.WOMPI_PRIVATE_KEY}` } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      data: [expect.objectContaining({ id: declined, reference: order.payment.reference, status: 'DECLINED' })],
    });
    const none = await fetch(`${gateway.baseUrl}/api/pasarela-de-prueba/v1/transactions?reference=nadie`, {
      headers: { authorization: `Bearer ${PAYMENT_KEYS.WOMPI_PRIVATE_KEY}` },
    });
    expect(await none.json()).toEqual({ data: [] });
  });

  it('has no sandbox routes in an app whose gateway is wompi', async () => {
    expect(o.t.app.paymentSandbox).toBeUndefined();
    for (const url of ['/pasarela-de-prueba', '/pasarela-de-prueba/transacciones/:id']) {
      expect(o.t.app.hasRoute({ method: 'GET', url })).toBe(false);
      expect(o.t.app.hasRoute({ method: 'POST', url })).toBe(false);
    }
    const api = await o.t.call({ method: 'GET', url: '/api/pasarela-de-prueba/v1/transactions/x' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ code: 'not_found' });
  });
});

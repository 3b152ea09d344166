/**
 * The guest link's payment routes (docs/design.md §3): the payment-response page's look-up, which asks
 * the gateway server to server and applies what it says, and a new attempt with a new reference. The
 * `wompi` driver is pointed (WOMPI_API_URL) at a small HTTP server of this file that answers transactions
 * in Wompi's shape, as Wompi's API would.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentAttempts } from '../../src/db/schema';
import { json } from '../helpers/app';
import type { OrdersApp } from '../helpers/orders';
import {
  WOMPI_PROPERTIES,
  paymentsCalls,
  setupPaymentsApp,
  signedEvent,
  transactionOf as transactionFor,
  type OnlineOrder,
  type WompiTransactionBody,
} from '../helpers/payments';

let o: OrdersApp;
let gatewayServer: Server;
/** What the gateway knows: its transactions by id; `broken` answers 502. */
const transactions = new Map<string, WompiTransactionBody>();
const looked: string[] = [];
const { onlineOrder, sendEvent, staffView, patch, webOrder } = paymentsCalls(() => o);

beforeAll(async () => {
  gatewayServer = createServer((req, res) => {
    const id = decodeURIComponent(req.url!.replace('/v1/transactions/', ''));
    looked.push(id);
    const t = transactions.get(id);
    if (id === 'broken') res.writeHead(502).end('bad gateway');
    else if (!t) res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"type":"NOT_FOUND_ERROR"}}');
    else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: t }));
  });
  await new Promise<void>((resolve) => gatewayServer.listen(0, '127.0.0.1', resolve));
  const { port } = gatewayServer.address() as AddressInfo;
  o = await setupPaymentsApp({
    env: { PAYMENT_GATEWAY: 'wompi', WOMPI_API_URL: `http://127.0.0.1:${port}/v1` },
  });
});
afterAll(async () => {
  await o?.t.close();
  await new Promise((resolve) => gatewayServer?.close(resolve));
});

const transactionOf = (order: OnlineOrder, extra: Partial<WompiTransactionBody> = {}): WompiTransactionBody => {
  const t = transactionFor(order, extra);
  transactions.set(t.id, t);
  return t;
};

const lookUp = (order: { accessToken: string }, id?: string) =>
  o.t.call({
    method: 'GET',
    url: `/api/orders/link/${order.accessToken}/payment${id === undefined ? '' : `?id=${encodeURIComponent(id)}`}`,
  });
const retry = (order: { accessToken: string }) =>
  o.t.call({ method: 'POST', url: `/api/orders/link/${order.accessToken}/payment` });

describe("the payment-response page's look-up", () => {
  it('asks the gateway, applies an approved transaction of this order, and a later event of it changes nothing', async () => {
    const order = await onlineOrder();
    const t = transactionOf(order);
    const res = await lookUp(order, t.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ data: { paymentStatus: 'paid', transactionStatus: 'APPROVED' } });
    expect(looked.at(-1)).toBe(t.id);
    const paid = await staffView(order.id);
    expect(paid).toMatchObject({ status: 'confirmed', payment: { gateway: 'wompi', transactionId: t.id } });
    // The event arriving after the browser: the same transaction and status, already applied.
    expect((await sendEvent(signedEvent(t))).statusCode).toBe(200);
    expect(await lookUp(order, t.id).then((r) => r.json())).toEqual({
      data: { paymentStatus: 'paid', transactionStatus: 'APPROVED' },
    });
    expect((await staffView(order.id)).history).toEqual(paid.history);
  });

  it("believes nothing else: another order's transaction, an unknown id or an underpaid one never pay it", async () => {
    const order = await onlineOrder();
    const other = await onlineOrder();
    const others = transactionOf(other);
    expect((await lookUp(order, others.id)).json()).toEqual({
      data: { paymentStatus: 'pending', transactionStatus: null },
    });
    expect((await staffView(other.id)).paymentStatus).toBe('pending');
    expect((await lookUp(order, 'no-such-transaction')).json()).toEqual({
      data: { paymentStatus: 'pending', transactionStatus: null },
    });
    const underpaid = transactionOf(order, { amount_in_cents: 100 });
    expect((await lookUp(order, underpaid.id)).json()).toEqual({
      data: { paymentStatus: 'pending', transactionStatus: 'APPROVED' },
    });
    expect((await staffView(order.id)).payment).toMatchObject({
      transactionId: underpaid.id,
      problem: expect.any(String),
    });
    expect((await lookUp(order)).json()).toEqual({ data: { paymentStatus: 'pending', transactionStatus: null } });
  });

  it('answers 503 when the gateway fails, and 404 for a link that is not one', async () => {
    const order = await onlineOrder();
    const res = await lookUp(order, 'broken');
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: 'unavailable' });
    expect((await lookUp({ accessToken: `${order.id}.forged` }, 'x')).statusCode).toBe(404);
  });
});

describe('a new payment attempt', () => {
  it('gives a declined order a new reference and sets its payment pending again', async () => {
    const order = await onlineOrder();
    const declined = transactionOf(order, { status: 'DECLINED' });
    expect((await lookUp(order, declined.id)).json()).toEqual({
      data: { paymentStatus: 'failed', transactionStatus: 'DECLINED' },
    });
    const res = await retry(order);
    expect(res.statusCode, res.body).toBe(201);
    const link = json<{ data: { reference: string; checkoutUrl: string } }>(res).data;
    expect(link.reference).toMatch(new RegExp(`^${order.number}-2-[0-9a-f]{12}$`));
    expect(new URL(link.checkoutUrl).searchParams.get('reference')).toBe(link.reference);
    const after = await staffView(order.id);
    expect(after).toMatchObject({
      paymentStatus: 'pending',
      payment: { reference: link.reference, transactionId: null },
    });
    expect(after.history.filter((h) => h.field === 'paymentStatus').map((h) => h.to)).toEqual([
      'pending',
      'failed',
      'pending',
    ]);
    const attempts = await o.t.db.select().from(paymentAttempts).where(eq(paymentAttempts.orderId, order.id));
    expect(attempts.map((a) => a.attempt).sort()).toEqual([1, 2]);
    // The new attempt approved: paid.
    const approved = transactionOf({ ...order, payment: link });
    expect((await lookUp(order, approved.id)).json()).toEqual({
      data: { paymentStatus: 'paid', transactionStatus: 'APPROVED' },
    });
  });

  it('refuses a paid, a cancelled or a cash order with a 409, and a forged link with a 404', async () => {
    const paid = await onlineOrder();
    await lookUp(paid, transactionOf(paid).id);
    const cancelled = await onlineOrder();
    const cancel = await patch(cancelled.id, o.staff, { status: 'cancelled', cancelReason: 'El cliente llamó' });
    expect(cancel.statusCode, cancel.body).toBe(200);
    const cash = await webOrder(4);
    for (const order of [paid, cancelled, cash]) {
      const res = await retry(order);
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json()).toMatchObject({ code: 'payments/not-payable' });
    }
    expect((await retry({ accessToken: `${paid.id}.forged` })).statusCode).toBe(404);
    const attempts = await o.t.db.select().from(paymentAttempts).where(eq(paymentAttempts.orderId, paid.id));
    expect(attempts).toHaveLength(1);
  });
});

describe("Wompi's own events, which leave the reference uncovered", () => {
  const wompiEvent = (t: WompiTransactionBody) => signedEvent(t, undefined, { properties: WOMPI_PROPERTIES });

  it("applies what the gateway answers for the event's transaction id, not the reference the event names", async () => {
    const payer = await onlineOrder();
    const victim = await onlineOrder();
    const before = await staffView(victim.id);
    const t = transactionOf(payer);
    const res = await sendEvent(wompiEvent({ ...t, reference: victim.payment.reference }));
    expect(res.statusCode, res.body).toBe(200);
    expect(looked.at(-1)).toBe(t.id);
    expect(await staffView(victim.id)).toEqual(before);
    expect(await staffView(payer.id)).toMatchObject({ paymentStatus: 'paid', payment: { transactionId: t.id } });
  });

  it('answers 503 when the gateway does not answer, so the event comes again, and changes nothing', async () => {
    const order = await onlineOrder();
    const before = await staffView(order.id);
    const res = await sendEvent(wompiEvent({ ...transactionFor(order), id: 'broken' }));
    expect(res.statusCode, res.body).toBe(503);
    expect(res.json()).toMatchObject({ code: 'unavailable' });
    expect(await staffView(order.id)).toEqual(before);
  });
});

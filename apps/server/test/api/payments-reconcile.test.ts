/**
 * The reconciliation job (docs/design.md §5): attempts nobody reported are asked of the gateway after
 * 10 minutes and settled, each once however many instances run, and an online payment abandoned for 24
 * hours fails and frees its window. The `wompi` driver is pointed (WOMPI_API_URL) at a small HTTP server
 * of this file that answers look-ups by id and by reference in Wompi's shape; the app's clock is moved.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import {
  ABANDONED_REASON,
  LOOK_UP_AFTER_MS,
  LOOK_UP_UNTIL_MS,
  PaymentReconciliation,
  RECONCILE_EVERY_MS,
} from '../../src/modules/payments/reconciliation';
import { json } from '../helpers/app';
import type { OrdersApp } from '../helpers/orders';
import {
  PAYMENT_KEYS,
  paymentsCalls,
  setupPaymentsApp,
  signedEvent,
  transactionOf,
  type OnlineOrder,
  type WompiTransactionBody,
} from '../helpers/payments';

const MINUTE = 60_000;
/** A day of the test bakery still open for orders after the clock moved two days. */
const SATURDAY = '2026-11-28';
let o: OrdersApp;
let gatewayServer: Server;
/** What the gateway knows, by transaction id; every look-up (by id or reference) is counted. */
const transactions = new Map<string, WompiTransactionBody>();
const asked = new Map<string, number>();
const count = (key: string) => asked.set(key, (asked.get(key) ?? 0) + 1);
const { onlineOrder, sendEvent, staffView: viewOf, cart, checkout, checkoutBody } = paymentsCalls(() => o);
/** The order as staff read it, with a fresh sign-in: the clock moves past a session's life here. */
const staffView = async (id: string) => {
  o.staff = await o.t.user('company_staff', o.companyId);
  return viewOf(id);
};

beforeAll(async () => {
  gatewayServer = createServer((req, res) => {
    const url = new URL(req.url!, 'http://gateway');
    const send = (body: unknown) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    const reference = url.searchParams.get('reference');
    if (url.pathname === '/v1/transactions' && reference) {
      // Wompi lists a merchant's transactions only to its private key.
      if (req.headers.authorization !== `Bearer ${PAYMENT_KEYS.WOMPI_PRIVATE_KEY}`) {
        return res
          .writeHead(401, { 'content-type': 'application/json' })
          .end('{"error":{"type":"INVALID_ACCESS_TOKEN"}}');
      }
      count(reference);
      return send({ data: [...transactions.values()].filter((t) => t.reference === reference) });
    }
    const id = decodeURIComponent(url.pathname.replace('/v1/transactions/', ''));
    const t = transactions.get(id);
    if (t) count(t.reference);
    if (!t) res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"type":"NOT_FOUND_ERROR"}}');
    else send({ data: t });
  });
  await new Promise<void>((resolve) => gatewayServer.listen(0, '127.0.0.1', resolve));
  const { port } = gatewayServer.address() as AddressInfo;
  o = await setupPaymentsApp({ env: { PAYMENT_GATEWAY: 'wompi', WOMPI_API_URL: `http://127.0.0.1:${port}/v1` } });
});
afterAll(async () => {
  await o?.t.close();
  await new Promise((resolve) => gatewayServer?.close(resolve));
});

const jobOf = (app: FastifyInstance) =>
  new PaymentReconciliation(app.ctx, app.resources, app.modules.payments, app.log);

/** The gateway's transaction for the order's current attempt (approved with its amount unless told). */
const atGateway = (order: OnlineOrder, extra: Partial<WompiTransactionBody> = {}): WompiTransactionBody => {
  const t = transactionOf(order, extra);
  transactions.set(t.id, t);
  return t;
};

describe('payment reconciliation', () => {
  it('asks about an attempt still pending after 10 minutes, by its reference, and settles it', async () => {
    const job = jobOf(o.t.app);
    const order = await onlineOrder();
    atGateway(order);
    o.t.clock.advance(5 * MINUTE);
    await job.run();
    expect(asked.get(order.payment.reference)).toBeUndefined();
    expect((await staffView(order.id)).paymentStatus).toBe('pending');

    o.t.clock.advance(LOOK_UP_AFTER_MS);
    await job.run();
    expect(asked.get(order.payment.reference)).toBe(1);
    const paid = await staffView(order.id);
    expect(paid).toMatchObject({ paymentStatus: 'paid', status: 'confirmed' });
    expect(paid.history.filter((h) => h.field === 'paymentStatus' && h.to === 'paid')).toHaveLength(1);

    // Settled: never asked again.
    o.t.clock.advance(RECONCILE_EVERY_MS);
    await job.run();
    expect(asked.get(order.payment.reference)).toBe(1);
  });

  it('asks about each attempt once when two instances run at the same time, and again only a run later', async () => {
    const other = await o.t.secondInstance();
    try {
      const orders = [await onlineOrder(4), await onlineOrder(5), await onlineOrder(6)];
      for (const order of orders) atGateway(order, { status: 'PENDING' });
      o.t.clock.advance(LOOK_UP_AFTER_MS + MINUTE);
      const jobs = [jobOf(o.t.app), jobOf(other.app), jobOf(o.t.app), jobOf(other.app)];
      await Promise.all(jobs.map((j) => j.run()));
      for (const order of orders) expect(asked.get(order.payment.reference), order.payment.reference).toBe(1);
      for (const order of orders) expect((await staffView(order.id)).paymentStatus).toBe('pending');

      // Claimed: another run straight after leaves them; a run RECONCILE_EVERY_MS later asks once more.
      await Promise.all(jobs.map((j) => j.run()));
      for (const order of orders) expect(asked.get(order.payment.reference)).toBe(1);
      o.t.clock.advance(RECONCILE_EVERY_MS);
      await Promise.all(jobs.map((j) => j.run()));
      for (const order of orders) expect(asked.get(order.payment.reference)).toBe(2);
    } finally {
      await other.close();
    }
  });

  it('stops asking about an attempt a later one paid once the abandonment is past', async () => {
    const job = jobOf(o.t.app);
    const order = await onlineOrder(7);
    atGateway(order, { status: 'PENDING' });
    const retry = await o.t.call({ method: 'POST', url: `/api/orders/link/${order.accessToken}/payment` });
    expect(retry.statusCode, retry.body).toBe(201);
    const second = { ...order, payment: json<{ data: OnlineOrder['payment'] }>(retry).data };
    await sendEvent(signedEvent(transactionOf(second)));
    expect((await staffView(order.id)).paymentStatus).toBe('paid');

    o.t.clock.advance(LOOK_UP_AFTER_MS + MINUTE);
    await job.run();
    expect(asked.get(order.payment.reference)).toBe(1);
    expect((await staffView(order.id)).paymentStatus).toBe('paid');
    o.t.clock.advance(LOOK_UP_UNTIL_MS);
    await job.run();
    expect(asked.get(order.payment.reference)).toBe(1);
  });

  it('fails and cancels an online order not paid 24 hours after its last attempt, freeing its window', async () => {
    const job = jobOf(o.t.app);
    // Every earlier order is settled or abandoned first, so this test counts only its own.
    o.t.clock.advance(25 * 60 * MINUTE);
    await job.run();

    const c = await cart([{ productId: o.pan, quantity: 4 }]);
    const placed = await checkout(c, checkoutBody({ paymentMethod: 'online', dueDate: SATURDAY, window: 'uno' }));
    expect(placed.statusCode, placed.body).toBe(201);
    const order = json<{ data: OnlineOrder }>(placed).data;
    const c1 = await cart([{ productId: o.pan, quantity: 5 }]);
    const other = await checkout(c1, checkoutBody({ paymentMethod: 'online', dueDate: SATURDAY }));
    expect(other.statusCode, other.body).toBe(201);
    const declined = json<{ data: OnlineOrder }>(other).data;
    atGateway(declined, { status: 'DECLINED' });
    // The window of capacity 1 is full while the order waits for its payment.
    const c2 = await cart([{ productId: o.pan, quantity: 4 }]);
    const full = await checkout(c2, checkoutBody({ paymentMethod: 'cash', dueDate: SATURDAY, window: 'uno' }));
    expect(full.statusCode, full.body).toBe(422);

    o.t.clock.advance(23 * 60 * MINUTE);
    await job.run();
    expect((await staffView(declined.id)).paymentStatus).toBe('failed');
    expect((await staffView(order.id)).status).toBe('pending');

    o.t.clock.advance(61 * MINUTE);
    const result = await job.run();
    expect(result.abandoned).toBe(2);
    for (const id of [order.id, declined.id]) {
      const gone = await staffView(id);
      expect(gone).toMatchObject({ paymentStatus: 'failed', status: 'cancelled', cancelReason: ABANDONED_REASON });
      expect(gone.history.at(-1)).toMatchObject({ field: 'status', from: 'pending', to: 'cancelled' });
    }
    expect((await staffView(order.id)).payment).toMatchObject({ status: 'ABANDONED' });
    expect((await job.run()).abandoned).toBe(0);

    // Its place is free again, and the abandoned order takes no new attempt.
    const again = await checkout(c2, checkoutBody({ paymentMethod: 'cash', dueDate: SATURDAY, window: 'uno' }));
    expect(again.statusCode, again.body).toBe(201);
    const retry = await o.t.call({ method: 'POST', url: `/api/orders/link/${order.accessToken}/payment` });
    expect(retry.statusCode).toBe(409);
  });
});

/**
 * The gateway's events are limited per address (RATE_LIMIT_PAYMENT_EVENTS): a flood from one address is
 * refused at the door with a 429, before its body is read, while another address (the gateway's) goes on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrdersApp } from '../helpers/orders';
import { paymentsCalls, setupPaymentsApp, signedEvent, transactionOf } from '../helpers/payments';

let o: OrdersApp;
const { onlineOrder, staffView } = paymentsCalls(() => o);

beforeAll(async () => {
  o = await setupPaymentsApp({ env: { RATE_LIMIT_PAYMENT_EVENTS: '3' } });
});
afterAll(async () => {
  await o?.t.close();
});

const sendFrom = (remoteAddress: string, body: unknown) =>
  o.t.call({
    method: 'POST',
    url: '/api/payments/events',
    remoteAddress,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });

describe('the limit on payment events', () => {
  it('refuses the events of one address past the limit with a 429, forged or not, and lets another through', async () => {
    const order = await onlineOrder();
    const forged = signedEvent(transactionOf(order), 'test_events_someone_else');
    for (let i = 0; i < 3; i++) expect((await sendFrom('203.0.113.7', forged)).statusCode).toBe(401);
    const refused = await sendFrom('203.0.113.7', signedEvent(transactionOf(order)));
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'rate_limited' });
    expect((await staffView(order.id)).paymentStatus).toBe('pending');

    // The gateway's own address is counted apart: its event (and its retry) are applied as ever.
    const event = signedEvent(transactionOf(order));
    expect((await sendFrom('198.51.100.20', event)).statusCode).toBe(200);
    expect((await sendFrom('198.51.100.20', event)).statusCode).toBe(200);
    expect((await staffView(order.id)).paymentStatus).toBe('paid');
  });
});

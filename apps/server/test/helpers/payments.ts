/**
 * What the payments API tests share: the orders bakery offering online payment through the sandbox
 * with known keys, an online order placed by a guest, and Wompi-format events signed with the events
 * secret (or another, to forge one).
 */
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { expect } from 'vitest';
import { SettingsInput, type Order } from '@hornada/domain';
import { settings } from '../../src/db/schema';
import { eventChecksum } from '../../src/providers/payments/signatures';
import { newId } from '../../src/lib/ids';
import { json } from './app';
import { MONDAY_10AM, ORDER_SETTINGS, ordersCalls, setupOrdersApp, type OrdersApp } from './orders';

export const PAYMENT_KEYS = {
  WOMPI_PUBLIC_KEY: 'pub_test_hornada_tests',
  WOMPI_INTEGRITY_SECRET: 'test_integrity_hornada_tests',
  WOMPI_EVENTS_SECRET: 'test_events_hornada_tests',
  WOMPI_PRIVATE_KEY: 'prv_test_hornada_tests',
};

export async function setupPaymentsApp(
  opts: { loggerInstance?: FastifyBaseLogger; env?: Record<string, string> } = {},
): Promise<OrdersApp> {
  const o = await setupOrdersApp({ ...opts, env: { ...PAYMENT_KEYS, ...opts.env } });
  await o.t.db
    .update(settings)
    .set({ data: SettingsInput.parse({ ...ORDER_SETTINGS, paymentMethods: ['cash', 'transfer', 'online'] }) })
    .where(eq(settings.companyId, o.companyId));
  return o;
}

export type OnlineOrder = Omit<Order, 'payment'> & {
  accessToken: string;
  payment: { reference: string; checkoutUrl: string };
};

export interface WompiTransactionBody {
  id: string;
  reference: string;
  amount_in_cents: number;
  currency: string;
  status: string;
}

/** The transaction the gateway would report for the order's attempt (right amount and currency unless told). */
export const transactionOf = (
  order: Pick<OnlineOrder, 'payment' | 'total'>,
  extra: Partial<WompiTransactionBody> = {},
): WompiTransactionBody => ({
  id: `tx-${newId()}`,
  reference: order.payment.reference,
  amount_in_cents: order.total * 100,
  currency: 'COP',
  status: 'APPROVED',
  ...extra,
});

/** Every field of the transaction the server reads: what the sandbox's events cover. */
export const COVERED_PROPERTIES = [
  'transaction.id',
  'transaction.status',
  'transaction.amount_in_cents',
  'transaction.reference',
  'transaction.currency',
];
/** Wompi's own events (its documentation's example): the reference and the currency are not covered. */
export const WOMPI_PROPERTIES = ['transaction.id', 'transaction.status', 'transaction.amount_in_cents'];
/** The tests' clock starts here (MONDAY_10AM), in the seconds an event's timestamp counts. */
export const EVENT_TIMESTAMP = Date.parse(MONDAY_10AM) / 1000;

/**
 * A `transaction.updated` event as the gateway sends it, signed with `secret`: covering every field the
 * server reads unless `properties` says otherwise, stamped at the tests' start unless `timestamp` says.
 */
export function signedEvent(
  transaction: WompiTransactionBody,
  secret = PAYMENT_KEYS.WOMPI_EVENTS_SECRET,
  opts: { properties?: string[]; timestamp?: number } = {},
) {
  const data = { transaction: { ...transaction, payment_method_type: 'NEQUI' } };
  const properties = opts.properties ?? COVERED_PROPERTIES;
  const timestamp = opts.timestamp ?? EVENT_TIMESTAMP;
  const checksum = eventChecksum({ data, signature: { properties }, timestamp }, secret)!;
  return { event: 'transaction.updated', data, environment: 'test', signature: { properties, checksum }, timestamp };
}

export function paymentsCalls(app: () => OrdersApp) {
  const calls = ordersCalls(app);

  /** An online order of `quantity` pan (2,500 each) placed by a guest. */
  async function onlineOrder(quantity = 4): Promise<OnlineOrder> {
    const c = await calls.cart([{ productId: app().pan, quantity }]);
    const res = await calls.checkout(c, calls.checkoutBody({ paymentMethod: 'online' }));
    expect(res.statusCode, res.body).toBe(201);
    return json<{ data: OnlineOrder }>(res).data;
  }

  const sendEvent = (body: unknown, headers: Record<string, string> = {}) =>
    app().t.call({
      method: 'POST',
      url: '/api/payments/events',
      headers: { 'content-type': 'application/json', ...headers },
      payload: typeof body === 'string' ? body : JSON.stringify(body),
    });

  /** The order as staff read it (history included). */
  const staffView = async (id: string) => json<{ data: Order }>(await calls.get(id, app().staff)).data;

  return { ...calls, onlineOrder, sendEvent, staffView };
}

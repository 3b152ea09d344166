import type { FastifyInstance } from 'fastify';
import {
  OrderLinkParams,
  PaymentCheck,
  PaymentCheckQuery,
  PaymentEventBody,
  PaymentEventHeaders,
  PaymentLink,
} from '@hornada/domain';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { openToGuests } from '../../plugins/auth';
import { requireShop } from '../../resources/shop-directory';
import { paymentEventsLimit, writeLimit } from '../../plugins/rate-limit';
import { EventRejected } from '../../providers/payments';
import { AppError } from '../../lib/errors';
import { noStore } from '../../lib/no-store';

/** Design §5's bound on an event's body: Wompi's are a few KB. */
export const EVENT_BODY_LIMIT = 64 * 1024;

/**
 * Online payment's routes (docs/design.md §3): the gateway's events, open at the door since the gateway is no
 * user (the checksum proves the sender, checked before anything is read or written); and the guest
 * link's look-up and new attempt, open to whoever holds the order's link, as the link itself is.
 */
export function registerPaymentRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const service = app.modules.payments;
  const orders = app.modules.orders;
  const tags = ['payments'];

  r.get(
    '/api/orders/link/:token/payment',
    {
      // Every look-up asks the gateway: counted per caller as writes are.
      config: openToGuests(writeLimit(app).config),
      onRequest: noStore,
      schema: {
        tags,
        summary: "The payment-response page's look-up of a transaction",
        description:
          'The server asks the gateway for transaction `id`, server to server, applies it when it carries one ' +
          "of this order's references (amount and currency checked as an event's), and answers the order's " +
          "`paymentStatus` with the transaction's status at the gateway (null without `id`, or for a " +
          'transaction of another order). Nothing else in the query is believed. 503 when the gateway does not answer.',
        params: OrderLinkParams,
        querystring: PaymentCheckQuery,
        response: {
          200: z.object({ data: PaymentCheck }),
        },
      },
    },
    async (req) => ({ data: await service.lookUp(orders.orderIdOfLink(req.params.token), req.query.id) }),
  );

  r.post(
    '/api/orders/link/:token/payment',
    {
      config: openToGuests(writeLimit(app).config),
      onRequest: noStore,
      schema: {
        tags,
        summary: 'A new payment attempt for an online order',
        description:
          'For an online order that is not paid ("Intentar de nuevo"): a new attempt with a new reference, the ' +
          "order's payment pending at the gateway again; the browser goes to `checkoutUrl`. A paid, refunded " +
          'or cancelled order, or one not paid online, is a 409 `payments/not-payable`.',
        params: OrderLinkParams,
        response: { 201: z.object({ data: PaymentLink }) },
      },
    },
    async (req, reply) => {
      const id = orders.orderIdOfLink(req.params.token);
      const data = await service.newAttempt(id, orders.paymentReturnUrl(id, (await requireShop(req)).origin));
      return reply.status(201).send({ data });
    },
  );

  r.post(
    '/api/payments/events',
    {
      // A forged event is refused by its checksum before the database is touched; a flood of them is
      // refused per address before its body is read (RATE_LIMIT_PAYMENT_EVENTS).
      config: openToGuests(paymentEventsLimit(app).config),
      bodyLimit: EVENT_BODY_LIMIT,
      schema: {
        tags,
        summary: "The payment gateway's events (Wompi's format)",
        description:
          '`{event: "transaction.updated", data: {transaction: {id, reference, amount_in_cents, currency, status}}, ' +
          'environment, signature: {properties, checksum}, timestamp}`; the checksum is SHA-256 of the values of ' +
          '`signature.properties` read from `data`, then `timestamp`, then the events secret (`X-Event-Checksum` ' +
          'carries the same). A valid event is answered 200 and applied at most once per transaction id and ' +
          'status; one that does not verify is a 401, one without a signature or over 64 KB a 4xx, one whose ' +
          '`signature.properties` leaves out `transaction.id`, `transaction.status` or ' +
          '`transaction.amount_in_cents` a 400 `payments/uncovered-event`, and none of them changes anything. ' +
          "When the properties are not exactly id, status, amount, reference and currency (Wompi's own leave " +
          'out the last two), only the transaction id is believed: the transaction is asked of the gateway (503 ' +
          'when it does not answer) and its answer applied. A transaction id belongs to the first reference it ' +
          'came with: another is a 409 `payments/transaction-reference`, logged. An event stamped over 3 days ' +
          "before or 5 minutes after the server's clock is answered 200, logged and not applied. An amount or " +
          "currency that is not the attempt's is written to the order's history " +
          'and never marks it paid; an unknown reference is answered 200 (so the gateway stops retrying) and logged. ' +
          'At most RATE_LIMIT_PAYMENT_EVENTS a minute per address (600 by default), then a 429.',
        headers: PaymentEventHeaders,
        body: PaymentEventBody,
        response: { 200: z.object({ data: z.object({ received: z.literal(true) }) }) },
      },
    },
    async (req) => {
      let event;
      try {
        event = app.ctx.payments.verifyEvent(
          req.body,
          req.headers['x-event-checksum'] as string | undefined,
          app.ctx.clock.now(),
        );
      } catch (err) {
        if (!(err instanceof EventRejected)) throw err;
        if (err.reason === 'signature') throw new AppError(401, 'payments/invalid-signature', err.message);
        if (err.reason === 'uncovered') throw new AppError(400, 'payments/uncovered-event', err.message);
        throw new AppError(400, 'bad_request', err.message);
      }
      const result = await service.applyEvent(event);
      // References and transaction ids are the gateway's, not secrets: they are what an operator looks for.
      // Logged from the outcome: when the event was not believed, it is the gateway's answer that counts.
      if (result.kind === 'foreign-transaction') {
        const { reference, firstReference, transactionId } = result;
        req.log.warn(
          { reference, firstReference, transactionId },
          'payment event naming a transaction of another reference: refused',
        );
        throw new AppError(
          409,
          'payments/transaction-reference',
          `Transaction ${transactionId} belongs to another reference; it is not applied to ${reference}`,
        );
      }
      if (result.kind === 'untimely') {
        req.log.warn(
          { transactionId: result.transactionId, when: result.when },
          'payment event outside its time window: not applied',
        );
      } else if (result.kind === 'unknown-transaction') {
        req.log.warn(
          { transactionId: result.transactionId },
          'payment event for a transaction the gateway does not know',
        );
      } else if (result.kind === 'unknown-reference') {
        const { reference, transactionId } = result;
        req.log.warn({ reference, transactionId }, 'payment event for an unknown reference');
      } else if (result.kind === 'ignored') req.log.info({ event: result.event }, 'payment event ignored');
      else if (result.kind === 'recorded' && result.outcome === 'mismatch') {
        req.log.warn(
          { reference: result.reference, transactionId: result.transactionId },
          'payment event whose amount or currency is not the attempt’s',
        );
      }
      return { data: { received: true as const } };
    },
  );
}

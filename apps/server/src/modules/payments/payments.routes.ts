import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { openToGuests } from '../../plugins/auth';
import { EventRejected } from '../../providers/payments';
import { AppError } from '../../lib/errors';

/** Design §5's bound on an event's body: Wompi's are a few KB. */
export const EVENT_BODY_LIMIT = 64 * 1024;

/**
 * The gateway's side of online payment (design §3): its events. The gateway is no user, so the route
 * is open at the door; the checksum is what proves the sender, checked before anything is read or written.
 */
export function registerPaymentRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const service = app.modules.payments;
  const tags = ['payments'];

  r.post(
    '/api/payments/events',
    {
      // No per-address limit: every event comes from the gateway's few addresses, and a forged one is
      // refused by its checksum before the database is touched.
      config: openToGuests(),
      bodyLimit: EVENT_BODY_LIMIT,
      schema: {
        tags,
        summary: "The payment gateway's events (Wompi's format)",
        description:
          '`{event: "transaction.updated", data: {transaction: {id, reference, amount_in_cents, currency, status}}, ' +
          'environment, signature: {properties, checksum}, timestamp}`; the checksum is SHA-256 of the values of ' +
          '`signature.properties` read from `data`, then `timestamp`, then the events secret (`X-Event-Checksum` ' +
          'carries the same). A valid event is answered 200 and applied at most once per transaction id and ' +
          'status; one that does not verify is a 401, one without a signature or over 64 KB a 4xx, and neither ' +
          "changes anything. An amount or currency that is not the attempt's is written to the order's history " +
          'and never marks it paid; an unknown reference is answered 200 (so the gateway stops retrying) and logged.',
        headers: z.looseObject({ 'x-event-checksum': z.string().max(200).optional() }),
        body: z.looseObject({}),
        response: { 200: z.object({ data: z.object({ received: z.literal(true) }) }) },
      },
    },
    async (req) => {
      let event;
      try {
        event = app.ctx.payments.verifyEvent(req.body, req.headers['x-event-checksum'] as string | undefined);
      } catch (err) {
        if (!(err instanceof EventRejected)) throw err;
        if (err.reason === 'signature') throw new AppError(401, 'payments/invalid-signature', err.message);
        throw new AppError(400, 'bad_request', err.message);
      }
      const result = await service.applyEvent(event);
      // References and transaction ids are the gateway's, not secrets: they are what an operator looks for.
      if (result.kind === 'unknown-reference' && event.kind === 'transaction') {
        req.log.warn(
          { reference: event.transaction.reference, transactionId: event.transaction.id },
          'payment event for an unknown reference',
        );
      } else if (result.kind === 'ignored') req.log.info({ event: result.event }, 'payment event ignored');
      else if (result.kind === 'recorded' && result.outcome === 'mismatch' && event.kind === 'transaction') {
        req.log.warn(
          { reference: event.transaction.reference, transactionId: event.transaction.id },
          'payment event whose amount or currency is not the attempt’s',
        );
      }
      return { data: { received: true as const } };
    },
  );
}

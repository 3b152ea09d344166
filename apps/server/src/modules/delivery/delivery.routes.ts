import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CompanyParams, DeliveryDay, DeliveryQuery, RouteInput, RouteOrdered } from '@hornada/domain';
import { z } from 'zod';
import { writeLimit } from '../../plugins/rate-limit';
import { replaySafe, writeHeaders } from '../../resources/idempotency';
import { noStore } from '../../lib/no-store';

/** The deliveries read and the route of docs/design.md §3 "operations". */
export function registerDeliveryRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const service = app.modules.delivery;

  r.get(
    '/api/companies/:companyId/deliveries',
    {
      onRequest: noStore,
      schema: {
        tags: ['delivery'],
        summary: "A due day's deliveries by driver, in route order, with the cash of each",
        description:
          'The delivery orders whose `dueDate` is `date` (company time zone), not cancelled, grouped by ' +
          '`deliveryAssistantId` (drivers by name, unassigned last), each in `routePosition` order (unrouted ' +
          "after, by window and number). `amountToCollect` is a cash order's total unless staff settled it before " +
          'the trip; `totals.difference` is cash collected minus cash to collect over delivered stops. A `date` ' +
          'outside the years 2000 to 2100 is a 400 `days/out-of-range`. Admin and ' +
          'staff read every driver (`deliveries:assign`); a delivery assistant only its own stops.',
        params: CompanyParams,
        querystring: DeliveryQuery,
        response: { 200: z.object({ data: DeliveryDay }) },
      },
    },
    async (req) => ({ data: await service.day(req.rc, req.query.date) }),
  );

  r.post(
    '/api/companies/:companyId/deliveries/route',
    {
      config: writeLimit(app).config,
      onRequest: noStore,
      schema: {
        tags: ['delivery'],
        summary: "Order a driver's stops of a day nearest-neighbour from the bakery",
        description:
          "The driver's open stops of `date` (not delivered nor cancelled) ordered nearest-neighbour from the " +
          "bakery's `location` in settings (each next stop the closest to the last; stops without coordinates last), " +
          'their `routePosition` written 1…n after the delivered ones, in one transaction as the signed-in user. ' +
          'Without a location in settings a 422 `delivery/no-origin`; a `date` outside the years 2000 to 2100 a 400 ' +
          '`days/out-of-range`. Admin and staff (`deliveries:assign`). ' +
          'Stops whose address was never looked up are placed on the map first (the configured geocoder, at most a few seconds). ' +
          'Answers the stop ids in their new order and `unplaced`, how many open stops had no coordinates (they go last). Takes an `Idempotency-Key`.',
        params: CompanyParams,
        headers: writeHeaders,
        body: RouteInput,
        response: {
          200: z.object({ data: RouteOrdered }),
        },
      },
    },
    async (req, reply) => {
      await service.placeStops(req.rc, req.body);
      return replaySafe(req, reply, {
        service: app.resources.get('orders'),
        action: 'update',
        companyId: req.params.companyId,
        status: 200,
        write: (scope) => service.route(req.rc, req.body, scope),
      });
    },
  );
}

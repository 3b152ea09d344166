import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CartParams,
  CheckoutHeaders,
  CheckoutInput,
  CompanyParams,
  DeliveryDaysQuery,
  GuestOrder,
  IDEMPOTENCY_HEADER,
  OfferedDay,
  OrderLinkParams,
  PlacedOrder,
  SuspiciousOrder,
} from '@hornada/domain';
import { asSent } from '../../resources/routes';
import { z } from 'zod';
import { publicReadLimit, writeLimit } from '../../plugins/rate-limit';
import type { OrdersService } from './orders.service';
import { openToGuests } from '../../plugins/auth';
import { holderOf } from '../carts';
import { requireShop } from '../../resources/shop-directory';
import { noStore } from '../../lib/no-store';

/**
 * Orders beyond the resource routes (docs/design.md §3): the days and windows offered (public), checkout
 * from a cart (its holder, with an Idempotency-Key), and a guest's order by its link. Staff create
 * and move orders through `/api/companies/{companyId}/orders`, whose writes run the same rules.
 */
export function registerOrderRoutes(app: FastifyInstance): OrdersService {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const service = app.modules.orders;
  const tags = ['orders'];

  r.get(
    '/api/companies/:companyId/delivery-days',
    {
      config: openToGuests(publicReadLimit(app).config),
      onRequest: noStore,
      schema: {
        tags,
        summary: 'Delivery days and windows offered, with places left',
        description:
          "Days in the company's time zone from `from` (today by default; an earlier day counts from today): " +
          'delivery weekdays that are not blackout dates, with the windows that start at least ' +
          '`orderLeadHours` from now; `remaining` is null for a window without capacity.',
        params: CompanyParams,
        querystring: DeliveryDaysQuery,
        response: { 200: z.object({ data: z.array(OfferedDay) }) },
      },
    },
    async (req) => ({ data: await service.deliveryDays(req.params.companyId, req.query.from, req.query.days) }),
  );

  r.post(
    '/api/carts/:id/checkout',
    {
      config: openToGuests(writeLimit(app).config),
      onRequest: noStore,
      // The order's row carries Date objects: sent as JSON as it is.
      serializerCompiler: asSent,
      schema: {
        tags,
        summary: 'Place a web order from a cart',
        description:
          "The cart's holder (`X-Session-Id`, or the signed-in customer it belongs to) with an `Idempotency-Key`. " +
          'Lines and prices come from the catalogue, the delivery fee and minimum order from the settings; the day ' +
          'and window must be offered by delivery-days. The same key and body return the same order; another ' +
          'body with that key, or a cart already checked out, is a 409. The answer carries `accessToken`, the ' +
          "guest's link to the order (`GET /api/orders/link/{token}`). A holder (session or customer), a phone " +
          'and a network address may each have a few unpaid web orders placed in one day (CHECKOUT_UNPAID_PER_*): ' +
          'past that a 429 `orders/too-many-unpaid` with `Retry-After`. One address may hold at most a share of a ' +
          "window's places with unpaid web orders (CHECKOUT_WINDOW_SHARE_PER_ADDRESS, half by default): past that a " +
          '429 `orders/window-share-taken` naming `window`. A total over 100,000,000 is a 422 ' +
          '`orders/total-too-large`; a day more than 62 days ahead a 422 `orders/beyond-horizon`. With ' +
          '`paymentMethod: "online"` (when the bakery\'s settings offer it) the order\'s payment is pending at the ' +
          'gateway and the answer adds `payment: {reference, checkoutUrl}`: the browser goes to `checkoutUrl`, ' +
          'which comes back to `/respuesta-de-pago?pedido={accessToken}`. While the shop says "Abrimos pronto" ' +
          '(its setup checklist unmet) a 422 `shops/opening`; staff still enter orders in the back office.',
        params: CartParams,
        headers: CheckoutHeaders,
        body: CheckoutInput,
        response: { 201: z.object({ data: PlacedOrder }) },
      },
    },
    async (req, reply) => {
      const headers = req.headers as Record<string, string | undefined>;
      const { createAccount, ...input } = req.body;
      const data = await service.checkout(
        await holderOf(req, true),
        req.params.id,
        headers[IDEMPOTENCY_HEADER]!,
        input,
        req.ip,
      );
      const email = input.contact.email;
      if (createAccount && !req.caller && email && data.companyId) {
        // In the background, and the same answer whether or not the address had an account.
        const companyId = data.companyId;
        void app.modules.identity
          .accountForGuest({ email, name: input.contact.name, companyId })
          .then((made) => made && app.modules.accountEmail.sendInvitation(made.user, made.token))
          .catch((err: unknown) => req.log.error({ err }, 'checkout account could not be made'));
      }
      return reply.status(201).send({ data });
    },
  );

  r.get(
    '/api/companies/:companyId/suspicious-orders',
    {
      onRequest: noStore,
      schema: {
        tags,
        summary: 'Web orders staff should look at',
        description:
          'Unpaid web orders due today or later that share their phone (digits only, the last ten) with at ' +
          'least two other unpaid web orders due the same day: a guest filling the windows with fake orders. ' +
          '`samePhone` counts them, this one included. For the back office (admin, staff); staff cancel them ' +
          'with the usual status move. At most 1,000, by due day and number.',
        params: CompanyParams,
        response: { 200: z.object({ data: z.array(SuspiciousOrder) }) },
      },
    },
    async (req) => ({ data: await service.suspicious(req.rc) }),
  );

  r.get(
    '/api/orders/link/:token',
    {
      config: openToGuests(publicReadLimit(app).config),
      onRequest: noStore,
      serializerCompiler: asSent,
      schema: {
        tags,
        summary: 'An order by its guest link (the token checkout returned)',
        params: OrderLinkParams,
        response: { 200: z.object({ data: GuestOrder.partial() }) },
      },
    },
    async (req, reply) =>
      reply.send({ data: await service.byLink(req.params.token, (await requireShop(req)).companyId) }),
  );

  return service;
}

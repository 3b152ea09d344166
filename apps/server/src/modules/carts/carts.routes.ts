import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  CART_LINE_READ_ONLY,
  CART_MAX_LINES,
  CART_READ_ONLY,
  Cart,
  CartCreateInput,
  CartInput,
  CartParams,
  ReorderAnswer,
  ReorderInput,
  SESSION_HEADER,
  SessionHeaders,
} from '@hornada/domain';
import { z } from 'zod';
import { writeLimit } from '../../plugins/rate-limit';
import type { Holder } from './carts.service';
import { openToGuests } from '../../plugins/auth';
import { requireShop } from '../../resources/shop-directory';
import { requireOpenShop } from '../shops';
import { noStore } from '../../lib/no-store';

const one = z.object({ data: Cart });

/**
 * What a GET returned may be sent back: its read-only fields, at the top and in each line, are dropped
 * before validation (docs/design.md §3), so a client's prices and totals are never read. Bounded: past
 * CART_MAX_LINES + 1 lines validation refuses the body anyway.
 */
function stripCartReadOnly(extra: readonly string[] = []) {
  const top = [...CART_READ_ONLY, ...extra];
  return async (request: FastifyRequest) => {
    const body = request.body;
    if (!body || typeof body !== 'object' || Array.isArray(body)) return;
    const record = body as Record<string, unknown>;
    for (const k of top) delete record[k];
    const items = record.items;
    if (!Array.isArray(items)) return;
    for (let i = 0; i < Math.min(items.length, CART_MAX_LINES + 1); i++) {
      const line: unknown = items[i];
      if (line && typeof line === 'object' && !Array.isArray(line)) {
        for (const k of CART_LINE_READ_ONLY) delete (line as Record<string, unknown>)[k];
      }
    }
  };
}

/**
 * The holder, in the bakery the request's host names (a host naming none: 404). `ordering`: the request
 * fills a cart or places an order, which a shop that says "Abrimos pronto" refuses (422 shops/opening).
 */
export const holderOf = async (req: FastifyRequest, ordering = false): Promise<Holder> => ({
  rc: req.rc,
  sessionId: (req.headers as Record<string, string | undefined>)[SESSION_HEADER],
  shopId: (await (ordering ? requireOpenShop : requireShop)(req)).companyId,
});

// A cart carries a contact and an address: no browser or proxy keeps a copy.

/** Carts (docs/design.md §3): create, read, replace, claim on sign-in, and the signed-in customer's latest. */
export function registerCartRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const service = app.modules.carts;
  const tags = ['carts'];
  const writes = writeLimit(app);
  const holderNote =
    `The holder proves itself with the \`X-Session-Id\` header (the browser's 20-character session id) ` +
    'or is the signed-in customer the cart belongs to; anyone else gets 404.';

  r.post(
    '/api/carts',
    {
      ...writes,
      config: openToGuests(writes.config),
      onRequest: noStore,
      preValidation: stripCartReadOnly(),
      schema: {
        tags,
        summary: 'Create a cart',
        description:
          'A guest sends `X-Session-Id`; a signed-in customer of the bakery gets the cart in their account. ' +
          'Names, prices and totals come from the catalogue and the settings; a product sent twice is merged. ' +
          'A holder keeps at most 5 open carts in a bakery: a new one closes the one written longest ago. ' +
          '`dueDate` is at most 62 days ahead (422 `orders/beyond-horizon`); carts untouched for 30 days are deleted. ' +
          'While the shop says "Abrimos pronto" (its setup checklist unmet) a 422 `shops/opening`.',
        headers: SessionHeaders,
        body: CartCreateInput,
        response: { 201: one },
      },
    },
    async (req, reply) => {
      const data = await service.create(await holderOf(req, true), req.body);
      // Abandoned carts go when they are due (at most once an hour): see cart-cleanup.ts.
      await app.modules.cartCleanup.runIfDue();
      return reply.status(201).send({ data });
    },
  );

  r.get(
    '/api/carts/mine',
    {
      onRequest: noStore,
      schema: {
        tags,
        summary: "The signed-in customer's latest open cart",
        description: '`{data: null}` when there is none.',
        response: { 200: z.object({ data: Cart.nullable() }) },
      },
    },
    async (req) => ({ data: await service.mine(req.rc, (await requireShop(req)).companyId) }),
  );

  r.get(
    '/api/carts/:id',
    {
      config: openToGuests(),
      onRequest: noStore,
      schema: {
        tags,
        summary: 'Read a cart',
        description: holderNote,
        headers: SessionHeaders,
        params: CartParams,
        response: { 200: one },
      },
    },
    async (req) => ({ data: await service.get(await holderOf(req), req.params.id) }),
  );

  r.put(
    '/api/carts/:id',
    {
      ...writes,
      config: openToGuests(writes.config),
      onRequest: noStore,
      // A cart never changes company: the companyId a GET returned is ignored like the other read-only fields.
      preValidation: stripCartReadOnly(['companyId']),
      schema: {
        tags,
        summary: 'Replace a cart',
        description:
          `${holderNote} Lines already saved stay when their product became unavailable (flagged); ` +
          'an unavailable product being added is a 422; while the shop says "Abrimos pronto", a 422 `shops/opening`.',
        headers: SessionHeaders,
        params: CartParams,
        body: CartInput,
        response: { 200: one },
      },
    },
    async (req) => ({ data: await service.replace(await holderOf(req, true), req.params.id, req.body) }),
  );

  r.post(
    '/api/carts/reorder',
    {
      ...writes,
      onRequest: noStore,
      schema: {
        tags,
        summary: "Order again: one of the signed-in customer's orders into their cart",
        description:
          'A customer bearer; `orderId` one of their own orders at this shop, `cartId` a cart they hold (or null: ' +
          'a new cart of theirs). One line a product: a product already in the cart keeps the larger of the two ' +
          'quantities (never doubled); products no longer on sale are left out. The answer names what was ' +
          "added, merged, skipped and what did not fit (100 lines). Another customer's order or cart is a 404; " +
          'an order none of whose products is on sale a 422 `cart/reorder-unavailable`.',
        headers: SessionHeaders,
        body: ReorderInput,
        response: { 200: z.object({ data: ReorderAnswer }) },
      },
    },
    async (req) => ({ data: await service.reorder(await holderOf(req, true), req.body) }),
  );

  r.post(
    '/api/carts/:id/claim',
    {
      ...writes,
      onRequest: noStore,
      schema: {
        tags,
        summary: "Move a guest's cart into the signed-in customer's account",
        description:
          'Needs the session that holds the cart (`X-Session-Id`) and a customer bearer. The cart becomes ' +
          "the customer's (the session alone no longer reads it); the lines of the customer's other open " +
          'carts are added in (quantities summed, at most 1,000 a line and 100 lines) and those carts removed.',
        headers: SessionHeaders,
        params: CartParams,
        response: { 200: one },
      },
    },
    async (req) => ({ data: await service.claim(await holderOf(req), req.params.id) }),
  );
}

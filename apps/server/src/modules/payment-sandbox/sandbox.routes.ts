import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { openToGuests } from '../../plugins/auth';
import { writeLimit } from '../../plugins/rate-limit';
import { paymentKeys, TRANSACTION_STATUSES } from '../../providers/payments';
import { CSS, CSS_PATH, ICON, ICON_PATH, checkoutPage, problemPage, returnUrl, transactionPage } from './sandbox.page';
import { PaymentSandbox, wompiShape, type CheckoutRequest } from './sandbox.service';

/** A form post is a few hundred bytes: the checkout's fields and a decision. */
const FORM_BODY_LIMIT = 8 * 1024;

/** Wompi Web Checkout's query (docs/design.md §3); numbers arrive as text. */
const CheckoutQuery = z.object({
  'public-key': z.string().min(1).max(200),
  currency: z.string().regex(/^[A-Z]{3}$/),
  'amount-in-cents': z
    .string()
    .regex(/^[1-9]\d{0,14}$/)
    .transform(Number),
  reference: z.string().min(1).max(200),
  'signature:integrity': z.string().min(1).max(200),
  'redirect-url': z.url({ protocol: /^https?$/ }).max(2000),
  'expiration-time': z.string().min(1).max(100).optional(),
});

const toRequest = (q: z.infer<typeof CheckoutQuery>): CheckoutRequest => ({
  publicKey: q['public-key'],
  currency: q.currency,
  amountInCents: q['amount-in-cents'],
  reference: q.reference,
  signature: q['signature:integrity'],
  redirectUrl: q['redirect-url'],
  expirationTime: q['expiration-time'],
});

const Decision = z.object({ decision: z.enum(['APPROVED', 'DECLINED', 'PENDING']) });
const LaterDecision = z.object({ decision: z.enum(['APPROVED', 'DECLINED']) });
const TransactionId = z.string().min(1).max(200);

const html = (reply: FastifyReply, status: number, body: string) =>
  reply.status(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(body);

/**
 * The sandbox gateway (PAYMENT_GATEWAY=sandbox only; app.ts): built once with the gateway's keys; its
 * events go to this app's own `/api/payments/events` through app.inject, so whichever instance serves
 * the page delivers them, listening or not.
 */
export async function createPaymentSandbox(app: FastifyInstance): Promise<PaymentSandbox> {
  const keys = await paymentKeys(app.ctx.config);
  return new PaymentSandbox(
    app.ctx,
    keys,
    async (body, checksum) => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/payments/events',
        headers: { 'content-type': 'application/json', 'x-event-checksum': checksum },
        payload: JSON.stringify(body),
      });
      return res.statusCode;
    },
    app.log,
  );
}

/**
 * The sandbox driver's fetch: the look-up (`{PUBLIC_URL}/api/pasarela-de-prueba/v1/…`) is answered by this
 * app through app.inject, not over the network, so it works in tests that do not listen and on an instance
 * that cannot reach its own public address (behind a proxy). The same route and shape Wompi's driver reads.
 */
export function sandboxFetch(app: FastifyInstance): typeof fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const res = await app.inject({
      method: 'GET',
      url: `${url.pathname}${url.search}`,
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
    });
    return new Response(res.rawPayload, {
      status: res.statusCode,
      headers: { 'content-type': String(res.headers['content-type'] ?? 'application/json') },
    });
  };
}

/**
 * The sandbox's hosted checkout (`/pasarela-de-prueba`, HTML, no script: forms post back and the server
 * redirects 303 as Wompi does) and its transactions' look-up in Wompi's shape (open to anyone, as
 * Wompi's public look-up is).
 */
export function registerPaymentSandboxRoutes(app: FastifyInstance, sandbox: PaymentSandbox): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  sandbox.start();
  app.addHook('onClose', () => sandbox.stop());
  // The pages post plain HTML forms; this part's parser only (the API stays JSON).
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
    (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  r.get(CSS_PATH, { schema: { hide: true } }, (_req, reply) =>
    reply.header('cache-control', 'public, max-age=3600').type('text/css; charset=utf-8').send(CSS),
  );
  r.get(ICON_PATH, { schema: { hide: true } }, (_req, reply) =>
    reply.header('cache-control', 'public, max-age=86400').type('image/svg+xml').send(ICON),
  );

  // The integrity signature does not cover `redirect-url`: only this app's own pages are gone back to,
  // or the sandbox would send a buyer wherever a forged link says (an open redirect). Its pages are
  // PUBLIC_URL's and every existing shop's: `{slug}.{host}` or a bakery's custom domain, on PUBLIC_URL's
  // protocol and port (the shop directory builds a shop's origin so; any other is none of ours).
  const ownOrigin = new URL(app.ctx.config.publicUrl).origin;
  const isOurs = async (origin: string): Promise<boolean> => {
    if (origin === ownOrigin) return true;
    const shop = await app.ctx.shops.resolve(new URL(origin).host);
    return shop !== null && shop.companyId !== null && shop.origin === origin;
  };

  /** A checkout query checked as Wompi checks it; the refusal page when it is not one. */
  const checked = async (reply: FastifyReply, query: unknown): Promise<CheckoutRequest | null> => {
    const parsed = CheckoutQuery.safeParse(query);
    if (!parsed.success) {
      await html(reply, 400, problemPage('invalid'));
      return null;
    }
    if (!(await isOurs(new URL(parsed.data['redirect-url']).origin))) {
      await html(reply, 400, problemPage('redirect'));
      return null;
    }
    const req = toRequest(parsed.data);
    const problem = sandbox.check(req);
    if (problem) {
      await html(reply, 400, problemPage(problem));
      return null;
    }
    return req;
  };

  r.get('/pasarela-de-prueba', { schema: { hide: true } }, async (req, reply) => {
    const checkout = await checked(reply, req.query);
    if (!checkout) return reply;
    // The form's answer redirects to `redirect-url`, which CSP's form-action must allow (browsers check
    // a form's redirects too): the shop's origin (checked above), which may not be the one this page is served at.
    const csp = reply.raw.getHeader('content-security-policy');
    if (typeof csp === 'string') {
      void reply.header(
        'content-security-policy',
        csp.replace("form-action 'self'", `form-action 'self' ${new URL(checkout.redirectUrl).origin}`),
      );
    }
    return html(reply, 200, checkoutPage(checkout, await sandbox.bakeryOf(checkout.reference)));
  });

  r.post('/pasarela-de-prueba', { ...writeLimit(app), schema: { hide: true } }, async (req, reply) => {
    const checkout = await checked(reply, req.body);
    if (!checkout) return reply;
    const decision = Decision.safeParse(req.body);
    if (!decision.success) return html(reply, 400, problemPage('invalid'));
    const t = await sandbox.create(checkout, decision.data.decision);
    return reply.redirect(returnUrl(t), 303);
  });

  r.get('/pasarela-de-prueba/transacciones/:id', { schema: { hide: true } }, async (req, reply) => {
    const id = TransactionId.safeParse((req.params as { id: string }).id);
    const t = id.success ? await sandbox.get(id.data) : null;
    if (!t) return html(reply, 404, problemPage('not-found'));
    return html(reply, 200, transactionPage(t, await sandbox.bakeryOf(t.reference)));
  });

  r.post(
    '/pasarela-de-prueba/transacciones/:id',
    { ...writeLimit(app), schema: { hide: true } },
    async (req, reply) => {
      const id = TransactionId.safeParse((req.params as { id: string }).id);
      const decision = LaterDecision.safeParse(req.body);
      if (!id.success || !(await sandbox.get(id.data))) return html(reply, 404, problemPage('not-found'));
      if (!decision.success) return html(reply, 400, problemPage('invalid'));
      const t = await sandbox.decide(id.data, decision.data.decision);
      if (!t) return html(reply, 409, problemPage('decided'));
      // Back to the transaction, now decided; from there "Volver al comercio".
      return reply.redirect(`/pasarela-de-prueba/transacciones/${encodeURIComponent(t.id)}`, 303);
    },
  );

  const WompiShape = z.looseObject({
    id: z.string(),
    reference: z.string(),
    amount_in_cents: z.number(),
    currency: z.string(),
    status: z.enum(TRANSACTION_STATUSES),
  });

  r.get(
    '/api/pasarela-de-prueba/v1/transactions',
    {
      // The bearer here is the gateway's private key, never a user's token: the app's sign-in leaves it alone.
      config: openToGuests({ ignoreBearer: true }),
      schema: {
        tags: ['payments'],
        summary: "The sandbox gateway's transactions of a reference, in Wompi's search shape",
        description:
          "Only with `PAYMENT_GATEWAY=sandbox`. As Wompi's `GET /v1/transactions?reference=`: the merchant's " +
          'private key as `Authorization: Bearer prv_…` (else a 401 `INVALID_ACCESS_TOKEN`), and ' +
          "`{data: [...]}`, the reference's transactions oldest first (none: an empty list).",
        querystring: z.object({ reference: z.string().min(1).max(200) }),
        headers: z.looseObject({ authorization: z.string().max(500).optional() }),
        response: {
          200: z.object({ data: z.array(WompiShape) }),
          401: z.object({ error: z.object({ type: z.literal('INVALID_ACCESS_TOKEN'), reason: z.string() }) }),
        },
      },
    },
    async (req, reply) => {
      void reply.header('cache-control', 'no-store');
      if (!sandbox.authorizes(req.headers.authorization)) {
        return reply.status(401).send({
          error: { type: 'INVALID_ACCESS_TOKEN' as const, reason: 'Se esperaba una llave privada válida' },
        });
      }
      return { data: (await sandbox.byReference(req.query.reference)).map(wompiShape) };
    },
  );

  r.get(
    '/api/pasarela-de-prueba/v1/transactions/:id',
    {
      config: openToGuests(),
      schema: {
        tags: ['payments'],
        summary: "The sandbox gateway's transaction, in Wompi's look-up shape",
        description:
          'Only with `PAYMENT_GATEWAY=sandbox`. `{data: {id, reference, amount_in_cents, currency, status, …}}` ' +
          "as Wompi's `GET /v1/transactions/{id}` answers; an unknown id is a 404 `NOT_FOUND_ERROR` as Wompi's.",
        params: z.object({ id: TransactionId }),
        response: {
          200: z.object({ data: WompiShape }),
          404: z.object({ error: z.object({ type: z.literal('NOT_FOUND_ERROR'), reason: z.string() }) }),
        },
      },
    },
    async (req, reply) => {
      void reply.header('cache-control', 'no-store');
      const t = await sandbox.get(req.params.id);
      if (!t) {
        return reply
          .status(404)
          .send({ error: { type: 'NOT_FOUND_ERROR' as const, reason: 'La entidad solicitada no existe' } });
      }
      return { data: wompiShape(t) };
    },
  );
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The sandbox gateway, when PAYMENT_GATEWAY=sandbox (modules/payment-sandbox). */
    paymentSandbox?: PaymentSandbox;
  }
}

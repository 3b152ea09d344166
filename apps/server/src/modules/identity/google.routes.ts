import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { GoogleAuthInput, GoogleExchangeInput, GoogleStartQuery, IdentitySession, Registered } from '@hornada/domain';
import { z } from 'zod';
import { notFound } from '../../lib/errors';
import { writeLimit } from '../../plugins/rate-limit';
import { Attempts, countGate, SIGNIN_WINDOW_MS } from './attempts';
import {
  GOOGLE_BROWSER_COOKIE,
  GOOGLE_FLOW_COOKIE,
  GOOGLE_FLOW_TTL_MS,
  GOOGLE_RETURN_PAGE,
  GoogleSignInError,
  type GoogleFailure,
} from './google.service';
import type { IdentityService, SignedIn } from './identity.service';
import { requireShop } from '../../resources/shop-directory';

const FLOW_COOKIE_PATH = '/api/identity/google';

/** Sign-in with Google (docs/design.md §3): start, callback, the code exchange, and docs/product.md §7's google-auth. */
export function registerGoogleRoutes(
  app: FastifyInstance,
  identity: IdentityService,
  session: {
    cookieOptions: { httpOnly: boolean; secure: boolean; sameSite: 'lax'; path: string };
    send: (reply: FastifyReply, s: SignedIn) => { data: IdentitySession };
  },
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['identity'];
  const { config } = app.ctx;
  const google = app.modules.google;
  const enabled = () => {
    if (!google) throw notFound('Google sign-in is not configured');
    return google;
  };
  const flowCookie = { ...session.cookieOptions, path: FLOW_COOKIE_PATH };
  const page = (query: Record<string, string>) =>
    `${config.publicUrl}${GOOGLE_RETURN_PAGE}?${new URLSearchParams(query).toString()}`;
  const failed = (reason: GoogleFailure) => page({ error: reason });
  const attempts = new Attempts(app.ctx.db, app.ctx.clock);
  const ignoreBearer = { ignoreBearer: true };

  r.get(
    '/api/identity/google/start',
    {
      config: ignoreBearer,
      schema: {
        tags,
        summary: 'Start signing in with Google (redirects to the provider)',
        description:
          '`redirect`: a path on this site to open afterwards; anything else is dropped (the landing page of the user opens).',
        querystring: GoogleStartQuery,
        response: { 302: z.null().describe("To the provider's sign-in, or to the return page with ?error=") },
      },
    },
    async (req, reply) => {
      const g = enabled();
      void reply.header('cache-control', 'no-store');
      try {
        const { url, cookie, browserCookie } = await g.start(req.query.redirect);
        void reply.setCookie(GOOGLE_FLOW_COOKIE, cookie, { ...flowCookie, maxAge: GOOGLE_FLOW_TTL_MS / 1000 });
        // Outlives the flow cookie (cleared at the callback): the exchange checks it.
        void reply.setCookie(GOOGLE_BROWSER_COOKIE, browserCookie, {
          ...flowCookie,
          maxAge: GOOGLE_FLOW_TTL_MS / 1000,
        });
        return reply.redirect(url, 302);
      } catch (err) {
        app.log.error({ err }, 'Google sign-in could not start');
        return reply.redirect(failed('provider'), 302);
      }
    },
  );

  r.get(
    '/api/identity/google/callback',
    {
      config: ignoreBearer,
      schema: {
        tags,
        summary: "The provider's redirect back; hands the web app a code",
        response: { 302: z.null().describe('To the return page (/acceso/google) with ?code=, or with ?error=') },
      },
    },
    async (req, reply) => {
      const g = enabled();
      void reply.header('cache-control', 'no-store');
      void reply.clearCookie(GOOGLE_FLOW_COOKIE, flowCookie);
      try {
        return reply.redirect(`${config.publicUrl}${await g.callback(req.url, req.cookies[GOOGLE_FLOW_COOKIE])}`, 302);
      } catch (err) {
        if (err instanceof GoogleSignInError) return reply.redirect(failed(err.reason), 302);
        app.log.error({ err }, 'Google sign-in failed');
        return reply.redirect(failed('provider'), 302);
      }
    },
  );

  r.post(
    '/api/identity/google/exchange',
    {
      config: ignoreBearer,
      schema: {
        tags,
        summary: 'Exchange the single-use code (60 s) for an id token and the refresh cookie',
        description:
          'Only in the browser that started the flow (its cookie from `start`); elsewhere a 403 `auth/google-other-browser`.',
        body: GoogleExchangeInput,
        response: { 200: z.object({ data: IdentitySession }) },
      },
    },
    async (req, reply) => {
      const g = enabled();
      void reply.header('cache-control', 'no-store');
      const { signInPerAddress } = config.rateLimits;
      await attempts.admitOrThrow([countGate(`signin-ip:${req.ip}`, signInPerAddress, SIGNIN_WINDOW_MS)]);
      const { userId } = await g.exchange(req.body.code, req.cookies[GOOGLE_BROWSER_COOKIE]);
      return session.send(reply, await identity.startVerifiedSession(userId));
    },
  );

  r.post(
    '/api/auth/google-auth',
    {
      ...writeLimit(app),
      schema: {
        tags,
        summary: 'Backend sign-in after Google (docs/product.md §7): registers a new user as a customer of the market',
        body: GoogleAuthInput,
        response: {
          200: z.object({
            data: z.object({
              registered: z.boolean(),
              user: Registered.shape.user.extend({ emailVerified: z.boolean() }),
            }),
          }),
        },
      },
    },
    async (req) => ({
      // A new shopper joins the bakery whose shop they signed in at (docs/design.md §4).
      data: await enabled().googleAuth(req.rc, req.body.email, (await requireShop(req)).companyId),
    }),
  );
}

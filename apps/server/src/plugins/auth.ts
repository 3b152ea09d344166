import { reachesCompany } from '@hornada/domain';
import type { FastifyContextConfig, FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, notFound, unauthenticated } from '../lib/errors';
import type { Caller } from '../context';
import { issuedBeforeSessionsEnded } from '../lib/sessions';
import { VerifiedTokens } from '../lib/verified-tokens';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * A signed-in request whose caches were shown current when it arrived (every change committed
     * before it had reached this instance's caches): only such a request reads or fills the
     * signed-in read cache. False for guests, and when the change feed could not tell in time.
     */
    cachesCurrent: boolean;
  }
  interface FastifyContextConfig {
    /**
     * The route never reads the bearer (sign-in, refresh, sign-out, keys): the client attaches its
     * stored token to every call (docs/product.md §7), and an expired one must not break the refresh that
     * replaces it.
     */
    ignoreBearer?: boolean;
    /**
     * Who may call an /api route. By default only a signed-in user (the door is shut unless a route opens
     * it): a guest gets a 401, and a user of another company a 404 on /api/companies/{companyId}/…, before
     * the body is read. `public`: a guest too, the handler narrowing (public reads, carts, recovery).
     * A route that ignores the bearer is public.
     */
    access?: 'public' | 'signedIn';
    /** The message of the guest's 401 where the spec names one. */
    guestMessage?: string;
  }
}

/** A route's config that opens it to guests (`access: 'public'`), keeping what else it holds. */
export function openToGuests(config?: FastifyContextConfig): FastifyContextConfig {
  return { ...config, access: 'public' };
}

/**
 * The one authentication hook: verify the bearer id token, then read the user it names.
 * Role, company and the disabled flag come from the database (through the user directory the change
 * feed keeps exact), never from the token's claims. Before the user is read, the change feed shows
 * that this instance has every change committed before the request (LiveFeed.caughtUp): a role
 * change, a disabled account or ended sessions written on another instance bite here at once, and
 * the same user's writes there are seen by its reads here.
 * Routes marked `ignoreBearer` skip it; everywhere else an invalid bearer is a 401, even where a guest
 * may call: that 401 is how the client learns to drop its stored token (docs/product.md §8).
 */
export function registerAuth(app: FastifyInstance): void {
  app.decorateRequest('caller', null);
  app.decorateRequest('cachesCurrent', false);
  const tokens = new VerifiedTokens(app.ctx.keys);
  // Callback style: a guest's request (no header) passes without a promise, on the hot path of
  // cached public reads.
  app.addHook('onRequest', (request: FastifyRequest, _reply, done) => {
    // Decided on the route the router matched, not on the raw URL: `/%61pi/me` is `/api/me` to the router.
    if (!request.routeOptions.url?.startsWith('/api/')) return done();
    const config = request.routeOptions.config;
    const open = config?.ignoreBearer || config?.access === 'public';
    const header = request.headers.authorization;
    if (!header) return done(open ? undefined : unauthenticated(config?.guestMessage));
    if (config?.ignoreBearer) return done();
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match) return done(new AppError(401, 'auth/invalid-token', 'Authorization header must be "Bearer <token>"'));
    // Sent first: the head of the log is read while the token is checked.
    const current = app.ctx.live.caughtUp();
    loadCaller(app, tokens, match[1]!, current).then(({ caller, cachesCurrent }) => {
      request.caller = caller;
      request.cachesCurrent = cachesCurrent;
      done(open ? undefined : doorFor(caller, request.params));
    }, done);
  });
}

/**
 * A signed-in route of a company's path is another company's to a user of none of it: a 404, as the
 * services answer (its existence not confirmed), decided before the body is read.
 */
function doorFor(caller: Caller, params: unknown): AppError | undefined {
  const companyId = (params as { companyId?: unknown } | undefined)?.companyId;
  if (typeof companyId !== 'string') return undefined;
  return reachesCompany(caller, companyId) ? undefined : notFound();
}

async function loadCaller(
  app: FastifyInstance,
  tokens: VerifiedTokens,
  token: string,
  current: Promise<boolean>,
): Promise<{ caller: Caller; cachesCurrent: boolean }> {
  const { users, clock } = app.ctx;
  let claims: Awaited<ReturnType<typeof tokens.verify>>;
  try {
    claims = await tokens.verify(token, clock.now());
  } catch {
    throw new AppError(401, 'auth/invalid-token', 'Invalid or expired token');
  }
  const cachesCurrent = await current;
  const user = await (cachesCurrent ? users.get(claims.sub) : users.reload(claims.sub));
  if (!user || user.deleted) throw new AppError(401, 'auth/invalid-token', 'Invalid or expired token');
  if (user.disabled) throw new AppError(401, 'auth/user-disabled', 'This account has been disabled.');
  // Issued before a password change or a sign-out everywhere (modules/identity/sessions.ts).
  if (issuedBeforeSessionsEnded(claims.iat, user.sessionsValidFrom)) {
    throw new AppError(401, 'auth/invalid-token', 'Session expired, sign in again');
  }
  return {
    caller: {
      uid: user.uid,
      email: user.email,
      name: user.name,
      role: user.role,
      companyId: user.companyId,
      tokenIssuedAt: claims.iat ?? 0,
    },
    cachesCurrent,
  };
}

import { reachesCompany } from '@hornada/domain';
import type { FastifyContextConfig, FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, notFound, unauthenticated } from '../lib/errors';
import type { Caller } from '../context';
import { issuedBeforeSessionsEnded } from '../lib/sessions';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route never reads the bearer (sign-in, refresh, sign-out, keys): the client attaches its
     * stored token to every call (spec §7), and an expired one must not break the refresh that
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
 * Role, company and the disabled flag come from the database, never from the token's claims.
 * Routes marked `ignoreBearer` skip it; everywhere else an invalid bearer is a 401, even where a guest
 * may call: that 401 is how the client learns to drop its stored token (spec §8).
 */
export function registerAuth(app: FastifyInstance): void {
  app.decorateRequest('caller', null);
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
    loadCaller(app, match[1]!).then((caller) => {
      request.caller = caller;
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

async function loadCaller(app: FastifyInstance, token: string): Promise<Caller> {
  const { keys, users, clock } = app.ctx;
  let claims: Awaited<ReturnType<typeof keys.verify>>;
  try {
    claims = await keys.verify(token, clock.now());
  } catch {
    throw new AppError(401, 'auth/invalid-token', 'Invalid or expired token');
  }
  const user = await users.get(claims.sub);
  if (!user || user.deleted) throw new AppError(401, 'auth/invalid-token', 'Invalid or expired token');
  if (user.disabled) throw new AppError(401, 'auth/user-disabled', 'This account has been disabled.');
  // Issued before a password change or a sign-out everywhere (modules/identity/sessions.ts).
  if (issuedBeforeSessionsEnded(claims.iat, user.sessionsValidFrom)) {
    throw new AppError(401, 'auth/invalid-token', 'Session expired, sign in again');
  }
  return {
    uid: user.uid,
    email: user.email,
    name: user.name,
    role: user.role,
    companyId: user.companyId,
    tokenIssuedAt: claims.iat ?? 0,
  };
}

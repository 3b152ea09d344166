import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hasCapability, reachesCompany, type Capability } from '@hornada/domain';
import type { AppContext, Caller } from './context';
import type { Clock } from './lib/clock';
import { forbidden, notFound, unauthenticated } from './lib/errors';

/** The shop a host names, as the app's shop directory answers it (context.ts `shops`). */
type Shop = NonNullable<Awaited<ReturnType<AppContext['shops']['resolve']>>>;

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The request's context. Not `context` (Fastify's own until v5, its route config now lives in
     * `routeOptions`) nor `requestContext` (@fastify/request-context's name): `rc`, which clashes with neither.
     */
    rc: RequestContext;
  }
}

/**
 * Who acts, on which company, through which shop and at what instant: made once per request (or by the
 * server for its own work) and never changed, so every service a request calls sees the same answers. The
 * app-wide parts (database, caches, clock) stay in AppContext.
 */
export class RequestContext {
  private shopRead: Promise<Shop | null> | null = null;

  private constructor(
    /** The signed-in user, or null for a guest (and for the server's own work). */
    readonly caller: Caller | null,
    /** The company the route's `:companyId` names, or null where it names none. */
    readonly companyId: string | null,
    /** The request's instant: one time for everything the request does. */
    readonly now: Date,
    private readonly readShop: () => Promise<Shop | null>,
  ) {}

  /** The context of a request, once its caller is known (plugins/auth.ts). */
  static of(req: FastifyRequest, app: AppContext): RequestContext {
    const companyId = (req.params as { companyId?: unknown } | undefined)?.companyId;
    return new RequestContext(req.caller, typeof companyId === 'string' ? companyId : null, app.clock.now(), () =>
      app.shops.resolve(req.host),
    );
  }

  /**
   * A context the server makes for itself (jobs, the seed, tests): a caller when it acts for one, the
   * company it works on, the instant (the app clock's now by default) and the shop (none by default).
   */
  static forSystem(
    clock: Clock,
    opts: { caller?: Caller | null; companyId?: string | null; now?: Date; shop?: Shop | null } = {},
  ): RequestContext {
    const shop = Promise.resolve(opts.shop ?? null);
    return new RequestContext(opts.caller ?? null, opts.companyId ?? null, opts.now ?? clock.now(), () => shop);
  }

  /**
   * The company the route names. Asked only by services of company routes, whose path always carries
   * one: its absence is a wiring error, not the client's.
   */
  company(): string {
    if (this.companyId === null) throw new Error('This request names no company');
    return this.companyId;
  }

  /** The bakery the request's host names: read on first use only (most requests never ask), then kept. */
  shop(): Promise<Shop | null> {
    this.shopRead ??= this.readShop();
    return this.shopRead;
  }
}

/**
 * The signed-in caller of the company the route names, when its role has `capability`: else a 401, a 404 for
 * another company (its existence not confirmed) or a 403 saying `refused`.
 */
export function companyMember(
  rc: RequestContext,
  capability: Capability,
  refused: string,
): { caller: Caller; companyId: string } {
  const { caller } = rc;
  const companyId = rc.company();
  if (!caller) throw unauthenticated();
  if (!reachesCompany(caller, companyId)) throw notFound();
  if (!hasCapability(caller.role, capability)) throw forbidden(refused);
  return { caller, companyId };
}

/** Gives every request its context, after the authentication hook has read its caller. */
export function registerRequestContext(app: FastifyInstance): void {
  app.decorateRequest('rc', null as unknown as RequestContext);
  const ctx = app.ctx;
  app.addHook('onRequest', (req, _reply, done) => {
    req.rc = RequestContext.of(req, ctx);
    done();
  });
}

import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, RouteShorthandOptions } from 'fastify';
import { AppError } from '../lib/errors';

type Counted = { current: number; ttl: number };

/**
 * One fixed-window counter space for every route. @fastify/rate-limit's own store gives each route a
 * store of its own (`child`), so a group such as 'writes' would count per route and a user could make
 * RATE_LIMIT_WRITES writes on each route a minute; the key (caller + group) must count across routes.
 */
class SharedWindowStore {
  private static readonly MAX_KEYS = 100_000;
  private readonly windows = new Map<string, { current: number; start: number }>();

  // The plugin calls incr(key, cb, timeWindow, max); its type declares only the first two.
  incr(key: string, cb: (err: Error | null, res?: Counted) => void, ...rest: unknown[]): void {
    const timeWindow = Number(rest[0]);
    const now = Date.now();
    let w = this.windows.get(key);
    if (!w || w.start + timeWindow <= now) w = { current: 0, start: now };
    w.current++;
    // Re-inserted, so the Map's order is least recently counted first; the oldest go past the bound.
    this.windows.delete(key);
    this.windows.set(key, w);
    if (this.windows.size > SharedWindowStore.MAX_KEYS) this.windows.delete(this.windows.keys().next().value!);
    cb(null, { current: w.current, ttl: w.start + timeWindow - now });
  }

  child(): SharedWindowStore {
    return this;
  }
}

/**
 * Rate limits (design §2): writes per user (or address when anonymous) per minute; public reads per
 * address, with a default far above what one instance serves (they come from memory; a proxy in
 * front guards real floods). Limits are route options, so each route says what it counts. Sign-in
 * limits belong to the identity module.
 */
export async function registerRateLimits(app: FastifyInstance): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    store: SharedWindowStore,
    // After authentication, so a write is counted against its user.
    hook: 'preHandler',
    errorResponseBuilder: (_req, ctx) =>
      new AppError(429, 'rate_limited', `Too many requests, try again in ${Math.ceil(ctx.ttl / 1000)} s`),
  });
}

/** Who a per-caller limit counts: the signed-in user, else the address. */
export const callerKey = (req: FastifyRequest) => (req.caller ? `u:${req.caller.uid}` : `ip:${req.ip}`);

export function writeLimit(app: FastifyInstance): Pick<RouteShorthandOptions, 'config'> {
  const max = app.ctx.config.rateLimits.writesPerMinute;
  if (max <= 0) return {};
  return { config: { rateLimit: { max, timeWindow: 60_000, keyGenerator: callerKey, groupId: 'writes' } } };
}

export function publicReadLimit(app: FastifyInstance): Pick<RouteShorthandOptions, 'config'> {
  const max = app.ctx.config.rateLimits.publicReadsPerMinute;
  if (max <= 0) return {};
  return {
    // onRequest: counted before a cached answer can be sent from the route's preParsing hook.
    config: {
      rateLimit: {
        max,
        timeWindow: 60_000,
        keyGenerator: (req) => `ip:${req.ip}`,
        groupId: 'reads',
        hook: 'onRequest',
      },
    },
  };
}

/**
 * The gateway's events, per address, counted before the body is read (a forged flood costs no parsing);
 * a refused event is retried by the gateway later, and reconciliation asks about what it missed.
 */
export function paymentEventsLimit(app: FastifyInstance): Pick<RouteShorthandOptions, 'config'> {
  const max = app.ctx.config.rateLimits.paymentEventsPerMinute;
  if (max <= 0) return {};
  return {
    config: {
      rateLimit: {
        max,
        timeWindow: 60_000,
        keyGenerator: (req) => `ip:${req.ip}`,
        groupId: 'payment-events',
        hook: 'onRequest',
      },
    },
  };
}

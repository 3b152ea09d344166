import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, RouteShorthandOptions } from 'fastify';
import { AppError } from '../lib/errors';

/**
 * Rate limits (design §2): writes per user (or address when anonymous) per minute; public reads per
 * address, with a default far above what one instance serves (they come from memory; a proxy in
 * front guards real floods). Limits are route options, so each route says what it counts. Sign-in
 * limits belong to the identity module.
 */
export async function registerRateLimits(app: FastifyInstance): Promise<void> {
  await app.register(rateLimit, {
    global: false,
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

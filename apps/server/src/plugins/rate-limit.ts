import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { Db } from '../db';
import { AppError } from '../lib/errors';
import { withJobLock } from '../lib/job-lock';

type Counted = { current: number; ttl: number };
type Incr = (key: string, cb: (err: Error | null, res?: Counted) => void, ...rest: unknown[]) => void;

/** The group whose counts stay in each instance's memory (see sharedStore). */
const READS_GROUP = 'reads';

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
 * Counts in PostgreSQL (table rate_windows), so every instance on the database shares one count per
 * caller and group: three instances do not triple a limit. One upsert a counted request, the window
 * judged by the database's clock (one clock for every instance). Public reads are the exception: they
 * are served from memory without touching the database, so a statement each would cost more than the
 * read; their per-address bound is a flood guard of each instance (and the proxy's in front).
 */
function sharedStore(db: Db) {
  return class PgWindowStore {
    private readonly local = new SharedWindowStore();

    incr: Incr = (key, cb, ...rest) => {
      if (key.endsWith(READS_GROUP)) return this.local.incr(key, cb, ...rest);
      const timeWindow = Number(rest[0]);
      db.$client
        .query<{ count: number; ttl: string }>(
          `INSERT INTO rate_windows AS w (key, started_at, count) VALUES ($1, clock_timestamp(), 1)
           ON CONFLICT (key) DO UPDATE SET
             count = CASE WHEN w.started_at <= clock_timestamp() - $2 * interval '1 millisecond' THEN 1 ELSE w.count + 1 END,
             started_at = CASE WHEN w.started_at <= clock_timestamp() - $2 * interval '1 millisecond'
               THEN clock_timestamp() ELSE w.started_at END
           RETURNING count, ceil(extract(epoch FROM (started_at + $2 * interval '1 millisecond' - clock_timestamp())) * 1000) AS ttl`,
          [key, timeWindow],
        )
        .then(
          (r) => cb(null, { current: r.rows[0]!.count, ttl: Math.max(0, Number(r.rows[0]!.ttl)) }),
          (err: Error) => cb(err),
        );
    };

    child(): PgWindowStore {
      return this;
    }
  };
}

/** Deletes windows that ended an hour ago or more (the longest window is a minute); how many. */
export async function pruneRateWindows(db: Db): Promise<number> {
  const r = await db.$client.query("DELETE FROM rate_windows WHERE started_at < clock_timestamp() - interval '1 hour'");
  return r.rowCount ?? 0;
}

/**
 * Rate limits (docs/design.md §2): writes per user (or address when anonymous) per minute; public reads per
 * address, with a default far above what one instance serves (they come from memory; a proxy in
 * front guards real floods). Limits are route options, so each route says what it counts. Sign-in
 * limits belong to the identity module.
 */
export async function registerRateLimits(app: FastifyInstance): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    store: sharedStore(app.ctx.db),
    // A count that cannot be made (the database down) lets the request on: it fails there with a 503.
    skipOnError: true,
    // After authentication, so a write is counted against its user.
    hook: 'preHandler',
    errorResponseBuilder: (_req, ctx) =>
      new AppError(429, 'rate_limited', `Too many requests, try again in ${Math.ceil(ctx.ttl / 1000)} s`),
  });
  // Ended windows are deleted every hour, by one instance at a time.
  const pruning = setInterval(() => {
    withJobLock(app.ctx.db, 'rate-windows-prune', () => pruneRateWindows(app.ctx.db)).catch((err: unknown) =>
      app.log.warn({ err }, 'rate windows prune failed'),
    );
  }, 3_600_000);
  pruning.unref();
  app.addHook('onClose', async () => clearInterval(pruning));
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

import type pg from 'pg';

/**
 * Keeps the pool whole when connections die under it (PostgreSQL restarted, a backend terminated).
 *
 * - pg-pool leaves a checked-out client without an 'error' listener: a connection lost between two
 *   statements of a transaction would be an uncaught exception. Here the statement in progress, or the
 *   next one, fails instead.
 * - drizzle-orm 0.45's node-postgres transaction() runs BEGIN before the try/finally that releases the
 *   client (drizzle-team/drizzle-orm#6023, open): a BEGIN on a connection that just died never returns
 *   the client. Ten of those (a restart under load) starve the pool, and a shutdown waits forever in
 *   pool.end(). Here a checked-out client whose connection ends is released at once (pg-pool drops it,
 *   as it is no longer queryable); its holder's own release later is then a no-op.
 */
export function guardPool(pool: pg.Pool): void {
  pool.on('connect', (client: pg.PoolClient) => {
    client.on('error', () => {});
    // pg-pool sets client.release afresh at every checkout (after 'connect'): wrap each one.
    let release: pg.PoolClient['release'] | undefined;
    let out = false;
    Object.defineProperty(client, 'release', {
      configurable: true,
      get: () => release,
      set(fn: pg.PoolClient['release']) {
        out = true;
        release = (err) => {
          if (!out) return;
          out = false;
          fn(err);
        };
      },
    });
    client.on('end', () => {
      if (out) release?.(new Error('the connection to PostgreSQL ended'));
    });
  });
}

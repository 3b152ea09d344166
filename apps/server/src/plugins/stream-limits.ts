import type { FastifyRequest } from 'fastify';
import type { Db } from '../db';
import { AppError } from '../lib/errors';
import { newId } from '../lib/ids';

/** How often an instance stamps its open streams as alive. */
const HEARTBEAT_MS = 20_000;
/** A stream row not stamped for this long belongs to an instance that died: it no longer counts. */
const STALE_SECONDS = 60;

/**
 * Caps on open change streams (docs/design.md §3), counted in PostgreSQL (table live_streams, one row a stream)
 * so that a caller's streams count on every instance alike: a signed-in caller's against its account
 * wherever they come from, a guest's against its address. Signed-in streams are not counted by address,
 * since a mobile carrier puts many phones behind one address. Each instance stamps its own rows while it
 * lives; rows of an instance killed without closing them stop counting after STALE_SECONDS.
 */
export class StreamLimits {
  private readonly instance = newId();
  private timer: NodeJS.Timeout | null = null;
  /** Rows whose delete failed (the database away for a moment): deleted again at the next beat. */
  private readonly orphans = new Set<string>();

  constructor(
    private readonly db: Db,
    private readonly limits: { perUser: number; perAddress: number },
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.beat().catch(() => {}), HEARTBEAT_MS);
    this.timer.unref();
  }

  /** Stops stamping and deletes this instance's rows (its streams end with it). */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.db.$client.query('DELETE FROM live_streams WHERE instance = $1', [this.instance]).catch(() => {});
  }

  private async beat(): Promise<void> {
    if (this.orphans.size > 0) {
      const ids = [...this.orphans];
      await this.db.$client.query('DELETE FROM live_streams WHERE id = ANY($1)', [ids]);
      for (const id of ids) this.orphans.delete(id);
    }
    await this.db.$client.query('UPDATE live_streams SET seen_at = clock_timestamp() WHERE instance = $1', [
      this.instance,
    ]);
    // Dead instances' rows, long stale, go (any instance may; deleting twice deletes nothing more).
    await this.db.$client.query(
      "DELETE FROM live_streams WHERE seen_at < clock_timestamp() - interval '1 hour' AND instance <> $1",
      [this.instance],
    );
  }

  /**
   * Counts one more stream of the request's caller and returns what uncounts it (safe to call twice),
   * or throws a 429 when the caller already holds its limit. The count and the insert run under the
   * holder's transaction advisory lock, so two instances admitting at once cannot both take the last place.
   */
  async acquire(req: FastifyRequest): Promise<() => void> {
    const holder = req.caller ? `u:${req.caller.uid}` : `ip:${req.ip}`;
    const max = req.caller ? this.limits.perUser : this.limits.perAddress;
    const id = newId();
    const client = await this.db.$client.connect();
    let admitted = false;
    try {
      await client.query('BEGIN');
      await client.query("SELECT pg_advisory_xact_lock(hashtext('hornada-stream'), hashtext($1))", [holder]);
      const open = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM live_streams
         WHERE holder = $1 AND seen_at > clock_timestamp() - $2 * interval '1 second'`,
        [holder, STALE_SECONDS],
      );
      if ((open.rows[0]?.n ?? 0) < max) {
        await client.query(
          'INSERT INTO live_streams (id, holder, instance, seen_at) VALUES ($1, $2, $3, clock_timestamp())',
          [id, holder, this.instance],
        );
        admitted = true;
      }
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
    if (!admitted) {
      const whose = req.caller ? 'for this account' : 'from this address';
      throw new AppError(
        429,
        'rate_limited',
        `Too many open change streams ${whose} (limit ${max}); close one (another tab or device) and retry`,
        undefined,
        { 'retry-after': '30' },
      );
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      void this.db.$client.query('DELETE FROM live_streams WHERE id = $1', [id]).catch(() => this.orphans.add(id));
    };
  }
}

import { and, asc, eq, inArray, isNotNull, isNull, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { ROUTABLE_STATUSES } from '@hornada/domain';
import type { AppContext } from '../../context';
import { orders } from '../../db/schema';
import { DueJob } from '../../lib/due-job';
import { AppError } from '../../lib/errors';
import type { Geocoder } from '../../providers/geocoding';
import { systemActor } from '../../resources/actor';
import type { ResourceRegistry } from '../../resources/registry';

/** How often the queue of addresses to place is looked at. */
export const PLACING_EVERY_MS = 10_000;
/** Addresses one run looks up: Nominatim answers one a second, so a run stays about this many seconds. */
const BATCH = 20;
/** How long "Ordenar ruta" waits for its own stops to be placed before it orders what it has. */
export const ROUTE_PLACING_MS = 5_000;

export interface PlacingRun {
  /** Addresses found and given their point. */
  placed: number;
  /** Looked up and not found: they stay without a point (staff may pin them) and are not looked up again. */
  notFound: number;
  /** Changed or pinned by someone while they were looked up (the person's version stands). */
  skipped: number;
}

/**
 * Delivery addresses placed on the map ("Ordenar ruta" needs a point for each stop). An order whose
 * address has no point and was never looked up is in the queue (the partial index `orders_geocode_queue`):
 * a checkout or a staff order without a pin, an address edited to another place. This job looks the queued
 * ones up with the configured geocoder (providers/geocoding) every PLACING_EVERY_MS, soonest day first, and
 * the route asks for its own stops before it orders them.
 *
 * Each answer is written through the orders resource as the system actor `geocoding`, whose line reaches the
 * address only; the order rules (order-rules.ts placeAddress) accept it only for the address as it still
 * is and where nobody has pinned one meanwhile, so a person's pin always wins. A lookup that fails (the
 * service down) leaves the order queued for the next run; one that finds nothing marks it looked up.
 */
export class AddressPlacing extends DueJob {
  constructor(
    private readonly ctx: AppContext,
    private readonly resources: ResourceRegistry,
    private readonly geocoder: Geocoder,
    private readonly log: FastifyBaseLogger,
  ) {
    super({ db: ctx.db, name: 'address-placing' }, ctx.clock, PLACING_EVERY_MS, log, 'placing addresses failed');
  }

  protected work(): Promise<unknown> {
    return this.place();
  }

  /**
   * A driver's stops of a day that were never looked up, before their route is ordered (at most
   * ROUTE_PLACING_MS). The geocoder failing does not stop the route: its stops go last, as unplaced.
   */
  async placeStops(companyId: string, dueDate: Date, deliveryAssistantId: string): Promise<void> {
    const stops = and(
      eq(orders.companyId, companyId),
      eq(orders.dueDate, dueDate),
      eq(orders.deliveryAssistantId, deliveryAssistantId),
    );
    await this.place(stops, performance.now() + ROUTE_PLACING_MS).catch((err: unknown) =>
      this.log.warn({ err }, 'placing a route’s addresses failed'),
    );
  }

  /** One pass over the queue (or the part of it `where` names), until `deadline` (performance.now()) if given. */
  async place(where?: SQL, deadline?: number): Promise<PlacingRun> {
    const run: PlacingRun = { placed: 0, notFound: 0, skipped: 0 };
    const queued = await this.ctx.db
      .select({ id: orders.id, companyId: orders.companyId, address: orders.address })
      .from(orders)
      .where(
        and(
          isNull(orders.geoSource),
          isNull(orders.geoCheckedAt),
          isNotNull(orders.address),
          isNull(orders.deletedAt),
          eq(orders.fulfillment, 'delivery'),
          inArray(orders.status, [...ROUTABLE_STATUSES]),
          where,
        ),
      )
      .orderBy(asc(orders.dueDate), asc(orders.createdAt))
      .limit(BATCH);
    const service = this.resources.get('orders');
    for (const order of queued) {
      if (deadline !== undefined && performance.now() > deadline) break;
      const address = order.address!;
      // A failure of the service throws: this run ends and the rest stay queued for the next.
      const point = await this.geocoder.geocode(address.line, address.city ?? '');
      try {
        await service.update(systemActor('geocoding'), order.companyId, order.id, {
          address: point ? { ...address, ...point } : address,
        });
        if (point) run.placed += 1;
        else run.notFound += 1;
      } catch (err) {
        // Edited, pinned, delivered or cancelled while it was looked up: the order as it is now stands.
        if (!(err instanceof AppError) || err.statusCode >= 500) throw err;
        run.skipped += 1;
      }
    }
    if (run.placed + run.notFound > 0) this.log.info(run, 'delivery addresses looked up');
    return run;
  }
}

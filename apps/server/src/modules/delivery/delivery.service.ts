import { and, asc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import { windowLabel } from '@hornada/domain/order-display';
import {
  amountToCollect,
  dayStartInZone,
  deliveryTotals,
  hasCapability,
  nearestNeighbour,
  pointOf,
  rolesWith,
  ROUTABLE_STATUSES,
  type DeliveryDay,
  type DeliveryRoute,
  type DeliveryStop,
  type RouteInput,
} from '@hornada/domain';
import type { AppContext } from '../../context';
import { companyMember, type RequestContext } from '../../request-context';
import { orders, settings, users } from '../../db/schema';
import { assertDaysWithinYears } from '../../lib/days';
import { AppError, validationError } from '../../lib/errors';
import { asUser } from '../../resources/actor';
import type { ResourceRegistry } from '../../resources/registry';
import type { WriteScope } from '../../resources/service';
import { getCompany } from '../../resources/tenant';
import type { AddressPlacing } from './address-placing';

/** The 403 of a role that may not order routes (deliveries:assign). */
const ROUTES_REFUSED = 'Your role cannot order routes';

/** The most stops one day's read returns: far beyond a bakery's day, a bound on the answer. */
export const MAX_DELIVERY_STOPS = 5_000;

/**
 * Deliveries (docs/design.md §3 "operations"): a due day's delivery orders by driver in route order
 * with each driver's cash, and the nearest-neighbour route. The office reads every driver; a driver
 * (without `deliveries:assign`) only its own stops. Assignments, reorders and the driver's moves are
 * writes to the orders resource (its one door: permissions, the status machine, history, live).
 */
export class DeliveryService {
  constructor(
    private readonly ctx: AppContext,
    private readonly resources: ResourceRegistry,
    /** Places the stops' addresses before a route is ordered (null: GEOCODER=off). */
    private readonly placing: AddressPlacing | null = null,
  ) {}

  async day(rc: RequestContext, date: string): Promise<DeliveryDay> {
    const { caller, companyId } = companyMember(rc, 'deliveries:read', 'Your role cannot read deliveries');
    assertDaysWithinYears({ date });
    const company = await getCompany(this.ctx, companyId);
    const office = hasCapability(caller.role, 'deliveries:assign');
    const db = this.ctx.db;
    const [rows, settingsRows, driverRows] = await Promise.all([
      db
        .select()
        .from(orders)
        .where(
          and(
            eq(orders.companyId, companyId),
            eq(orders.dueDate, dayStartInZone(date, company.timeZone)),
            eq(orders.fulfillment, 'delivery'),
            isNull(orders.deletedAt),
            ne(orders.status, 'cancelled'),
            // A driver reads only the stops assigned to it.
            office ? undefined : eq(orders.deliveryAssistantId, caller.uid),
          ),
        )
        .orderBy(sql`${orders.routePosition} ASC NULLS LAST`, asc(orders.window), asc(orders.number))
        .limit(MAX_DELIVERY_STOPS),
      db.select({ data: settings.data }).from(settings).where(eq(settings.companyId, companyId)).limit(1),
      db
        .select({ id: users.id, name: users.name, role: users.role })
        .from(users)
        .where(
          and(
            eq(users.companyId, companyId),
            inArray(users.role, [...rolesWith('deliveries:drive')]),
            isNull(users.deletedAt),
            eq(users.disabled, false),
          ),
        )
        .orderBy(asc(users.name), asc(users.id)),
    ]);
    const data = settingsRows[0]?.data;
    // The one label of a window, as the shop and the office say it (packages/domain order-display).
    const windows = data?.deliveryWindows ?? [];
    const names = new Map(driverRows.map((d) => [d.id, d.name]));

    const byDriver = new Map<string | null, DeliveryStop[]>();
    for (const o of rows) {
      const stop: DeliveryStop = {
        id: o.id,
        number: o.number,
        status: o.status,
        contact: o.contact,
        address: o.address,
        window: o.window,
        windowLabel: o.window ? windowLabel(o.window, windows) : null,
        items: o.items.map((i) => ({ productId: i.productId, name: i.name, quantity: i.quantity })),
        total: o.total,
        paymentMethod: o.paymentMethod,
        paymentStatus: o.paymentStatus,
        amountToCollect: amountToCollect(o),
        cashCollected: o.cashCollected,
        deliveryAssistantId: o.deliveryAssistantId,
        routePosition: o.routePosition,
        notes: o.notes,
        updatedAt: o.updatedAt.toISOString(),
        noCoordinates: pointOf(o) === null,
        notReceived: o.notReceived ?? null,
      };
      const list = byDriver.get(o.deliveryAssistantId) ?? [];
      list.push(stop);
      byDriver.set(o.deliveryAssistantId, list);
    }

    const routes: DeliveryRoute[] = [...byDriver]
      .map(([id, stops]) => ({
        driver: id === null ? null : { id, name: names.get(id) ?? 'Sin nombre' },
        stops,
        totals: deliveryTotals(stops),
      }))
      // Drivers by name, the unassigned stops last (docs/design.md §3).
      .sort((a, b) =>
        a.driver === null ? 1 : b.driver === null ? -1 : a.driver.name.localeCompare(b.driver.name, 'es'),
      );
    const all = routes.flatMap((r) => r.stops);
    return {
      date,
      origin: data?.location ?? null,
      routes,
      drivers: office ? driverRows.map((d) => ({ id: d.id, name: d.name })) : [],
      totals: deliveryTotals(all),
    };
  }

  /**
   * Places a driver's stops of a day that were never looked up (an order placed a minute ago), within a bound,
   * before their route is ordered. Outside the route's transaction: a geocoder answers over the network, and
   * the route's write (and its Idempotency-Key's row) must not wait on it.
   */
  async placeStops(rc: RequestContext, input: RouteInput): Promise<void> {
    const { companyId } = companyMember(rc, 'deliveries:assign', ROUTES_REFUSED);
    assertDaysWithinYears({ date: input.date });
    if (!this.placing) return;
    const company = await getCompany(this.ctx, companyId);
    await this.placing.placeStops(companyId, dayStartInZone(input.date, company.timeZone), input.deliveryAssistantId);
  }

  /**
   * Orders a driver's open stops of a day nearest-neighbour from the bakery's location (stops without
   * coordinates last) and writes `routePosition` 1…n through the orders resource, all in one transaction;
   * delivered stops keep theirs and the open ones follow them. Answers the ids in order and how many open
   * stops had no point (they went last, in window order): the office says so instead of claiming an order.
   */
  async route(rc: RequestContext, input: RouteInput, within?: WriteScope) {
    const { caller, companyId } = companyMember(rc, 'deliveries:assign', ROUTES_REFUSED);
    assertDaysWithinYears({ date: input.date });
    const company = await getCompany(this.ctx, companyId);
    const [s] = await this.ctx.db
      .select({ data: settings.data })
      .from(settings)
      .where(eq(settings.companyId, companyId))
      .limit(1);
    const origin = s?.data.location ?? null;
    if (!origin) {
      throw new AppError(422, 'delivery/no-origin', "Set the bakery's location in settings before ordering a route");
    }
    const [driver] = await this.ctx.db
      .select({ id: users.id })
      .from(users)
      .where(
        and(
          eq(users.id, input.deliveryAssistantId),
          eq(users.companyId, companyId),
          inArray(users.role, [...rolesWith('deliveries:drive')]),
          isNull(users.deletedAt),
        ),
      )
      .limit(1);
    if (!driver) throw validationError([{ path: 'deliveryAssistantId', message: 'Not a driver of this bakery' }]);
    const day = dayStartInZone(input.date, company.timeZone);

    const run = (work: (scope: WriteScope) => Promise<{ orderIds: DeliveryStop['id'][]; unplaced: number }>) =>
      within ? work(within) : this.resources.transaction(companyId, work);
    return run(async (scope) => {
      const ofDay = and(
        eq(orders.companyId, companyId),
        eq(orders.dueDate, day),
        eq(orders.fulfillment, 'delivery'),
        eq(orders.deliveryAssistantId, input.deliveryAssistantId),
        isNull(orders.deletedAt),
      );
      const rows = await scope.tx
        .select({
          id: orders.id,
          status: orders.status,
          address: orders.address,
          routePosition: orders.routePosition,
        })
        .from(orders)
        .where(ofDay)
        .orderBy(asc(orders.window), asc(orders.number))
        .for('update');
      const open = rows.filter((r) => (ROUTABLE_STATUSES as readonly string[]).includes(r.status));
      const done = Math.max(0, ...rows.filter((r) => r.status === 'delivered').map((r) => r.routePosition ?? 0));
      const ordered = nearestNeighbour(origin, open);
      if (ordered.length > 0) {
        await this.resources.get('orders').bulkUpdate(
          asUser(caller),
          companyId,
          ordered.map((r, i) => ({ id: r.id, data: { routePosition: done + i + 1 } })),
          scope,
        );
      }
      return { orderIds: ordered.map((r) => r.id), unplaced: open.filter((r) => pointOf(r) === null).length };
    });
  }
}

import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { dueStandingDays, type StandingOrder } from '@hornada/domain';
import type { AppContext } from '../../context';
import { b2bClients, orders, standingOrders } from '../../db/schema';
import { DueJob } from '../../lib/due-job';
import { withJobLock } from '../../lib/job-lock';
import { AppError } from '../../lib/errors';
import { systemActor } from '../../resources/actor';
import type { ResourceRegistry } from '../../resources/registry';
import type { OrderRules } from '../orders';

/** How often the job looks for days that entered the order horizon. */
export const STANDING_ORDERS_EVERY_MS = 5 * 60_000;

type Template = typeof standingOrders.$inferSelect;
type Client = Pick<typeof b2bClients.$inferSelect, 'businessName' | 'contactName' | 'phone' | 'email' | 'address'>;

export interface StandingRun {
  made: number;
  /** Days another run (another instance) made first: the unique key refused this one's. */
  raced: number;
  failed: number;
}

/**
 * Standing orders (docs/design.md §3): each day a standing order orders on is made into an order (`channel:
 * "b2b"`, credit, priced by the order rules from the catalogue and the client's prices at that time) when
 * it enters the order horizon (domain standing-orders.ts), by the system actor `standing-orders`.
 *
 * Exactly once per standing order and day however many instances run: a company's days are made under
 * its advisory lock (run), and the order carries the pair (`standingOrderId`, `standingDay`) under a
 * unique index, so should two runs still race, the second insert waits for the first and is refused
 * (its transaction, order number included, rolls back). A day already
 * made is never touched again: editing the template changes only the days not made yet. A skipped or
 * blacked-out day (the template's skip dates, the bakery's blackout dates and delivery days) makes none.
 *
 * Runs when the app starts, every STANDING_ORDERS_EVERY_MS, and for one company right after a write to
 * its standing orders (standing-orders.routes.ts).
 */
export class StandingOrdersJob extends DueJob {
  constructor(
    private readonly ctx: AppContext,
    private readonly resources: ResourceRegistry,
    private readonly rules: OrderRules,
    private readonly log: FastifyBaseLogger,
  ) {
    super({ db: ctx.db, name: 'standing-orders' }, ctx.clock, STANDING_ORDERS_EVERY_MS, log, 'standing orders failed');
  }

  protected work(): Promise<unknown> {
    return this.run();
  }

  /**
   * One run over every company's active standing orders (or one company's). Each company's days are
   * read and made under that company's advisory lock (waited for), so a periodic run on one instance and
   * a run asked for by a write on another never make the same day twice nor read the days made before
   * the other's orders committed; the unique key stays as the last guard.
   */
  async run(companyId?: string): Promise<StandingRun> {
    const out: StandingRun = { made: 0, raced: 0, failed: 0 };
    const active = and(
      eq(standingOrders.active, true),
      isNull(standingOrders.deletedAt),
      companyId ? eq(standingOrders.companyId, companyId) : undefined,
    );
    const companies = await this.ctx.db
      .selectDistinct({ id: standingOrders.companyId })
      .from(standingOrders)
      .where(active);
    for (const { id } of companies) {
      const done = await withJobLock(this.ctx.db, `standing-orders:${id}`, () => this.runCompany(id), { wait: true });
      if (!done.ran) continue;
      for (const k of ['made', 'raced', 'failed'] as const) out[k] += done.value[k];
    }
    if (out.made + out.failed > 0) this.log.info(out, 'standing orders made');
    return out;
  }

  /** One company's due days not made yet, made; called under the company's lock. */
  private async runCompany(company: string): Promise<StandingRun> {
    const db = this.ctx.db;
    const out: StandingRun = { made: 0, raced: 0, failed: 0 };
    const list = await db
      .select({ so: standingOrders, client: b2bClients })
      .from(standingOrders)
      .innerJoin(b2bClients, eq(b2bClients.id, standingOrders.b2bClientId))
      .where(
        and(
          eq(standingOrders.companyId, company),
          eq(standingOrders.active, true),
          isNull(standingOrders.deletedAt),
          eq(b2bClients.active, true),
          isNull(b2bClients.deletedAt),
        ),
      );
    const settings = await this.rules.settingsOf(db, company);
    const now = this.ctx.clock.now();
    const wanted = list.flatMap(({ so, client }) =>
      dueStandingDays(so as unknown as StandingOrder, settings, now).map((day) => ({ so, client, day })),
    );
    if (wanted.length === 0) return out;
    const made = await db
      .select({ id: orders.standingOrderId, day: orders.standingDay })
      .from(orders)
      .where(
        and(
          eq(orders.companyId, company),
          inArray(orders.standingOrderId, [...new Set(wanted.map((w) => w.so.id))]),
          inArray(orders.standingDay, [...new Set(wanted.map((w) => w.day))]),
        ),
      );
    const done = new Set(made.map((m) => `${m.id}|${m.day}`));
    for (const w of wanted) {
      if (done.has(`${w.so.id}|${w.day}`)) continue;
      const result = await this.make(w.so, w.client, w.day);
      out[result] += 1;
    }
    return out;
  }

  /** One day's order of one standing order. */
  private async make(so: Template, client: Client, day: string): Promise<keyof StandingRun> {
    const delivery = so.fulfillment === 'delivery';
    try {
      await this.resources.get('orders').create(systemActor('standing-orders'), so.companyId, {
        b2bClientId: so.b2bClientId,
        contact: { name: client.contactName ?? client.businessName, phone: client.phone ?? '', email: client.email },
        items: so.items.map((i) => ({ productId: i.productId, quantity: i.quantity, notes: null })),
        fulfillment: so.fulfillment,
        address:
          delivery && client.address
            ? { label: null, line: client.address, neighborhood: null, city: null, notes: null, lat: null, lng: null }
            : null,
        dueDate: day,
        window: so.window,
        paymentMethod: 'credit',
        notes: so.notes,
        standingOrderId: so.id,
        standingDay: day,
      });
      return 'made';
    } catch (err) {
      // The unique key (standingOrderId, standingDay): another run made this day first.
      if (err instanceof AppError && err.statusCode === 409) return 'raced';
      this.log.warn({ err, standingOrderId: so.id, day }, 'a standing order could not make its order');
      return 'failed';
    }
  }
}

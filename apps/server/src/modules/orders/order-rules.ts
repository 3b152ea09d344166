import { eq, sql, type SQL } from 'drizzle-orm';
import { SettingsInput, type HistoryEntry, type OrderChannel, type OrderInput } from '@hornada/domain';
import { historyBy, type Actor as WriteActor } from '../../resources/actor';
import type { DbOrTx } from '../../db';
import { settings } from '../../db/schema';
import { AppError } from '../../lib/errors';
import type { BeforeWrite } from '../../resources/definition';
import { readSettingsAndProducts } from '../carts';
import { prepareNew, type Actor, type NewOrder } from './rules/new-order';
import { runSteps, startUpdate, type OrderRow, type Step } from './rules/order-update';
import { assertNewOrderMoments, UPDATE_STEPS } from './rules/steps';

export type { Actor, NewOrder } from './rules/new-order';
export type { OrderRow } from './rules/order-update';
export { cancelledNotPayable } from './rules/problems';

/** Numbers start here (shown as #1001). */
const FIRST_NUMBER = 1001;

/**
 * The rules of every order write (docs/design.md §5), run inside the write's transaction: lines priced from
 * the catalogue (B2B rules included), totals and the delivery fee from the settings, the day and
 * window checked against the lead time and capacity, numbers from the company's counter, the status
 * machine and payment axis against the role table, and `history` for every change that matters. A new
 * order is `rules/new-order.ts`; an update runs the steps of `rules/steps/` in order.
 */
export class OrderRules {
  /** Other modules' steps of an update, after the order's own (payments' gateway rule: modules/compose.ts). */
  private readonly moduleSteps: { name: string; run: Step }[] = [];

  /** Adds a module's step to every update, after the steps of rules/steps/ and those added before it. */
  addStep(name: string, run: Step): void {
    if ([...UPDATE_STEPS, ...this.moduleSteps].some((s) => s.name === name)) {
      throw new Error(`orders: a step named '${name}' exists`);
    }
    this.moduleSteps.push({ name, run });
  }

  /** The steps' names in the order an update runs them (for tests and start-up logs). */
  stepNames(): string[] {
    return [...UPDATE_STEPS, ...this.moduleSteps].map((s) => s.name);
  }

  async settingsOf(db: DbOrTx, companyId: string): Promise<SettingsInput> {
    // Read in the caller's transaction every time (checkout re-checks against what is committed);
    // only the parse, whose time-zone check is costly, is skipped while the row is unchanged.
    const [row] = await db
      .select({ data: settings.data, version: sql<string>`${settings}.xmin::text` })
      .from(settings)
      .where(eq(settings.companyId, companyId));
    return this.parsedSettings(companyId, row);
  }

  /** Parsed settings by company, kept while the row's version (xmin) is the same. */
  private readonly settingsCache = new Map<string, { version: string; value: SettingsInput }>();

  private parsedSettings(companyId: string, row: { data: unknown; version: string } | undefined): SettingsInput {
    const cached = this.settingsCache.get(companyId);
    if (row && cached?.version === row.version) return cached.value;
    // A company always gets settings with its creation; the defaults cover a row written by hand.
    const value = SettingsInput.parse({ marketName: 'Hornada', ...((row?.data as object | null) ?? {}) });
    if (row) this.settingsCache.set(companyId, { version: row.version, value });
    return value;
  }

  /**
   * The next number, taken by the order's own INSERT (migration 0009). The counter row stays locked
   * from that statement until commit: numbers follow one another, and a rolled-back order gives its
   * number back, so there is neither a duplicate nor a gap; the lock is held for as short as can be.
   */
  numberInInsert(companyId: string): SQL {
    return sql`hornada_next_order_number(${companyId}, ${FIRST_NUMBER})`;
  }

  /**
   * The stored values of a new order. `channel` web: the cart's holder at checkout (minimum order,
   * the bakery's payment methods, the offered days only); staff or b2b: the back office.
   */
  async prepareNew(
    db: DbOrTx,
    actor: Actor,
    companyId: string,
    input: NewOrder,
    channel: OrderChannel,
    /** When the order is placed: the write's instant. */
    placedAt: Date,
  ): Promise<Record<string, unknown>> {
    // The settings and the lines' catalogue rows in one round trip.
    const read = await readSettingsAndProducts(
      db,
      companyId,
      input.items.map((i) => i.productId),
    );
    const s = this.parsedSettings(companyId, read.settings ?? undefined);
    const number = this.numberInInsert(companyId);
    return prepareNew(
      { db, actor, companyId, channel, settings: s, catalogue: read.products, placedAt, number },
      input,
    );
  }

  /**
   * The orders resource's before-write hook (added where the app is composed, modules/compose.ts). The
   * engine has checked the role, the writable fields and the references; the body passed OrderInput. The
   * write's instant is its service's clock (the demo seed replays each move at its own instant).
   */
  readonly beforeWrite: BeforeWrite<OrderRow> = async (ctx, tx, actor, current, data, companyId) => {
    const now = ctx.clock.now();
    if (current) return this.prepareUpdate(tx, actor, companyId, current, data as Partial<OrderInput>, now);
    // A cart's holder at checkout places a web order; anyone else the back office's.
    const web = actor.kind === 'guest' || (actor.kind === 'user' && actor.via === 'checkout');
    if (!web && actor.kind === 'user') assertNewOrderMoments(actor.role, data);
    if (data.refundReason) {
      throw new AppError(422, 'orders/field-outside-move', 'refundReason cannot be set on a new order', [
        { path: 'refundReason', message: 'Changes only with the move of the payment to refunded' },
      ]);
    }
    if (data.refund) {
      throw new AppError(422, 'orders/not-refundable', 'A new order has nothing paid to refund', [
        { path: 'refund', message: 'Only a paid order is refunded' },
      ]);
    }
    const values = await this.prepareNew(
      tx,
      historyBy(actor),
      companyId,
      data as unknown as NewOrder,
      web ? 'web' : 'staff',
      now,
    );
    if (actor.kind === 'system' && actor.reason === 'standing-orders') {
      // Made by a standing order for its day: the link, and a history line saying so.
      const { standingOrderId, standingDay } = data;
      const history = [
        ...(values.history as HistoryEntry[]),
        {
          at: now.toISOString(),
          by: historyBy(actor),
          field: 'standingOrderId',
          from: null,
          to: standingOrderId,
        },
      ];
      return { ...values, standingOrderId, standingDay, history };
    }
    if (!web) return values;
    const { cartId, idempotencyKey, requestHash, holderKey, originKey } = data;
    return { ...values, cartId, idempotencyKey, requestHash, holderKey, originKey };
  };

  /**
   * An update: `data` holds the fields sent (PATCH) or every writable field (PUT). Returns what is
   * stored, with `history` grown by each change that matters: the steps of rules/steps/, in order.
   */
  async prepareUpdate(
    db: DbOrTx,
    who: WriteActor,
    companyId: string,
    current: OrderRow,
    data: Partial<OrderInput>,
    now: Date,
  ): Promise<Record<string, unknown>> {
    const s = await this.settingsOf(db, companyId);
    const steps = [...UPDATE_STEPS, ...this.moduleSteps];
    return runSteps(startUpdate(db, who, companyId, current, data, s, now), steps);
  }
}

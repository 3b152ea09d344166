import { and, count, eq, inArray, isNull, ne, sql, type SQL } from 'drizzle-orm';
import type { ErrorCode } from '@hornada/domain';
import {
  addDays,
  allowedPaymentMoves,
  BOOKING_HORIZON_DAYS,
  allowedStatusMoves,
  CANCELLABLE_STATUSES,
  checkSlot,
  dayInZone,
  dayStartInZone,
  describeMoment,
  EDITABLE_STATUSES,
  fieldMomentOf,
  mayChangeFieldAt,
  MOMENT_FIELDS,
  formatMoney,
  lastBookableDay,
  MONEY_MAX,
  orderLine,
  orderTotals,
  SettingsInput,
  type B2bTerms,
  type Fulfillment,
  type HistoryEntry,
  type MomentField,
  type OrderInput,
  type OrderLine,
  type OrderPaymentMethod,
  type OrderStatus,
  type OrderTotals,
  type PaymentActor,
  type PaymentStatus,
  type PricedProduct,
  type Role,
  type SlotProblem,
  IMPORT_REASONS,
  pointOf,
  rolesWith,
  ROUTABLE_STATUSES,
  samePlace,
} from '@hornada/domain';
import { historyBy, type Actor as WriteActor } from '../../resources/actor';
import type { Clock } from '../../lib/clock';
import type { DbOrTx } from '../../db';
import { b2bClients, orders, products, settings, users } from '../../db/schema';
import { AppError, badRequest, DetailList, validationError } from '../../lib/errors';
import type { BeforeWrite } from '../../resources/definition';
import { readSettingsAndProducts } from '../carts/catalogue-read';

/** Who a history entry names: a user, or the system, a gateway or a guest (resources/actor.ts historyBy). */
export type Actor = HistoryEntry['by'];

/** Namespace of the advisory lock on one (company, day, window): capacity is counted under it. */
const SLOT_LOCK = 727290;
/** Numbers start here (shown as #1001). */
const FIRST_NUMBER = 1001;

/** What an order is made from: the writable fields, or a cart's lines and checkout fields. */
export interface NewOrder {
  items: { productId: string; quantity: number; notes?: string | null }[];
  contact: { name: string; phone: string; email: string | null };
  fulfillment: Fulfillment;
  address: OrderInput['address'];
  /** `YYYY-MM-DD` or an instant of the day. */
  dueDate: string;
  window: string | null;
  paymentMethod: OrderPaymentMethod;
  notes: string | null;
  customerId?: string | null;
  b2bClientId?: string | null;
  status?: OrderStatus;
  paymentStatus?: PaymentStatus;
  deliveryAssistantId?: string | null;
  routePosition?: number | null;
  producedQuantities?: Record<string, number>;
  cashCollected?: number | null;
  cancelReason?: string | null;
}

/** A product as an order line is priced from it. */
interface CatalogueRow {
  id: string;
  name: string;
  price: number;
  b2bPrice: number | null;
  active: boolean;
  deleted: boolean;
}

const rule = (code: ErrorCode, message: string, path?: string) =>
  new AppError(422, code, message, path ? [{ path, message }] : undefined);

const SLOT_MESSAGES: Record<SlotProblem, string> = {
  past: 'This day has already passed',
  'not-delivery-day': 'The bakery does not deliver on this day',
  blackout: 'The bakery does not deliver on this day',
  'unknown-window': 'Not a delivery window of this bakery',
  'lead-time': 'This window closes for orders earlier than that: choose a later one',
  capacity: 'This window is full: choose another one',
};

const listOrNone = (items: readonly string[]) => (items.length ? items.join(', ') : 'none');

/**
 * Design §4's cap on order amounts: past it a 422 naming `total`, before the database's integer
 * (2^31) would turn a huge order into a generic error. The subtotal counts too: a discount never
 * makes an order of a billion pesos acceptable.
 */
function assertTotalWithinCap(totals: OrderTotals): void {
  const amount = Math.max(totals.subtotal, totals.total);
  if (amount <= MONEY_MAX) return;
  const message = `The order total ${formatMoney(amount)} is over the limit of ${formatMoney(MONEY_MAX)}`;
  throw new AppError(422, 'orders/total-too-large', message, [{ path: 'total', message: `At most ${MONEY_MAX}` }]);
}

/**
 * The rules of every order write (docs/design.md §5), run inside the write's transaction: lines priced from
 * the catalogue (B2B rules included), totals and the delivery fee from the settings, the day and
 * window checked against the lead time and capacity, numbers from the company's counter, the status
 * machine and payment axis against the role table, and `history` for every change that matters.
 */
export class OrderRules {
  constructor(private readonly clock: Clock) {}

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

  /** A new order's settings and the catalogue rows of its lines, in one round trip. */
  private async settingsAndProducts(db: DbOrTx, companyId: string, items: NewOrder['items']) {
    const read = await readSettingsAndProducts(
      db,
      companyId,
      items.map((i) => i.productId),
    );
    return [this.parsedSettings(companyId, read.settings ?? undefined), read.products] as const;
  }

  private async catalogueOf(db: DbOrTx, companyId: string, ids: string[]): Promise<CatalogueRow[]> {
    const rows = await db
      .select({
        id: products.id,
        name: products.name,
        price: products.price,
        b2bPrice: products.b2bPrice,
        active: products.active,
        deletedAt: products.deletedAt,
      })
      .from(products)
      .where(and(eq(products.companyId, companyId), inArray(products.id, ids)));
    return rows.map(({ deletedAt, ...r }) => ({ ...r, deleted: deletedAt !== null }));
  }

  /** The catalogue rows of the lines: unknown ids are a 400, inactive or deleted products a 422. */
  private async productsOf(db: DbOrTx, companyId: string, items: NewOrder['items'], known = new Set<string>()) {
    const ids = [...new Set(items.map((i) => i.productId))];
    return this.checkedProducts(await this.catalogueOf(db, companyId, ids), items, known);
  }

  private checkedProducts(rows: CatalogueRow[], items: NewOrder['items'], known = new Set<string>()) {
    const byId = new Map(rows.map((r) => [r.id, r]));
    const unknown = new DetailList();
    const unavailable = new DetailList();
    items.forEach((item, i) => {
      const p = byId.get(item.productId);
      const path = `items.${i}.productId`;
      if (!p) unknown.add(path, `No product with id ${item.productId} in this bakery`);
      else if ((!p.active || p.deleted) && !known.has(p.id)) unavailable.add(path, 'This product is not available');
    });
    if (unknown.total > 0) throw unknown.toError();
    if (unavailable.total > 0) {
      throw new AppError(
        422,
        'orders/product-unavailable',
        `A product is not available: ${unavailable.items.map((d) => d.path).join(', ')}`,
        unavailable.items,
      );
    }
    return byId as Map<string, PricedProduct>;
  }

  private async clientOf(db: DbOrTx, companyId: string, id: string | null | undefined): Promise<B2bTerms | null> {
    if (!id) return null;
    const [c] = await db
      .select({ discountPercent: b2bClients.discountPercent, prices: b2bClients.prices, active: b2bClients.active })
      .from(b2bClients)
      .where(and(eq(b2bClients.id, id), eq(b2bClients.companyId, companyId), isNull(b2bClients.deletedAt)));
    if (!c) throw validationError([{ path: 'b2bClientId', message: 'No B2B client with this id in this company' }]);
    if (!c.active) throw rule('business_rule', 'This B2B client is not active', 'b2bClientId');
    return c;
  }

  /** A user referenced by the order must have the right role (the engine checked it exists). */
  private async assertRole(db: DbOrTx, companyId: string, id: string, roles: readonly string[], path: string) {
    const [u] = await db
      .select({ role: users.role })
      .from(users)
      .where(and(eq(users.id, id), eq(users.companyId, companyId), isNull(users.deletedAt)));
    if (!u || !roles.includes(u.role)) {
      throw validationError([{ path, message: `Must be a user with role ${roles.join(' or ')}` }]);
    }
  }

  /** The orders of a slot that are not cancelled, counted under the slot's lock (held until commit). */
  private async taken(db: DbOrTx, companyId: string, dueDate: Date, window: string | null, except?: string) {
    await db.execute(
      sql`SELECT pg_advisory_xact_lock(${SLOT_LOCK}, hashtext(${`${companyId}|${dueDate.toISOString()}|${window ?? ''}`}))`,
    );
    const [n] = await db
      .select({ n: count() })
      .from(orders)
      .where(
        and(
          eq(orders.companyId, companyId),
          eq(orders.dueDate, dueDate),
          window === null ? isNull(orders.window) : eq(orders.window, window),
          ne(orders.status, 'cancelled'),
          isNull(orders.deletedAt),
          except ? ne(orders.id, except) : undefined,
        ),
      );
    return n?.n ?? 0;
  }

  /**
   * The day and window: a web order gets exactly what `delivery-days` offers; staff may pass the
   * lead time and a full window (returned as notes for history) but never a past or closed day.
   */
  private async checkDay(
    db: DbOrTx,
    companyId: string,
    s: SettingsInput,
    day: string,
    window: string | null,
    staff: boolean,
    except?: string,
    now = this.clock.now(),
  ): Promise<string[]> {
    // The booking horizon binds staff too: a 2099 order holds a place nobody will fill.
    const last = lastBookableDay(dayInZone(now, s.timeZone));
    if (day > last) {
      throw rule(
        'orders/beyond-horizon',
        `Orders may be due at most ${BOOKING_HORIZON_DAYS} days ahead, up to ${last}`,
        'dueDate',
      );
    }
    const dueDate = dayStartInZone(day, s.timeZone);
    // Places are counted (under the slot's lock) only for a window that has a capacity: the others
    // never serialise the orders of one slot.
    const capacity = s.deliveryWindows.find((w) => w.id === window)?.capacity ?? null;
    const n = capacity === null ? 0 : await this.taken(db, companyId, dueDate, window, except);
    const problem = checkSlot(s, now, day, window, n);
    if (problem === null) return [];
    if (staff && (problem === 'lead-time' || problem === 'capacity')) return [problem];
    if (problem === 'unknown-window') throw validationError([{ path: 'window', message: SLOT_MESSAGES[problem] }]);
    const code = problem === 'capacity' ? 'orders/window-full' : 'orders/day-unavailable';
    throw rule(code, SLOT_MESSAGES[problem], problem === 'capacity' || problem === 'lead-time' ? 'window' : 'dueDate');
  }

  private dayOf(value: string, timeZone: string): string {
    return value.length === 10 ? value : dayInZone(new Date(value), timeZone);
  }

  private preparationOf(day: string, s: SettingsInput): Date {
    return dayStartInZone(addDays(day, -s.productionLeadDays), s.timeZone);
  }

  /**
   * The next number, taken by the order's own INSERT (migration 0009). The counter row stays locked
   * from that statement until commit: numbers follow one another, and a rolled-back order gives its
   * number back, so there is neither a duplicate nor a gap; the lock is held for as short as can be.
   */
  numberInInsert(companyId: string): SQL {
    return sql`hornada_next_order_number(${companyId}, ${FIRST_NUMBER})`;
  }

  /** The next number now (the demo seed, which must know it before the insert; it runs alone). */
  async nextNumber(db: DbOrTx, companyId: string): Promise<number> {
    const { rows } = await db.execute<{ n: number }>(sql`SELECT ${this.numberInInsert(companyId)} AS n`);
    return rows[0]!.n;
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
    web: boolean,
    /** When the order is placed: now, or an instant in the past for the demo seed. */
    placedAt = this.clock.now(),
  ): Promise<Record<string, unknown>> {
    const [s, catalogueRows] = await this.settingsAndProducts(db, companyId, input.items);
    const staff = !web;
    const problems = new DetailList();
    if (input.fulfillment === 'delivery' && !input.address) problems.add('address', 'Required for delivery');
    if (s.deliveryWindows.length > 0 && input.window === null) problems.add('window', 'Choose a delivery window');
    if (input.paymentMethod === 'credit' && !input.b2bClientId) {
      problems.add('paymentMethod', 'Credit is for B2B clients only');
    }
    if (problems.total > 0) throw problems.toError();
    if (input.fulfillment === 'pickup' && !s.pickupEnabled) {
      throw rule('cart/pickup-unavailable', 'This bakery does not offer pickup', 'fulfillment');
    }
    // Online is the web's only, when the bakery offers it: the gateway then moves its payment (modules/payments).
    const offered: readonly string[] = web ? s.paymentMethods : ['cash', 'transfer', 'credit'];
    if (!offered.includes(input.paymentMethod)) {
      throw rule(
        'orders/payment-method-unavailable',
        `Payment method not offered: ${input.paymentMethod} (allowed: ${listOrNone(offered)})`,
        'paymentMethod',
      );
    }
    const status = input.status ?? 'pending';
    if (status !== 'pending' && status !== 'confirmed') {
      throw rule('orders/invalid-transition', `A new order starts pending or confirmed, not ${status}`, 'status');
    }
    const paymentStatus = input.paymentStatus ?? 'unpaid';
    if (paymentStatus !== 'unpaid' && !(staff && paymentStatus === 'paid' && input.paymentMethod !== 'online')) {
      throw rule('orders/invalid-payment', `A new order starts unpaid, not ${paymentStatus}`, 'paymentStatus');
    }
    if (input.customerId) {
      await this.assertRole(db, companyId, input.customerId, rolesWith('orders:own'), 'customerId');
    }
    if (input.deliveryAssistantId) await this.assertDriver(db, companyId, input.deliveryAssistantId);

    const catalogue = this.checkedProducts(catalogueRows, input.items);
    const client = await this.clientOf(db, companyId, input.b2bClientId);
    const lines = input.items.map((i) => orderLine(catalogue.get(i.productId)!, client, i.quantity, i.notes ?? null));
    const totals = orderTotals(lines, input.fulfillment, s);
    assertTotalWithinCap(totals);
    if (web && totals.subtotal < s.minimumOrder) {
      const missing = s.minimumOrder - totals.subtotal;
      throw new AppError(
        422,
        'orders/minimum-order',
        `The order is ${formatMoney(missing)} short of the minimum order of ${formatMoney(s.minimumOrder)}`,
        [{ path: 'items', message: `Missing ${missing}` }],
      );
    }
    const day = this.dayOf(input.dueDate, s.timeZone);
    const notes = await this.checkDay(db, companyId, s, day, input.window, staff, undefined, placedAt);
    const at = placedAt.toISOString();
    const history: HistoryEntry[] = [{ at, by: actor, field: 'status', from: null, to: status }];
    for (const note of notes) history.push({ at, by: actor, field: 'dueDate', from: null, to: day, note });
    if (paymentStatus !== 'unpaid')
      history.push({ at, by: actor, field: 'paymentStatus', from: 'unpaid', to: paymentStatus });
    return {
      number: this.numberInInsert(companyId),
      channel: web ? 'web' : input.b2bClientId ? 'b2b' : 'staff',
      customerId: input.customerId ?? null,
      b2bClientId: input.b2bClientId ?? null,
      contact: input.contact,
      items: lines,
      ...totals,
      fulfillment: input.fulfillment,
      address: input.fulfillment === 'delivery' ? input.address : null,
      dueDate: dayStartInZone(day, s.timeZone),
      window: input.window,
      preparationDate: this.preparationOf(day, s),
      status,
      paymentStatus,
      paymentMethod: input.paymentMethod,
      payment: null,
      deliveryAssistantId: input.deliveryAssistantId ?? null,
      routePosition: input.routePosition ?? null,
      producedQuantities: input.producedQuantities ?? {},
      cashCollected: input.cashCollected ?? null,
      completedAt: null,
      cancelReason: input.cancelReason ?? null,
      notes: input.notes,
      // A point sent with the address is a person's pin (the shopper's or staff's); none: the geocoder's to find.
      geoSource: input.fulfillment === 'delivery' && input.address && pointOf(input) ? 'pinned' : null,
      geoCheckedAt: null,
      history,
    };
  }

  private assertDriver(db: DbOrTx, companyId: string, id: string) {
    return this.assertRole(db, companyId, id, rolesWith('deliveries:drive'), 'deliveryAssistantId');
  }

  /**
   * The orders resource's before-write hook (added where the app is composed, modules/compose.ts). The
   * engine has checked the role, the writable fields and the references; the body passed OrderInput.
   */
  readonly beforeWrite: BeforeWrite<OrderRow> = async (_ctx, tx, actor, current, data, companyId) => {
    if (data.deletedAt === true) return data;
    if (current) return this.prepareUpdate(tx, actor, companyId, current, data as Partial<OrderInput>);
    // The demo's orders come priced and walked along the machine by these rules (seed/orders.ts); their
    // points are the demo streets' places, as the geocoder would have found them.
    if (actor.kind === 'system' && IMPORT_REASONS.includes(actor.reason)) {
      const placed = data.address && pointOf(data as { address: { lat: number | null; lng: number | null } });
      return { ...data, geoSource: placed ? 'geocoded' : null, geoCheckedAt: placed ? data.createdAt : null };
    }
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
    const values = await this.prepareNew(tx, historyBy(actor), companyId, data as unknown as NewOrder, web);
    if (actor.kind === 'system' && actor.reason === 'standing-orders') {
      // Made by a standing order for its day: the link, and a history line saying so.
      const { standingOrderId, standingDay } = data;
      const history = [
        ...(values.history as HistoryEntry[]),
        {
          at: this.clock.now().toISOString(),
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
   * stored, with `history` grown by each change that matters. Runs the named steps of UPDATE_STEPS
   * in order over one OrderUpdate.
   */
  async prepareUpdate(
    db: DbOrTx,
    who: WriteActor,
    companyId: string,
    current: OrderRow,
    data: Partial<OrderInput>,
  ): Promise<Record<string, unknown>> {
    const u = this.startUpdate(who, companyId, current, data, await this.settingsOf(db, companyId), db);
    for (const step of this.updateSteps) await step.run(u);
    u.out.history = u.history;
    return u.out;
  }

  /** What every step reads: the row before, the fields sent and what follows from them. */
  private startUpdate(
    who: WriteActor,
    companyId: string,
    current: OrderRow,
    data: Partial<OrderInput>,
    settings: SettingsInput,
    db: DbOrTx,
  ): OrderUpdate {
    const at = this.clock.now().toISOString();
    const actor = historyBy(who);
    // Status moves are a user's (by its role); payment moves a user's or a gateway's (docs/design.md §5).
    const role = who.kind === 'user' ? who.role : null;
    const history: HistoryEntry[] = [...(current.history ?? [])];
    const changed = (k: keyof OrderInput) =>
      data[k] !== undefined &&
      JSON.stringify(data[k] ?? null) !== JSON.stringify((current as Record<string, unknown>)[k] ?? null);
    const day = data.dueDate !== undefined ? this.dayOf(data.dueDate, settings.timeZone) : null;
    const currentDay = dayInZone(current.dueDate, settings.timeZone);
    const dayChanged = day !== null && day !== currentDay;
    const itemsChanged =
      data.items !== undefined &&
      JSON.stringify(data.items.map((i) => [i.productId, i.quantity, i.notes ?? null])) !==
        JSON.stringify(current.items.map((i) => [i.productId, i.quantity, i.notes ?? null]));
    // Only the address's point moves (its text, label and notes as they are): a pin, allowed while the
    // stop is still ahead, after the content is locked too (a route is ordered on the day).
    const pinOnly =
      changed('address') &&
      !!data.address &&
      !!current.address &&
      sameValue({ ...current.address, lat: null, lng: null }, { ...data.address, lat: null, lng: null });
    const content: Record<ContentField, boolean> = {
      items: itemsChanged,
      fulfillment: changed('fulfillment'),
      address: changed('address') && !pinOnly,
      dueDate: dayChanged,
      window: changed('window'),
      b2bClientId: changed('b2bClientId'),
      paymentMethod: changed('paymentMethod'),
    };
    return {
      db,
      who,
      role,
      payer: who.kind === 'gateway' ? 'gateway' : role,
      companyId,
      settings,
      current,
      data,
      out: { ...data },
      history,
      day,
      currentDay,
      dayChanged,
      itemsChanged,
      fulfillment: data.fulfillment ?? current.fulfillment,
      editing: CONTENT_FIELDS.filter((f) => content[f]),
      pinOnly,
      method: current.paymentMethod,
      changed,
      log: (field, from, to, note, names) =>
        history.push({ at, by: actor, field, from, to, ...(note ? { note } : {}), ...(names ? { names } : {}) }),
    };
  }

  /** The steps of an update, in the order they run (the order of their history entries too). */
  private readonly updateSteps: readonly { name: string; run: (u: OrderUpdate) => void | Promise<void> }[] = [
    { name: 'lock-content', run: (u) => this.lockContent(u) },
    { name: 'status', run: (u) => this.moveStatus(u) },
    { name: 'field-moments', run: (u) => this.checkFieldMoments(u) },
    { name: 'people', run: (u) => this.checkPeople(u) },
    { name: 'payment-method', run: (u) => this.changePaymentMethod(u) },
    { name: 'payment', run: (u) => this.movePayment(u) },
    { name: 'refund', run: (u) => this.recordRefund(u) },
    { name: 'refunds-due', run: (u) => this.settleRefundsDue(u) },
    { name: 'day-and-window', run: (u) => this.moveDay(u) },
    { name: 'fulfillment', run: (u) => this.changeFulfillment(u) },
    { name: 'place', run: (u) => this.placeAddress(u) },
    { name: 'lines-and-amounts', run: (u) => this.repriceLines(u) },
    { name: 'history-of-the-rest', run: (u) => this.logTheRest(u) },
  ];

  /** The lines, the day and the delivery details change only while the order is editable. */
  private lockContent(u: OrderUpdate): void {
    const { current, editing, out } = u;
    if (editing.length > 0 && !EDITABLE_STATUSES.includes(current.status)) {
      throw rule(
        'orders/locked',
        `An order that is ${current.status} cannot change: ${editing.join(', ')}`,
        editing[0],
      );
    }
    if (u.pinOnly && !(ROUTABLE_STATUSES as readonly OrderStatus[]).includes(current.status)) {
      throw rule('orders/locked', `An order that is ${current.status} cannot change: address`, 'address');
    }
    for (const f of CONTENT_FIELDS) if (!editing.includes(f) && !(f === 'address' && u.pinOnly)) delete out[f];
  }

  /**
   * The address's point (modules/delivery/address-placing.ts): the geocoder writes only the point it found
   * for the address as it still is, and only where nobody has placed one; a person's pin wins (`pinned`);
   * a new place drops the old point and goes back to the geocoder's queue.
   */
  private placeAddress(u: OrderUpdate): void {
    const { current, data, out, who } = u;
    if (who.kind === 'system' && who.reason === 'geocoding') {
      const sent = data.address;
      if (current.geoSource !== null || !current.address || !sent || !samePlace(current.address, sent)) {
        throw new AppError(409, 'conflict', `Order #${current.number}'s address changed or was placed meanwhile`);
      }
      const point = pointOf({ address: sent });
      out.geoCheckedAt = this.clock.now();
      if (point) {
        out.address = { ...current.address, ...point };
        out.geoSource = 'geocoded';
      } else delete out.address;
      return;
    }
    if (!('address' in out)) return;
    const next = out.address as OrderRow['address'];
    if (!next) {
      out.geoSource = null;
      out.geoCheckedAt = null;
      return;
    }
    const before = current.address;
    const nextPoint = pointOf({ address: next });
    const beforePoint = before ? pointOf({ address: before }) : null;
    if (!sameValue(nextPoint, beforePoint)) {
      // A pin placed, moved or taken away: a person's; taken away, the geocoder looks again.
      out.geoSource = nextPoint ? 'pinned' : null;
      if (!nextPoint) out.geoCheckedAt = null;
    } else if (!before || !samePlace(before, next)) {
      // Another place with the old point kept: the point was the old place's.
      out.address = { ...next, lat: null, lng: null };
      out.geoSource = null;
      out.geoCheckedAt = null;
    }
  }

  /** Status (docs/design.md §5): the machine and the role table; a cancellation needs a reason. */
  private moveStatus(u: OrderUpdate): void {
    const { current, data, out, role } = u;
    const to = data.status;
    if (to === undefined || to === current.status) {
      delete out.status;
      return;
    }
    const allowed = role ? allowedStatusMoves(role, current.status, u.fulfillment) : systemStatusMoves(u.who, current);
    if (!allowed.includes(to)) {
      throw new AppError(
        422,
        'orders/invalid-transition',
        `Order #${current.number} cannot go from ${current.status} to ${to}; allowed: ${listOrNone(allowed)}`,
        [{ path: 'status', message: `Allowed: ${listOrNone(allowed)}` }],
      );
    }
    if (to === 'cancelled') {
      const reason = data.cancelReason ?? current.cancelReason;
      if (!reason) throw validationError([{ path: 'cancelReason', message: 'Say why the order is cancelled' }]);
      if (!CANCELLABLE_STATUSES.includes(current.status)) throw badRequest('Not cancellable');
      // The reason belongs to the move (field-moments refuses it with any other): logged just before it.
      if (!sameValue(data.cancelReason, current.cancelReason) && data.cancelReason !== undefined) {
        u.log('cancelReason', current.cancelReason, data.cancelReason);
      }
    }
    if (current.status === 'out_for_delivery' && to === 'ready') {
      // "No recibió": the driver says why at the door; the order stays assigned (the driver
      // still carries it back and may try again), flagged for the office to reassign.
      if (!data.notReceived) {
        throw validationError([{ path: 'notReceived', message: 'Say why the order was not received' }]);
      }
      u.log('notReceived', current.notReceived, data.notReceived);
    } else if (to === 'out_for_delivery' && current.notReceived) {
      // It sets off again: the failed attempt stays in history only.
      out.notReceived = null;
      u.log('notReceived', current.notReceived, null);
    }
    if (to === 'delivered') out.completedAt = this.clock.now();
    u.log('status', current.status, to);
  }

  /** The customer and the driver an order names must have those roles. */
  private async checkPeople(u: OrderUpdate): Promise<void> {
    const { db, companyId, current, data } = u;
    if (data.customerId && u.changed('customerId')) {
      await this.assertRole(db, companyId, data.customerId, rolesWith('orders:own'), 'customerId');
    }
    if (u.changed('deliveryAssistantId')) {
      if (data.deliveryAssistantId) await this.assertDriver(db, companyId, data.deliveryAssistantId);
      const from = current.deliveryAssistantId;
      const to = data.deliveryAssistantId ?? null;
      u.log('deliveryAssistantId', from, to, undefined, await this.namesOf(db, users, companyId, from, to));
    }
  }

  /** A new payment method only while unpaid; online is the gateway's, credit the B2B client's. */
  private changePaymentMethod(u: OrderUpdate): void {
    const { current, data } = u;
    if (!u.editing.includes('paymentMethod')) return;
    const method = data.paymentMethod!;
    const b2b = data.b2bClientId !== undefined ? data.b2bClientId : current.b2bClientId;
    if (current.paymentStatus !== 'unpaid' || method === 'online' || (method === 'credit' && !b2b)) {
      throw rule('orders/invalid-payment', `The payment method cannot become ${method} now`, 'paymentMethod');
    }
    u.method = method;
    u.log('paymentMethod', current.paymentMethod, method);
  }

  /** The payment axis by method and role; a driver's collected cash pays a cash order or an unpaid transfer. */
  private movePayment(u: OrderUpdate): void {
    const { current, data, out, payer, method } = u;
    const paymentTo = data.paymentStatus;
    delete out.paymentStatus;
    if (u.changed('refundReason') && paymentTo !== 'refunded') {
      throw new AppError(
        422,
        'orders/field-outside-move',
        `refundReason cannot change on order #${current.number} without a refund; it changes only with the move of the payment to refunded`,
        [{ path: 'refundReason', message: 'Changes only with the move of the payment to refunded' }],
      );
    }
    if (paymentTo !== undefined && paymentTo !== current.paymentStatus) {
      if (paymentTo === 'paid' && u.who.kind !== 'gateway') {
        const refused = cancelledNotPayable([
          { number: current.number, status: data.status ?? current.status, path: 'paymentStatus' },
        ]);
        if (refused) throw refused;
      }
      const allowed = payer ? allowedPaymentMoves(payer, method, current.paymentStatus) : [];
      if (!allowed.includes(paymentTo)) {
        throw new AppError(
          422,
          'orders/invalid-payment',
          `The payment of order #${current.number} (${method}) cannot go from ${current.paymentStatus} to ${paymentTo}; allowed: ${listOrNone(allowed)}`,
          [{ path: 'paymentStatus', message: `Allowed: ${listOrNone(allowed)}` }],
        );
      }
      if (paymentTo === 'refunded') {
        // The reason belongs to the refund (docs/design.md §5), logged just before it.
        const reason = data.refundReason ?? current.refundReason;
        if (!reason) throw validationError([{ path: 'refundReason', message: 'Say why the order is refunded' }]);
        if (u.changed('refundReason')) u.log('refundReason', current.refundReason, data.refundReason);
      }
      out.paymentStatus = paymentTo;
      u.log('paymentStatus', current.paymentStatus, paymentTo);
    } else if (
      u.changed('cashCollected') &&
      (method === 'cash' || method === 'transfer') &&
      current.paymentStatus === 'unpaid' &&
      (data.cashCollected ?? 0) >= current.total
    ) {
      // The driver's collected cash pays a cash order (docs/design.md §5: "cash collected on delivery"), and an
      // unconfirmed transfer paid at the door instead: that one was paid in cash, so its method
      // becomes cash, and the cash summary counts it both to collect and collected.
      if (method === 'transfer') {
        out.paymentMethod = 'cash';
        u.method = 'cash';
        u.log('paymentMethod', 'transfer', 'cash', 'cash-collected');
      }
      out.paymentStatus = 'paid';
      u.log('paymentStatus', 'unpaid', 'paid', 'cash-collected');
    }
    if (u.changed('cashCollected')) u.log('cashCollected', current.cashCollected, data.cashCollected);
  }

  /**
   * Refunds, whole or partial (the admin's, as the move to refunded): one at a time, at most what is left
   * (paid less the refunds before it). The row is locked for the write (resources/service.ts), so two refunds
   * sent at once are applied one after the other and the second sees the first: never more than was paid.
   * The refund that leaves nothing moves the payment to refunded with its reason; the old move to refunded
   * (paymentStatus and refundReason, no amount) records one refund of what is left, so `refunds` always
   * lists every peso given back.
   */
  private recordRefund(u: OrderUpdate): void {
    const { current, data, out, payer, method } = u;
    delete out.refund;
    const before = current.refunds ?? [];
    const done = before.reduce((sum, r) => sum + r.amount, 0);
    const left = Math.max(0, current.total - done);
    const by = historyBy(u.who);
    const at = this.clock.now().toISOString();
    const sent = data.refund;
    if (!sent) {
      if (out.paymentStatus === 'refunded' && current.paymentStatus !== 'refunded' && left > 0) {
        const reason = data.refundReason ?? current.refundReason ?? '';
        out.refunds = [...before, { amount: left, reason, at, by }];
        u.log('refunds', done, current.total);
      }
      return;
    }
    if (!(payer && payer !== 'gateway' && allowedPaymentMoves(payer, method, 'paid').includes('refunded'))) {
      throw new AppError(403, 'forbidden', `Refunds of order #${current.number} are recorded by the admin`, [
        { path: 'refund', message: 'Only the admin records a refund' },
      ]);
    }
    if (current.paymentStatus !== 'paid' || out.paymentStatus !== undefined) {
      throw new AppError(
        422,
        'orders/not-refundable',
        `Order #${current.number} is ${current.paymentStatus}: only a paid order is refunded`,
        [{ path: 'refund', message: 'Only a paid order is refunded' }],
      );
    }
    if (sent.amount > left) {
      throw new AppError(
        422,
        'orders/refund-too-large',
        `A refund of ${formatMoney(sent.amount)} is more than what is left to refund on order #${current.number}: ${formatMoney(left)}`,
        [{ path: 'refund.amount', message: `At most ${left}` }],
      );
    }
    out.refunds = [...before, { amount: sent.amount, reason: sent.reason, at, by }];
    u.log('refunds', done, done + sent.amount);
    if (sent.amount === left) {
      // Nothing left: the payment is refunded, with this refund's reason (docs/design.md §5).
      if (sent.reason !== current.refundReason) u.log('refundReason', current.refundReason, sent.reason);
      out.refundReason = sent.reason;
      out.paymentStatus = 'refunded';
      u.log('paymentStatus', current.paymentStatus, 'refunded');
    }
  }

  /**
   * Payments owed back: the gateway adds them (modules/payments); the refund of the order
   * (paid → refunded) empties them, and so does the one who may refund saying the money went back
   * (`refundsDue: []`). Every change lands in history.
   */
  private settleRefundsDue(u: OrderUpdate): void {
    const { current, out, payer, method } = u;
    const before = current.refundsDue ?? [];
    const sent = (u.data as { refundsDue?: unknown }).refundsDue;
    delete out.refundsDue;
    if (u.who.kind === 'gateway') {
      if (Array.isArray(sent) && !sameValue(sent, before)) {
        out.refundsDue = sent;
        u.log('refundsDue', before, sent);
      }
      return;
    }
    const refundedNow = out.paymentStatus === 'refunded' && current.paymentStatus !== 'refunded';
    if ((sent === undefined && !refundedNow) || before.length === 0) return;
    if (
      !refundedNow &&
      !(payer && payer !== 'gateway' && allowedPaymentMoves(payer, method, 'paid').includes('refunded'))
    ) {
      throw new AppError(
        422,
        'orders/invalid-payment',
        `The payments owed back on order #${current.number} are cleared by whoever may refund it`,
        [{ path: 'refundsDue', message: 'Only whoever may refund the order clears it' }],
      );
    }
    out.refundsDue = [];
    u.log('refundsDue', before, []);
  }

  /** Day and window: never a past or closed day; staff may pass the lead time and a full window. */
  private async moveDay(u: OrderUpdate): Promise<void> {
    const { current, data, out, settings: s, dayChanged } = u;
    const windowChanged = u.editing.includes('window');
    if (!dayChanged && !windowChanged) return;
    const newDay = u.day ?? u.currentDay;
    const window = data.window !== undefined ? data.window : current.window;
    const notes = await this.checkDay(u.db, u.companyId, s, newDay, window, true, current.id);
    if (dayChanged) {
      out.dueDate = dayStartInZone(newDay, s.timeZone);
      out.preparationDate = this.preparationOf(newDay, s);
      u.log('dueDate', u.currentDay, newDay, notes[0]);
    }
    if (windowChanged) u.log('window', current.window, window, dayChanged ? undefined : notes[0]);
  }

  /** A delivery needs an address; a pickup drops it. */
  private changeFulfillment(u: OrderUpdate): void {
    const { current, data, out, fulfillment } = u;
    if (fulfillment === 'delivery' && !(data.address !== undefined ? data.address : current.address)) {
      throw validationError([{ path: 'address', message: 'Required for delivery' }]);
    }
    if (u.editing.includes('fulfillment')) {
      u.log('fulfillment', current.fulfillment, fulfillment);
      if (fulfillment === 'pickup') out.address = null;
    }
  }

  /**
   * Lines and amounts: a product already on the order keeps the name and price copied when it was
   * ordered; one added now is priced from today's catalogue (B2B rules included).
   */
  private async repriceLines(u: OrderUpdate): Promise<void> {
    const { current, data, out, editing, itemsChanged } = u;
    const clientChanged = editing.includes('b2bClientId');
    if (!itemsChanged && !editing.includes('fulfillment') && !clientChanged) return;
    let lines: OrderLine[] = current.items;
    if (itemsChanged || clientChanged) {
      const items = data.items ?? current.items;
      const kept = new Map(current.items.map((l) => [l.productId, l]));
      const b2bId = data.b2bClientId !== undefined ? data.b2bClientId : current.b2bClientId;
      const known = clientChanged ? new Set<string>() : new Set(kept.keys());
      const [catalogue, client] = await Promise.all([
        this.productsOf(u.db, u.companyId, items, known),
        this.clientOf(u.db, u.companyId, b2bId),
      ]);
      lines = items.map((i) => {
        const was = !clientChanged ? kept.get(i.productId) : undefined;
        const product = was
          ? { id: was.productId, name: was.name, price: was.unitPrice, b2bPrice: null }
          : catalogue.get(i.productId)!;
        return orderLine(product, was ? null : client, i.quantity, i.notes ?? null);
      });
      if (itemsChanged) {
        u.log(
          'items',
          current.items.map((l) => ({ productId: l.productId, quantity: l.quantity })),
          lines.map((l) => ({ productId: l.productId, quantity: l.quantity })),
        );
      }
      if (clientChanged) {
        const names = await this.namesOf(u.db, b2bClients, u.companyId, current.b2bClientId, b2bId ?? null);
        u.log('b2bClientId', current.b2bClientId, b2bId, undefined, names);
        out.channel = b2bId ? 'b2b' : current.channel === 'b2b' ? 'staff' : current.channel;
      }
      out.items = lines;
    }
    const totals = orderTotals(lines, u.fulfillment, u.settings, current.discount);
    assertTotalWithinCap(totals);
    Object.assign(out, totals);
    if (totals.total !== current.total) u.log('total', current.total, totals.total);
  }

  /**
   * A field bound to a moment of the order (docs/design.md §5's role × field table, ORDER_FIELD_MOMENTS)
   * changes only in that moment: a reason only with a cancellation, cash only on the way or with the
   * delivery, never on a cancelled order. Judged after the status step, so the move is a valid one.
   */
  private checkFieldMoments(u: OrderUpdate): void {
    const { current, data, role } = u;
    // The other actors' lines reach no field bound to a moment (a gateway moves the payment only).
    if (!role) return;
    const to = data.status !== undefined && data.status !== current.status ? data.status : null;
    for (const field of MOMENT_FIELDS) {
      const sent = data[field];
      if (sent === undefined || sameValue(sent, current[field])) continue;
      if (mayChangeFieldAt(role, field, current.status, to)) continue;
      const when = to ? `with the move to ${to}` : `while it is ${current.status}`;
      throw outsideMoment(role, field, `${field} cannot change on order #${current.number} ${when}`);
    }
  }

  /**
   * Every other change of a writable field lands in history too (contact, address, customer, route,
   * produced quantities, the cancellation's reason, notes): compared with what is stored, whoever
   * writes it. The fields the steps above own log themselves.
   */
  private async logTheRest(u: OrderUpdate): Promise<void> {
    for (const field of LOGGED_BY_THE_REST) {
      if (!(field in u.out)) continue;
      // The geocoder's point is not a change anybody made to the order.
      if (field === 'address' && u.who.kind === 'system' && u.who.reason === 'geocoding') continue;
      const before = u.current[field];
      const after = u.out[field];
      if (sameValue(before, after)) continue;
      const names =
        field === 'customerId'
          ? await this.namesOf(u.db, users, u.companyId, u.current.customerId, (after as string | null) ?? null)
          : undefined;
      u.log(field, before ?? null, after ?? null, undefined, names);
    }
  }

  /**
   * The names of the people (or B2B clients) a change went from and to, as they are now: history keeps them,
   * so its line reads "Asignado a Carlos Pérez" after the person is renamed or gone.
   */
  private async namesOf(
    db: DbOrTx,
    table: typeof users | typeof b2bClients,
    companyId: string,
    from: string | null,
    to: string | null,
  ): Promise<HistoryEntry['names']> {
    const ids = [from, to].filter((id): id is string => typeof id === 'string' && id !== '');
    if (ids.length === 0) return undefined;
    const rows =
      table === users
        ? await db
            .select({ id: users.id, name: users.name })
            .from(users)
            .where(and(inArray(users.id, ids), eq(users.companyId, companyId)))
        : await db
            .select({ id: b2bClients.id, name: b2bClients.businessName })
            .from(b2bClients)
            .where(and(inArray(b2bClients.id, ids), eq(b2bClients.companyId, companyId)));
    const name = (id: string | null) => (id ? (rows.find((r) => r.id === id)?.name ?? null) : null);
    return { from: name(from), to: name(to) };
  }
}

/**
 * One rule for marking a cancelled order paid, whichever door a person uses: the
 * payment step of a PATCH and `mark-paid` both ask it, so both answer the same 422. `status` is the
 * order's status after the write. A gateway is not asked: money it received after a cancellation is
 * recorded as owed back (modules/payments), not refused.
 */
export function cancelledNotPayable(
  orders: readonly { number: number; status: OrderStatus; path: string }[],
): AppError | null {
  const cancelled = orders.filter((o) => o.status === 'cancelled');
  if (cancelled.length === 0) return null;
  const names = cancelled.map((o) => `#${o.number}`).join(', ');
  return new AppError(
    422,
    'orders/cancelled-not-payable',
    `A cancelled order cannot be marked paid: ${names}`,
    cancelled.map((o) => ({ path: o.path, message: `#${o.number} is cancelled` })),
  );
}

/**
 * The one status move the server makes on its own: a web order still pending whose online payment was
 * abandoned is cancelled (payments reconciliation), which frees its window's place.
 */
function systemStatusMoves(who: WriteActor, current: OrderRow): OrderStatus[] {
  const abandoned = who.kind === 'system' && who.reason === 'payment-abandoned';
  return abandoned && current.status === 'pending' && current.paymentMethod === 'online' ? ['cancelled'] : [];
}

/** A 422 naming the field and when it may change. */
function outsideMoment(role: Role, field: MomentField, what: string): AppError {
  const moment = fieldMomentOf(role, field);
  const when = moment ? describeMoment(moment) : '';
  const only = when ? `it changes only ${when}` : 'it does not change now';
  return new AppError(422, 'orders/field-outside-move', `${what}; ${only}`, [
    { path: field, message: `Changes only ${when || 'in another moment'}` },
  ]);
}

/**
 * The moment fields of a new order: a back-office order starts pending or confirmed, so a field of a
 * later move (a cancellation's reason, cash, produced quantities) is refused on creation.
 */
export function assertNewOrderMoments(role: Role, data: Record<string, unknown>): void {
  const status: OrderStatus = data.status === 'confirmed' ? 'confirmed' : 'pending';
  for (const field of MOMENT_FIELDS) {
    const value = data[field];
    if (value === undefined || value === null || sameValue(value, {})) continue;
    if (!mayChangeFieldAt(role, field, status, null)) {
      throw outsideMoment(role, field, `${field} cannot be set on a new order that is ${status}`);
    }
  }
}

/** Two stored values are the same whatever the order of their keys (jsonb reorders them). */
function sameValue(a: unknown, b: unknown): boolean {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canonical)
      : v && typeof v === 'object' && !(v instanceof Date)
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
          )
        : v;
  return JSON.stringify(canonical(a ?? null)) === JSON.stringify(canonical(b ?? null));
}

/** An order as stored (the table's row: dates are Dates). */
export type OrderRow = typeof orders.$inferSelect;

/** The writable fields no step logs itself: history-of-the-rest logs their changes. */
const LOGGED_BY_THE_REST = [
  'customerId',
  'contact',
  'address',
  'routePosition',
  'producedQuantities',
  'notes',
] as const satisfies readonly (keyof OrderInput & keyof OrderRow)[];
/** The writable fields the other steps log (cancelReason with the cancellation, in the status step). */
type LoggedBySteps =
  | 'status'
  | 'cancelReason'
  | 'notReceived'
  | 'refundReason'
  | 'refundsDue'
  | 'refund'
  | 'deliveryAssistantId'
  | 'paymentMethod'
  | 'paymentStatus'
  | 'cashCollected'
  | 'dueDate'
  | 'window'
  | 'fulfillment'
  | 'items'
  | 'b2bClientId';
type Unlogged = Exclude<keyof OrderInput, (typeof LOGGED_BY_THE_REST)[number] | LoggedBySteps>;
/** Fails to compile when OrderInput gains a field that no step logs (every change lands in history). */
const _everyFieldLogged: [Unlogged] extends [never] ? true : Unlogged = true;

/** The fields of an order's content: they change only while the order is editable (EDITABLE_STATUSES). */
const CONTENT_FIELDS = [
  'dueDate',
  'window',
  'items',
  'fulfillment',
  'address',
  'b2bClientId',
  'paymentMethod',
] as const;
type ContentField = (typeof CONTENT_FIELDS)[number];

/** One update as its steps see it: the row before, the fields sent, and what the steps decide. */
interface OrderUpdate {
  readonly db: DbOrTx;
  /** Who writes; `role` its role when a user (status moves), `payer` who moves the payment. */
  readonly who: WriteActor;
  readonly role: Role | null;
  readonly payer: PaymentActor | null;
  readonly companyId: string;
  readonly settings: SettingsInput;
  readonly current: OrderRow;
  readonly data: Partial<OrderInput>;
  /** What is stored: the fields sent, which the steps drop, reshape and add to. */
  readonly out: Record<string, unknown>;
  /** The order's history with this write's entries added. */
  readonly history: HistoryEntry[];
  /** The day sent (in the company's zone), or null; the order's day before the write. */
  readonly day: string | null;
  readonly currentDay: string;
  readonly dayChanged: boolean;
  readonly itemsChanged: boolean;
  /** The fulfilment after this write. */
  readonly fulfillment: Fulfillment;
  /** The content fields this write changes (the first one names a locked order's refusal). */
  readonly editing: readonly ContentField[];
  /** Only the address's point changes (a pin): allowed while the stop is ahead (ROUTABLE_STATUSES). */
  readonly pinOnly: boolean;
  /** The payment method after this write (the payment-method step sets a new one). */
  method: OrderPaymentMethod;
  /** The field was sent with a value other than the order's. */
  changed(k: keyof OrderInput): boolean;
  log(field: string, from: unknown, to: unknown, note?: string, names?: HistoryEntry['names']): void;
}

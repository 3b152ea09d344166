import { timingSafeEqual } from 'node:crypto';
import { canonicalHash } from '../../lib/canonical-hash';
import { and, count, eq, gte, isNull, lt, ne, sql } from 'drizzle-orm';
import {
  addDays,
  dayInZone,
  dayStartInZone,
  can,
  GUEST_ORDER_FIELDS,
  lastBookableDay,
  offeredDays,
  slotKey,
  SUSPICIOUS_SAME_PHONE,
  type CheckoutInput,
  type GuestOrder,
  type OfferedDay,
  type SuspiciousOrder,
  type User,
} from '@hornada/domain';
import type { AppContext, Caller } from '../../context';
import type { RequestContext } from '../../request-context';
import { orders, users } from '../../db/schema';
import { AppError, notFound } from '../../lib/errors';
import type { Row, WriteScope } from '../../resources/definition';
import type { ResourceRegistry, ServiceOf } from '../../resources/registry';
import { asUser, guestActor, type Actor } from '../../resources/actor';
import { writeAccess } from '../../resources/access';
import { getCompany } from '../../resources/tenant';
import { hashSession, type CartsService, type Holder } from '../carts';
import type { OrderPayments, PaymentLink } from './order-payments';
import { CheckoutBounds, unpaidWebOrders } from './checkout-bounds';
import { OrderRules } from './order-rules';

/** Purpose of the MAC that makes a guest's order link (keys.mac: a secret of its own). */
const LINK_PURPOSE = 'order-link v1';

/** The most suspicious orders one answer lists: the horizon's days × a window's places, with room. */
const MAX_SUSPICIOUS = 1000;

/** Calendar days from `a` to `b` (`YYYY-MM-DD`; negative when b is earlier). */
const daysBetween = (a: string, b: string) => Math.round((Date.parse(b) - Date.parse(a)) / 86_400_000);

/** A stable hash of a checkout body: keys sorted at every level, so field order does not matter. */
const requestHash = (body: unknown): string => canonicalHash(body);

/** What a guest (or anyone holding the link) reads of an order. */
export function guestView(order: Row): Partial<GuestOrder> {
  const out: Record<string, unknown> = {};
  for (const f of GUEST_ORDER_FIELDS) out[f] = order[f];
  return out as Partial<GuestOrder>;
}

/**
 * Orders beyond the generic resource (docs/design.md §3, §5): the rules every order write runs (`rules`, added
 * to the orders resource's hooks where the app is composed: modules/compose.ts), the days and windows offered, checkout from a cart, and the guest's
 * link to their order.
 */
/** An address kept in a customer's account. */
type SavedAddress = User['addresses'][number];

export class OrdersService {
  readonly rules: OrderRules;
  private readonly orders: ServiceOf<'orders'>;
  private readonly bounds: CheckoutBounds;

  constructor(
    private readonly ctx: AppContext,
    private readonly resources: ResourceRegistry,
    private readonly carts: CartsService,
    private readonly payments: OrderPayments,
  ) {
    this.rules = new OrderRules();
    this.bounds = new CheckoutBounds(ctx);
    this.orders = resources.get('orders');
  }

  /** The days from `from` (the company's today by default) that offer a window, with places left. */
  async deliveryDays(companyId: string, from: string | undefined, days: number): Promise<OfferedDay[]> {
    const company = await getCompany(this.ctx, companyId);
    const s = await this.rules.settingsOf(this.ctx.db, company.id);
    const now = this.ctx.clock.now();
    const today = dayInZone(now, s.timeZone);
    const start = from && from > today ? from : today;
    // Nothing past the booking horizon is offered: checkout would refuse it.
    const span = Math.min(days, daysBetween(start, lastBookableDay(today)) + 1);
    if (span <= 0) return [];
    const rows = await this.ctx.db
      .select({ dueDate: orders.dueDate, window: orders.window, n: count() })
      .from(orders)
      .where(
        and(
          eq(orders.companyId, company.id),
          gte(orders.dueDate, dayStartInZone(start, s.timeZone)),
          lt(orders.dueDate, dayStartInZone(addDays(start, span), s.timeZone)),
          ne(orders.status, 'cancelled'),
          isNull(orders.deletedAt),
        ),
      )
      .groupBy(orders.dueDate, orders.window);
    const taken = new Map(rows.map((r) => [slotKey(dayInZone(r.dueDate, s.timeZone), r.window), r.n]));
    return offeredDays(s, now, start, span, taken);
  }

  /**
   * The web orders staff should look at: unpaid, due today or later, sharing their phone
   * (as phoneKey() reads it) with at least two other unpaid web orders due the same day. For those
   * who take orders and may cancel any of them: the permission table's orders:create.
   */
  async suspicious(rc: RequestContext): Promise<SuspiciousOrder[]> {
    const companyId = rc.company();
    writeAccess('orders', asUser(rc.caller), companyId, 'create');
    const company = await getCompany(this.ctx, companyId);
    const today = dayInZone(rc.now, company.timeZone);
    const db = this.ctx.db;
    const counted = db
      .select({
        id: orders.id,
        number: orders.number,
        dueDate: orders.dueDate,
        samePhone: sql<number>`count(*) OVER (PARTITION BY ${orders.phoneKey}, ${orders.dueDate})`
          .mapWith(Number)
          .as('same_phone'),
      })
      .from(orders)
      .where(and(unpaidWebOrders(company.id), gte(orders.dueDate, dayStartInZone(today, company.timeZone))))
      .as('counted');
    const rows = await db
      .select()
      .from(counted)
      .where(gte(counted.samePhone, SUSPICIOUS_SAME_PHONE))
      .orderBy(counted.dueDate, counted.number)
      .limit(MAX_SUSPICIOUS);
    return rows.map((r) => ({ id: r.id, number: r.number, dueDate: r.dueDate.toISOString(), samePhone: r.samePhone }));
  }

  /** The link a guest reaches their order by: its id and a MAC only the server can make. */
  linkToken(orderId: string): string {
    return `${orderId}.${this.ctx.keys.mac(LINK_PURPOSE, orderId)}`;
  }

  /** The order a guest link names, once its MAC verifies (404 otherwise: never confirm an id exists). */
  orderIdOfLink(token: string): string {
    const [id, mac] = token.split('.');
    if (!id || !mac) throw notFound('Order not found');
    const expected = Buffer.from(this.ctx.keys.mac(LINK_PURPOSE, id));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw notFound('Order not found');
    return id;
  }

  /** The order a guest link names; with `shopId`, only in that bakery (the host's, docs/design.md §4). */
  async byLink(token: string, shopId?: string | null): Promise<Partial<GuestOrder>> {
    const id = this.orderIdOfLink(token);
    const [row] = await this.ctx.db
      .select()
      .from(orders)
      .where(
        and(
          eq(orders.id, id),
          isNull(orders.deletedAt),
          shopId === undefined ? undefined : eq(orders.companyId, shopId ?? ''),
        ),
      );
    if (!row) throw notFound('Order not found');
    return guestView(row as Row);
  }

  /**
   * Places a web order from a cart (docs/design.md §5), in one transaction: the cart locked, its lines priced
   * from the catalogue, the day and window checked again under the slot's lock, the number taken, the
   * order written through the orders service, the cart closed. The same Idempotency-Key with the
   * same body returns the order already placed; another body, or another key, is a 409.
   */
  async checkout(
    holder: Holder,
    cartId: string,
    key: string,
    body: Omit<CheckoutInput, 'createAccount'>,
    /** The caller's network address (request.ip), for the bound on unpaid orders an address places. */
    address: string,
  ): Promise<Partial<GuestOrder> & { accessToken: string; payment?: PaymentLink }> {
    const { remember, ...input } = body;
    const hash = requestHash(body);
    // The gateway brings the shopper back to the shop they ordered at (docs/design.md §4: every bakery a shop).
    const shopOrigin = holder.shopId ? await this.ctx.shops.originOf(holder.shopId) : this.ctx.config.publicUrl;
    let companyId = '';
    // The company is known once the cart is read, inside the transaction (one round trip fewer).
    const { row, link } = await this.resources.transaction(
      () => companyId,
      async (scope) => {
        const now = this.ctx.clock.now();
        // An open cart is closed (and locked) at once; else it was checked out, or is not there.
        const open = await this.carts.closeForCheckout(scope.tx, holder, cartId, now);
        const cart = open ?? (await this.carts.lockForCheckout(scope.tx, holder, cartId));
        companyId = cart.companyId;
        if (!open) {
          const [placed] = await scope.tx.select().from(orders).where(eq(orders.cartId, cart.id)).limit(1);
          if (placed?.idempotencyKey === key && placed.requestHash === hash) {
            // The same answer again, an online order's link to its latest attempt included.
            const link =
              placed.paymentMethod === 'online'
                ? await this.payments.latestLink(scope.tx, placed.id, this.paymentReturnUrl(placed.id, shopOrigin))
                : null;
            return { row: placed as Row, link };
          }
          if (placed?.idempotencyKey === key) {
            throw new AppError(
              409,
              'orders/idempotency-mismatch',
              'This Idempotency-Key was used with another request',
            );
          }
          if (placed) throw new AppError(409, 'orders/cart-checked-out', 'This cart has already been checked out');
          throw notFound('Cart not found');
        }
        const customer = this.customerOf(holder.rc.caller, cart.companyId) ?? cart.customerId;
        // The customer's cart is emptied by the order, however it is paid (an online order too, unpaid yet).
        if (customer) await this.carts.closeCustomerCarts(scope.tx, customer, cart.companyId, now);
        const company = await getCompany(this.ctx, cart.companyId);
        const origin = this.bounds.originOf(
          { customerId: customer, sessionHash: cart.sessionHash },
          address,
          input.contact.phone,
        );
        await this.bounds.assertMayBook(scope.tx, cart.companyId, company.timeZone, origin);
        const settings = await this.rules.settingsOf(scope.tx, cart.companyId);
        await this.bounds.assertWindowShare(
          scope.tx,
          cart.companyId,
          settings,
          input.dueDate,
          input.window,
          origin.originKey,
        );
        // The cart's holder: its signed-in user (under its line `checkout`), or a guest named as it
        // signed the order, known by a hash of its session.
        const actor: Actor =
          asUser(holder.rc.caller, 'checkout') ??
          guestActor(input.contact.name, holder.sessionId ? hashSession(holder.sessionId) : undefined);
        const items = cart.items.map((i) => ({ ...i, notes: null }));
        // Through the orders service: the rules (before-write) price it and check its day.
        const created = await this.orders.create(
          actor,
          cart.companyId,
          {
            ...input,
            items,
            customerId: customer,
            cartId: cart.id,
            idempotencyKey: key,
            requestHash: hash,
            holderKey: origin.holderKey,
            originKey: origin.originKey,
          },
          scope,
        );
        if (remember && holder.rc.caller && customer === holder.rc.caller.uid) {
          await this.rememberContact(scope, holder.rc.caller, input);
        }
        if (input.paymentMethod !== 'online') return { row: created, link: null };
        // Online: the first attempt, in the same transaction; the order's payment pending at the gateway.
        const started = await this.payments.startAttempt(
          scope,
          created,
          this.paymentReturnUrl(created.id as string, shopOrigin),
        );
        return { row: started.order, link: started.link };
      },
    );
    const out = { ...guestView(row), accessToken: this.linkToken(row.id as string) };
    return link ? { ...out, payment: link } : out;
  }

  /**
   * Where the gateway sends the browser back (docs/design.md §3): the payment-response page of this order, on the
   * shop's origin (`origin`: the host's bakery; PUBLIC_URL for the market).
   */
  paymentReturnUrl(orderId: string, origin: string = this.ctx.config.publicUrl): string {
    return `${origin}/respuesta-de-pago?pedido=${encodeURIComponent(this.linkToken(orderId))}`;
  }

  /**
   * The signed-in customer's phone and delivery address kept in their own account, in the order's
   * transaction and through the users service under their line `account`: the address used goes first (the
   * checkout offers the first), an address already kept is not kept twice, at most ten are kept.
   */
  private async rememberContact(
    scope: WriteScope,
    caller: Caller,
    input: Omit<CheckoutInput, 'createAccount' | 'remember'>,
  ): Promise<void> {
    const [me] = await scope.tx
      .select({ phone: users.phone, addresses: users.addresses })
      .from(users)
      .where(eq(users.id, caller.uid))
      .limit(1);
    if (!me) return;
    const set: { phone?: string; addresses?: SavedAddress[] } = {};
    if (input.contact.phone !== me.phone) set.phone = input.contact.phone;
    const used = input.fulfillment === 'delivery' ? input.address : null;
    if (used) {
      const key = (a: SavedAddress) =>
        [a.line, a.neighborhood ?? '', a.city ?? ''].map((x) => x.trim().toLocaleLowerCase('es-CO')).join('\n');
      const kept = me.addresses.find((a) => key(a) === key(used));
      const first = { ...used, label: kept?.label ?? used.label };
      const addresses = [first, ...me.addresses.filter((a) => a !== kept)].slice(0, 10);
      if (JSON.stringify(addresses) !== JSON.stringify(me.addresses)) set.addresses = addresses;
    }
    if (Object.keys(set).length === 0) return;
    await this.resources.users.update(asUser(caller, 'account'), caller.companyId, caller.uid, set, scope);
  }

  private customerOf(caller: Caller | null, companyId: string): string | null {
    return caller && can(caller.role, 'orders:own') && caller.companyId === companyId ? caller.uid : null;
  }
}

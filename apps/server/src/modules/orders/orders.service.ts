import { createHash, timingSafeEqual } from 'node:crypto';
import { and, count, eq, gte, isNull, lt, ne } from 'drizzle-orm';
import {
  addDays,
  dayInZone,
  dayStartInZone,
  can,
  GUEST_ORDER_FIELDS,
  IMPORT_REASONS,
  OrderInput,
  offeredDays,
  slotKey,
  type CheckoutInput,
  type Order,
  type OfferedDay,
} from '@hornada/domain';
import type { AppContext, Caller } from '../../context';
import { orders } from '../../db/schema';
import { AppError, notFound } from '../../lib/errors';
import type { Row } from '../../resources/definition';
import type { ResourceRegistry } from '../../resources/registry';
import { asUser, guestActor, historyBy, type Actor } from '../../resources/actor';
import type { ResourceService } from '../../resources/service';
import { getCompany } from '../../resources/tenant';
import { CartsService, hashSession, type Holder } from '../carts/carts.service';
import { OrderRules } from './order-rules';

/** Purpose of the MAC that makes a guest's order link (keys.mac: a secret of its own). */
const LINK_PURPOSE = 'order-link v1';

/** A stable hash of a checkout body: keys sorted at every level, so field order does not matter. */
function requestHash(body: unknown): string {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canonical)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
          )
        : v;
  return createHash('sha256')
    .update(JSON.stringify(canonical(body)))
    .digest('hex');
}

/** What a guest (or anyone holding the link) reads of an order. */
export function guestView(order: Row): Partial<Order> {
  const out: Record<string, unknown> = {};
  for (const f of GUEST_ORDER_FIELDS) out[f] = order[f];
  return out as Partial<Order>;
}

/**
 * Orders beyond the generic resource (design §3, §5): the rules every order write runs (set on the
 * orders service, the one door), the days and windows offered, checkout from a cart, and the guest's
 * link to their order.
 */
export class OrdersService {
  readonly rules: OrderRules;
  private readonly carts: CartsService;
  private readonly orders: ResourceService;

  constructor(
    private readonly ctx: AppContext,
    private readonly resources: ResourceRegistry,
  ) {
    this.rules = new OrderRules(ctx.clock);
    this.carts = new CartsService(ctx);
    this.orders = resources.get('orders');
    // The engine has checked the role, the writable fields and the references; the body passed OrderInput.
    this.orders.beforeWrite = async (_ctx, tx, actor, current, data, companyId) => {
      if (data.deletedAt === true) return data;
      if (current) return this.rules.prepareUpdate(tx, actor, companyId, current as never, data);
      // The demo's orders come priced and walked along the machine by these rules (seed/orders.ts).
      if (actor.kind === 'system' && IMPORT_REASONS.includes(actor.reason)) return data;
      // A cart's holder at checkout places a web order; anyone else the back office's.
      const web = actor.kind === 'guest' || (actor.kind === 'user' && actor.via === 'checkout');
      const values = await this.rules.prepareNew(tx, historyBy(actor), companyId, data as OrderInput, web);
      if (!web) return values;
      const { cartId, idempotencyKey, requestHash } = data;
      return { ...values, cartId, idempotencyKey, requestHash };
    };
  }

  /** The days from `from` (the company's today by default) that offer a window, with places left. */
  async deliveryDays(companyId: string, from: string | undefined, days: number): Promise<OfferedDay[]> {
    const company = await getCompany(this.ctx, companyId);
    const s = await this.rules.settingsOf(this.ctx.db, company.id);
    const now = this.ctx.clock.now();
    const today = dayInZone(now, s.timeZone);
    const start = from && from > today ? from : today;
    const rows = await this.ctx.db
      .select({ dueDate: orders.dueDate, window: orders.window, n: count() })
      .from(orders)
      .where(
        and(
          eq(orders.companyId, company.id),
          gte(orders.dueDate, dayStartInZone(start, s.timeZone)),
          lt(orders.dueDate, dayStartInZone(addDays(start, days), s.timeZone)),
          ne(orders.status, 'cancelled'),
          isNull(orders.deletedAt),
        ),
      )
      .groupBy(orders.dueDate, orders.window);
    const taken = new Map(rows.map((r) => [slotKey(dayInZone(r.dueDate, s.timeZone), r.window), r.n]));
    return offeredDays(s, now, start, days, taken);
  }

  /** The link a guest reaches their order by: its id and a MAC only the server can make. */
  linkToken(orderId: string): string {
    return `${orderId}.${this.ctx.keys.mac(LINK_PURPOSE, orderId)}`;
  }

  async byLink(token: string): Promise<Partial<Order>> {
    const [id, mac] = token.split('.');
    if (!id || !mac) throw notFound('Order not found');
    const expected = Buffer.from(this.ctx.keys.mac(LINK_PURPOSE, id));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw notFound('Order not found');
    const [row] = await this.ctx.db
      .select()
      .from(orders)
      .where(and(eq(orders.id, id), isNull(orders.deletedAt)));
    if (!row) throw notFound('Order not found');
    return guestView(row as Row);
  }

  /**
   * Places a web order from a cart (design §5), in one transaction: the cart locked, its lines priced
   * from the catalogue, the day and window checked again under the slot's lock, the number taken, the
   * order written through the orders service, the cart closed. The same Idempotency-Key with the
   * same body returns the order already placed; another body, or another key, is a 409.
   */
  async checkout(
    holder: Holder,
    cartId: string,
    key: string,
    input: CheckoutInput,
  ): Promise<Partial<Order> & { accessToken: string }> {
    const hash = requestHash(input);
    let companyId = '';
    // The company is known once the cart is read, inside the transaction (one round trip fewer).
    const row = await this.resources.transaction(
      () => companyId,
      async (scope) => {
        const now = this.ctx.clock.now();
        // An open cart is closed (and locked) at once; else it was checked out, or is not there.
        const open = await this.carts.closeForCheckout(scope.tx, holder, cartId, now);
        const cart = open ?? (await this.carts.lockForCheckout(scope.tx, holder, cartId));
        companyId = cart.companyId;
        if (!open) {
          const [placed] = await scope.tx.select().from(orders).where(eq(orders.cartId, cart.id)).limit(1);
          if (placed?.idempotencyKey === key && placed.requestHash === hash) return placed as Row;
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
        const customer = this.customerOf(holder.caller, cart.companyId) ?? cart.customerId;
        // The cart's holder: its signed-in user (under its line `checkout`), or a guest named as it
        // signed the order, known by a hash of its session.
        const actor: Actor =
          asUser(holder.caller, 'checkout') ??
          guestActor(input.contact.name, holder.sessionId ? hashSession(holder.sessionId) : undefined);
        const items = cart.items.map((i) => ({ ...i, notes: null }));
        // Through the orders service: the rules (before-write) price it and check its day.
        return this.orders.create(
          actor,
          cart.companyId,
          { ...input, items, customerId: customer, cartId: cart.id, idempotencyKey: key, requestHash: hash },
          scope,
        );
      },
    );
    return { ...guestView(row), accessToken: this.linkToken(row.id as string) };
  }

  private customerOf(caller: Caller | null, companyId: string): string | null {
    return caller && can(caller.role, 'orders:own') && caller.companyId === companyId ? caller.uid : null;
  }
}

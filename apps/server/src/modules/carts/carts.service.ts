import { createHash, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import {
  BOOKING_HORIZON_DAYS,
  can,
  CART_MAX_LINES,
  CART_MAX_QUANTITY,
  SettingsInput,
  dayInZone,
  dayStartInZone,
  lastBookableDay,
  mergeReorder,
  priceLines,
  totalsOf,
  type Cart,
  type CartCreateInput,
  type CartInput,
  type CatalogueProduct,
  type ReorderAnswer,
  type ReorderInput,
} from '@hornada/domain';
import type { AppContext, Caller } from '../../context';
import type { RequestContext } from '../../request-context';
import type { DbOrTx } from '../../db';
import { carts, orders } from '../../db/schema';
import { AppError, DetailList, forbidden, notFound, unauthenticated, validationError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { getCompany } from '../../resources/tenant';
import { readSettingsAndProducts } from './catalogue-read';

type CartRow = typeof carts.$inferSelect;
type Item = CartInput['items'][number];

/** Who asks for a cart: the request (its caller, if any) and the X-Session-Id header (if sent). */
export interface Holder {
  rc: RequestContext;
  sessionId: string | undefined;
  /**
   * The bakery the request's host names (docs/design.md §4): a cart of another bakery is not found there, whoever
   * holds it. Undefined only for the server's own callers, which name no host.
   */
  shopId?: string | null;
}

/** Namespace of the per-customer advisory lock that serialises claims (two tabs signing in at once). */
const CLAIM_LOCK = 727276;

export const hashSession = (sessionId: string) => createHash('sha256').update(sessionId).digest('hex');

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The customer a cart of this company belongs to when this caller makes or claims it. */
function customerOf(caller: Caller | null, companyId: string): string | null {
  return caller && can(caller.role, 'orders:own') && caller.companyId === companyId ? caller.uid : null;
}

/**
 * One line a product: a product sent twice is merged (quantities added), and the sum must stay
 * within the per-line limit (a 400 naming the later line otherwise).
 */
function mergeDuplicates(items: readonly Item[]): Item[] {
  const byProduct = new Map<string, Item>();
  const problems = new DetailList();
  items.forEach((item, i) => {
    const seen = byProduct.get(item.productId);
    if (!seen) byProduct.set(item.productId, { ...item });
    else if (seen.quantity + item.quantity > CART_MAX_QUANTITY) {
      problems.add(`items.${i}.quantity`, `This product's lines add up to more than ${CART_MAX_QUANTITY}`);
    } else seen.quantity += item.quantity;
  });
  if (problems.total > 0) throw problems.toError();
  return [...byProduct.values()];
}

/**
 * Carts (docs/design.md §3, §4): the holder is the browser session that made the cart (X-Session-Id, kept as
 * a hash) or the customer it belongs to; anyone else gets a 404. Lines keep ids and quantities; names,
 * prices, images and totals are read from the catalogue and the settings at every read and write.
 */
export class CartsService {
  constructor(private readonly ctx: AppContext) {}

  async create(holder: Holder, input: CartCreateInput): Promise<Cart> {
    // A cart is made in the bakery whose shop the shopper is in, never another through its id.
    if (holder.shopId !== undefined && input.companyId !== holder.shopId) throw notFound('Company not found');
    const company = await getCompany(this.ctx, input.companyId);
    const customerId = customerOf(holder.rc.caller, company.id);
    if (!customerId && !holder.sessionId) {
      throw validationError([{ path: 'headers.x-session-id', message: 'Required to hold a cart as a guest' }]);
    }
    const { companyId: _companyId, ...fields } = input;
    const [catalogue, rules] = await this.load(this.ctx.db, company.id, input.items);
    const values = this.checked(fields, catalogue, rules, company.timeZone, new Set());
    // A customer's cart is theirs alone: a session that signs out cannot read their address.
    const sessionHash = customerId ? null : hashSession(holder.sessionId!);
    const now = this.ctx.clock.now();
    // The insert's trigger (migration 0016) closes the holder's open carts beyond the newest
    // CART_OPEN_PER_HOLDER, the one written longest ago first: closing beats refusing, since a shopper who
    // lost track of a cart (cleared storage, another device) still gets the cart they asked for.
    const [row] = await this.ctx.db
      .insert(carts)
      .values({
        id: newId(),
        companyId: company.id,
        createdAt: now,
        updatedAt: now,
        sessionHash,
        customerId,
        ...values,
      })
      .returning();
    return this.present(row!, catalogue, rules, company.timeZone);
  }

  async get(holder: Holder, id: string): Promise<Cart> {
    const [row] = await this.ctx.db
      .select()
      .from(carts)
      .where(and(eq(carts.id, id), isNull(carts.deletedAt)))
      .limit(1);
    if (!row || !this.holds(holder, row)) throw notFound('Cart not found');
    const company = await getCompany(this.ctx, row.companyId);
    const [catalogue, rules] = await this.load(this.ctx.db, row.companyId, row.items);
    return this.present(row, catalogue, rules, company.timeZone);
  }

  /** PUT: every writable field replaced. Lines already saved stay even if their product became unavailable. */
  async replace(holder: Holder, id: string, input: CartInput): Promise<Cart> {
    return this.ctx.db.transaction(async (tx) => {
      const row = await this.lockHeld(tx, holder, id);
      const company = await getCompany(this.ctx, row.companyId);
      const [catalogue, rules] = await this.load(tx, row.companyId, input.items);
      const saved = new Set(row.items.map((i) => i.productId));
      const values = this.checked(input, catalogue, rules, company.timeZone, saved);
      const [updated] = await tx
        .update(carts)
        .set({ ...values, updatedAt: this.ctx.clock.now() })
        .where(eq(carts.id, row.id))
        .returning();
      return this.present(updated!, catalogue, rules, company.timeZone);
    });
  }

  /**
   * A guest's cart joins the signed-in customer's account: it becomes theirs (the session no longer
   * holds it), the lines of their other open carts are added in (quantities summed, capped at the
   * per-line limit, at most CART_MAX_LINES lines, this cart's first) and those carts are removed.
   */
  async claim(holder: Holder, id: string): Promise<Cart> {
    const caller = holder.rc.caller;
    if (!caller) throw unauthenticated();
    return this.ctx.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${CLAIM_LOCK}, hashtext(${caller.uid}))`);
      const row = await this.lockHeld(tx, holder, id);
      const customerId = customerOf(caller, row.companyId);
      if (!customerId) throw forbidden("Only this bakery's customers keep a cart in their account");
      const others = await tx
        .select()
        .from(carts)
        .where(
          and(
            eq(carts.customerId, customerId),
            eq(carts.companyId, row.companyId),
            isNull(carts.deletedAt),
            ne(carts.id, row.id),
          ),
        )
        .orderBy(desc(carts.updatedAt), carts.id)
        .for('update');
      const quantities = new Map<string, number>();
      for (const cart of [row, ...others]) {
        for (const item of cart.items) {
          const had = quantities.get(item.productId);
          if (had === undefined && quantities.size >= CART_MAX_LINES) continue;
          quantities.set(item.productId, Math.min(CART_MAX_QUANTITY, (had ?? 0) + item.quantity));
        }
      }
      // This cart's checkout fields win; the latest other cart fills those it left empty.
      const latest = others[0];
      const now = this.ctx.clock.now();
      const [claimed] = await tx
        .update(carts)
        .set({
          customerId,
          sessionHash: null,
          items: [...quantities].map(([productId, quantity]) => ({ productId, quantity })),
          contact: row.contact ?? latest?.contact ?? null,
          address: row.address ?? latest?.address ?? null,
          dueDate: row.dueDate ?? latest?.dueDate ?? null,
          window: row.window ?? latest?.window ?? null,
          notes: row.notes ?? latest?.notes ?? null,
          updatedAt: now,
        })
        .where(eq(carts.id, row.id))
        .returning();
      if (others.length > 0) {
        await tx
          .update(carts)
          .set({ deletedAt: now, updatedAt: now })
          .where(
            inArray(
              carts.id,
              others.map((o) => o.id),
            ),
          );
      }
      const company = await getCompany(this.ctx, row.companyId);
      const [catalogue, rules] = await this.load(tx, row.companyId, claimed!.items);
      return this.present(claimed!, catalogue, rules, company.timeZone);
    });
  }

  /**
   * "Pedir de nuevo": one of the signed-in customer's own orders of this bakery into the cart they hold
   * (`cartId`), or into a new cart of theirs (null). One line a product: a product already in the cart keeps
   * the larger quantity (mergeReorder), so a second "Pedir de nuevo" never doubles it; products no longer on
   * sale are left out and named. Someone else's order or cart is a 404.
   */
  async reorder(holder: Holder, input: ReorderInput): Promise<ReorderAnswer> {
    const caller = holder.rc.caller;
    if (!caller) throw unauthenticated();
    const [order] = await this.ctx.db
      .select({ companyId: orders.companyId, items: orders.items })
      .from(orders)
      .where(
        and(
          eq(orders.id, input.orderId),
          eq(orders.customerId, caller.uid),
          isNull(orders.deletedAt),
          holder.shopId === undefined ? undefined : eq(orders.companyId, holder.shopId ?? ''),
        ),
      )
      .limit(1);
    if (!order) throw notFound('Order not found');
    const customerId = customerOf(caller, order.companyId);
    if (!customerId) throw forbidden("Only this bakery's customers keep a cart in their account");
    return this.ctx.db.transaction(async (tx) => {
      const row = input.cartId ? await this.lockHeld(tx, holder, input.cartId) : null;
      if (row && row.companyId !== order.companyId) throw notFound('Cart not found');
      const company = await getCompany(this.ctx, order.companyId);
      const [catalogue, rules] = await this.load(tx, order.companyId, [...(row?.items ?? []), ...order.items]);
      const onSale = new Set([...catalogue.values()].filter((p) => p.active && !p.deleted).map((p) => p.id));
      const { lines, ...told } = mergeReorder(
        row?.items ?? [],
        order.items.map((i) => ({ productId: i.productId, name: i.name, quantity: i.quantity })),
        onSale,
      );
      if (lines.length === 0) {
        throw new AppError(422, 'cart/reorder-unavailable', "None of this order's products is on sale any more");
      }
      const now = this.ctx.clock.now();
      const [saved] = row
        ? await tx.update(carts).set({ items: lines, updatedAt: now }).where(eq(carts.id, row.id)).returning()
        : await tx
            .insert(carts)
            .values({
              id: newId(),
              companyId: order.companyId,
              createdAt: now,
              updatedAt: now,
              sessionHash: null,
              customerId,
              items: lines,
            })
            .returning();
      return { cart: this.present(saved!, catalogue, rules, company.timeZone), ...told };
    });
  }

  /**
   * Checkout (modules/orders): a customer's cart in a bakery is one cart (claim merges them), so once an
   * order is placed from one, whatever the payment method, their other open carts there close with it: none
   * comes back with lines the shopper has just ordered.
   */
  async closeCustomerCarts(tx: DbOrTx, customerId: string, companyId: string, now: Date): Promise<void> {
    await tx
      .update(carts)
      .set({ deletedAt: now, updatedAt: now })
      .where(and(eq(carts.customerId, customerId), eq(carts.companyId, companyId), isNull(carts.deletedAt)));
  }

  /** The signed-in user's latest open cart, or null. */
  async mine(rc: RequestContext, shopId?: string | null): Promise<Cart | null> {
    const { caller } = rc;
    if (!caller) throw unauthenticated();
    const [row] = await this.ctx.db
      .select()
      .from(carts)
      .where(
        and(
          eq(carts.customerId, caller.uid),
          isNull(carts.deletedAt),
          shopId === undefined ? undefined : eq(carts.companyId, shopId ?? ''),
        ),
      )
      .orderBy(desc(carts.updatedAt), carts.id)
      .limit(1);
    if (!row) return null;
    const company = await getCompany(this.ctx, row.companyId);
    const [catalogue, rules] = await this.load(this.ctx.db, row.companyId, row.items);
    return this.present(row, catalogue, rules, company.timeZone);
  }

  private holds(holder: Holder, row: CartRow): boolean {
    if (holder.shopId !== undefined && row.companyId !== holder.shopId) return false;
    if (holder.rc.caller && row.customerId === holder.rc.caller.uid) return true;
    return !!holder.sessionId && !!row.sessionHash && sameHash(hashSession(holder.sessionId), row.sessionHash);
  }

  /**
   * Checkout (modules/orders): the cart, checked out or not, locked for the ordering transaction when
   * the holder holds it; 404 otherwise. A customer's cart stays theirs after it became an order.
   */
  async lockForCheckout(tx: DbOrTx, holder: Holder, id: string): Promise<CartRow> {
    const [row] = await tx.select().from(carts).where(eq(carts.id, id)).for('update');
    if (!row || !this.holds(holder, row)) throw notFound('Cart not found');
    return row;
  }

  /**
   * Checkout's first step: the open cart closed (and so locked) in one statement, when the holder holds
   * it; null when there is no open cart of that id (checked out already, or none: lockForCheckout tells).
   */
  async closeForCheckout(tx: DbOrTx, holder: Holder, id: string, now: Date): Promise<CartRow | null> {
    const [row] = await tx
      .update(carts)
      .set({ deletedAt: now, updatedAt: now })
      .where(and(eq(carts.id, id), isNull(carts.deletedAt)))
      .returning();
    // Someone else's cart: 404 like an unknown one, and the caller's transaction rolls the close back.
    if (row && !this.holds(holder, row)) throw notFound('Cart not found');
    return row ?? null;
  }

  /** The open cart, locked for this transaction, when the holder holds it; 404 otherwise (never confirmed). */
  private async lockHeld(tx: DbOrTx, holder: Holder, id: string): Promise<CartRow> {
    const [row] = await tx
      .select()
      .from(carts)
      .where(and(eq(carts.id, id), isNull(carts.deletedAt)))
      .for('update');
    if (!row || !this.holds(holder, row)) throw notFound('Cart not found');
    return row;
  }

  /** The cart's products (public fields only: never b2bPrice) and the company's settings, in one query. */
  private async load(db: DbOrTx, companyId: string, items: readonly Item[]) {
    const read = await readSettingsAndProducts(
      db,
      companyId,
      items.map((i) => i.productId),
    );
    const catalogue = new Map<string, CatalogueProduct>(
      read.products.map(({ b2bPrice: _wholesale, ...p }) => [p.id, p]),
    );
    // A company always gets settings with its creation; the defaults cover a row written by hand.
    const rules = read.settings?.data ?? SettingsInput.parse({ marketName: 'Hornada' });
    return [catalogue, rules] as const;
  }

  /**
   * The rules of a write (docs/design.md §3): a product unknown in this company is a 400; one inactive or
   * deleted is a 422 unless the saved cart already had it (kept and flagged); pickup must be offered
   * and the window must be one of the company's. Returns the columns to store.
   */
  private checked(
    input: CartInput,
    catalogue: ReadonlyMap<string, CatalogueProduct>,
    rules: SettingsInput,
    timeZone: string,
    saved: ReadonlySet<string>,
  ) {
    const items = mergeDuplicates(input.items);
    const unknown = new DetailList();
    const unavailable = new DetailList();
    input.items.forEach((item, i) => {
      const p = catalogue.get(item.productId);
      const path = `items.${i}.productId`;
      if (!p) unknown.add(path, `No product with id ${item.productId} in this bakery`);
      else if ((!p.active || p.deleted) && !saved.has(p.id))
        unavailable.add(path, 'This product is no longer available');
    });
    if (unknown.total > 0) throw unknown.toError();
    if (input.window !== null && !rules.deliveryWindows.some((w) => w.id === input.window)) {
      throw validationError([{ path: 'window', message: 'Not a delivery window of this bakery' }]);
    }
    if (unavailable.total > 0) {
      const paths = unavailable.items.map((d) => d.path).join(', ');
      throw new AppError(
        422,
        'cart/product-unavailable',
        `This product is no longer available: ${paths}`,
        unavailable.items,
      );
    }
    if (input.fulfillment === 'pickup' && !rules.pickupEnabled) {
      throw new AppError(422, 'cart/pickup-unavailable', 'This bakery does not offer pickup', [
        { path: 'fulfillment', message: 'Pickup is not offered' },
      ]);
    }
    const due = input.dueDate;
    // An instant (a GET's value sent back) is the day it falls on in the company's time zone.
    const day = due === null ? null : due.length === 10 ? due : dayInZone(new Date(due), timeZone);
    // The day picker's horizon (checkout checks it again): a day in 2099 is no cart's business. A day
    // that has passed is kept: the cart is still the customer's, and checkout asks for another day.
    const last = lastBookableDay(dayInZone(this.ctx.clock.now(), timeZone));
    if (day !== null && day > last) {
      throw new AppError(
        422,
        'orders/beyond-horizon',
        `Orders may be due at most ${BOOKING_HORIZON_DAYS} days ahead, up to ${last}`,
        [{ path: 'dueDate', message: `At most ${last}` }],
      );
    }
    return {
      items,
      contact: input.contact,
      fulfillment: input.fulfillment,
      address: input.address,
      dueDate: day,
      window: input.window,
      notes: input.notes,
    };
  }

  private present(
    row: CartRow,
    catalogue: ReadonlyMap<string, CatalogueProduct>,
    rules: SettingsInput,
    timeZone: string,
  ): Cart {
    const lines = priceLines(row.items, catalogue);
    return {
      id: row.id,
      companyId: row.companyId,
      customerId: row.customerId,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      items: lines,
      contact: row.contact ?? null,
      fulfillment: row.fulfillment,
      address: row.address ?? null,
      dueDate: row.dueDate ? dayStartInZone(row.dueDate, timeZone).toISOString() : null,
      window: row.window,
      notes: row.notes,
      ...totalsOf(lines, row.fulfillment, rules),
    };
  }
}

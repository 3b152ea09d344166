import { and, eq, gte, isNull, lt, ne, notInArray, or, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import {
  addDays,
  dayInZone,
  dayStartInZone,
  lastBookableDay,
  phoneKey,
  windowShareOf,
  type SettingsInput,
} from '@hornada/domain';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db';
import { orders } from '../../db/schema';
import { AppError, type Detail } from '../../lib/errors';

/** Namespace of the advisory locks on one holder, phone or address of a company at checkout. */
const BOUND_LOCK = 727291;
/** Purpose of the MAC that stands for a network address on an order (the address is never stored). */
const ORIGIN_PURPOSE = 'checkout-origin v1';

/** Who places a web order and from where, as stored on it (hashes only; see the orders table). */
export interface CheckoutOrigin {
  /** `c:` and the customer's id, or `s:` and the sha256 of the browser session's id. */
  holderKey: string;
  /** A keyed hash of the network address (Fastify's `request.ip`, TRUST_PROXY-aware). */
  originKey: string;
  phoneKey: string;
}

/** Design §5's "unpaid" (not cancelled, not paid) web orders of a company that are not deleted. */
export function unpaidWebOrders(companyId: string) {
  return and(
    eq(orders.companyId, companyId),
    eq(orders.channel, 'web'),
    ne(orders.status, 'cancelled'),
    notInArray(orders.paymentStatus, ['paid', 'refunded']),
    isNull(orders.deletedAt),
  );
}

type Kind = 'holder' | 'phone' | 'address';
const WHO: Record<Kind, string> = { holder: 'browser session or account', phone: 'phone', address: 'network address' };

/**
 * The bounds on unpaid web orders: one guest session filled a window's 20 places
 * with fake cash orders in a second. A holder (session or customer), a phone and a network address
 * may each have CHECKOUT_UNPAID_PER_* unpaid web orders placed in one day (the company's); past that,
 * a 429 until the day ends. "Unpaid" is docs/design.md §5's: not cancelled and not paid, so a cancelled order
 * gives its place in the bound back. Counted under locks on the three keys, held until commit, so two
 * checkouts at once from one session cannot both take the last place.
 * Not here yet: an online attempt that fails or expires should release its window's place; that
 * belongs to the online-payment issue (only cash and transfer reach checkout today).
 */
export class CheckoutBounds {
  constructor(private readonly ctx: AppContext) {}

  originOf(holder: { customerId: string | null; sessionHash: string | null }, address: string, phone: string) {
    return {
      holderKey: holder.customerId ? `c:${holder.customerId}` : `s:${holder.sessionHash ?? ''}`,
      originKey: this.ctx.keys.mac(ORIGIN_PURPOSE, address),
      phoneKey: phoneKey(phone),
    } satisfies CheckoutOrigin;
  }

  async assertMayBook(tx: DbOrTx, companyId: string, timeZone: string, origin: CheckoutOrigin): Promise<void> {
    const { perHolder, perPhone, perAddress } = this.ctx.config.checkoutBounds;
    const bounds = (
      [
        ['holder', perHolder],
        ['phone', perPhone],
        ['address', perAddress],
      ] as const
    ).filter(([, max]) => max > 0);
    if (bounds.length === 0) return;
    const keyOf = (kind: Kind) =>
      kind === 'holder' ? origin.holderKey : kind === 'phone' ? origin.phoneKey : origin.originKey;
    const lockKeys = bounds.map(([kind]) => sql`${`${companyId}|${kind}|${keyOf(kind)}`}`);
    // Taken in the order of their numbers, so two checkouts sharing two keys never wait on each other.
    await tx.execute(
      sql`SELECT pg_advisory_xact_lock(${BOUND_LOCK}, h) FROM (SELECT DISTINCT hashtext(k) AS h FROM unnest(ARRAY[${sql.join(lockKeys, sql`, `)}]::text[]) AS k ORDER BY 1) AS l`,
    );

    const now = this.ctx.clock.now();
    const today = dayInZone(now, timeZone);
    const ends = dayStartInZone(addDays(today, 1), timeZone);
    const counted = (column: AnyPgColumn, value: string) =>
      sql<number>`count(*) FILTER (WHERE ${column} = ${value})`.mapWith(Number);
    const [n] = await tx
      .select({
        holder: counted(orders.holderKey, origin.holderKey),
        phone: counted(orders.phoneKey, origin.phoneKey),
        address: counted(orders.originKey, origin.originKey),
      })
      .from(orders)
      .where(
        and(
          unpaidWebOrders(companyId),
          gte(orders.createdAt, dayStartInZone(today, timeZone)),
          lt(orders.createdAt, ends),
          or(
            eq(orders.holderKey, origin.holderKey),
            eq(orders.phoneKey, origin.phoneKey),
            eq(orders.originKey, origin.originKey),
          ),
        ),
      );
    for (const [kind, max] of bounds) {
      if ((n?.[kind] ?? 0) < max) continue;
      const details: Detail[] | undefined =
        kind === 'phone' ? [{ path: 'contact.phone', message: `At most ${max} unpaid orders a day` }] : undefined;
      const seconds = Math.max(1, Math.ceil((ends.getTime() - now.getTime()) / 1000));
      throw new AppError(
        429,
        'orders/too-many-unpaid',
        `This ${WHO[kind]} already has ${max} unpaid orders placed today, the most allowed: try again tomorrow or contact the bakery`,
        details,
        { 'retry-after': String(seconds) },
      );
    }
  }

  /**
   * A network address's share of a window with a capacity: sessions and phones are free
   * to invent, so one script from one address booked all 5 places of a small window under the daily
   * bounds. Its unpaid web orders in one (day, window) may hold at most `windowShareOf(capacity, percent)`
   * places (half, rounded up, by default), so a second shopper still books; not less, as a household, an
   * office or a carrier's shared address is also many real shoppers. No Retry-After: a place comes back
   * when one of the address's orders is paid or cancelled, not at a time. Counted under a lock on
   * (address, slot), taken after the daily bounds' and before the order rules' slot lock (the same order
   * in every checkout, so none waits on another in a cycle).
   */
  async assertWindowShare(
    tx: DbOrTx,
    companyId: string,
    s: Pick<SettingsInput, 'timeZone' | 'deliveryWindows'>,
    day: string,
    window: string | null,
    originKey: string,
  ): Promise<void> {
    const percent = this.ctx.config.checkoutBounds.windowSharePercent;
    const capacity = s.deliveryWindows.find((w) => w.id === window)?.capacity ?? null;
    if (percent <= 0 || capacity === null || window === null) return;
    // A day past the horizon is the order rules' refusal (and its arithmetic is theirs to bound).
    if (day > lastBookableDay(dayInZone(this.ctx.clock.now(), s.timeZone))) return;
    const share = windowShareOf(capacity, percent);
    const dueDate = dayStartInZone(day, s.timeZone);
    await tx.execute(
      sql`SELECT pg_advisory_xact_lock(${BOUND_LOCK}, hashtext(${`${companyId}|share|${day}|${window}|${originKey}`}))`,
    );
    const [n] = await tx
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(orders)
      .where(
        and(
          unpaidWebOrders(companyId),
          eq(orders.originKey, originKey),
          eq(orders.dueDate, dueDate),
          eq(orders.window, window),
        ),
      );
    if ((n?.n ?? 0) < share) return;
    throw new AppError(
      429,
      'orders/window-share-taken',
      `This network address already holds ${share} of the ${capacity} places of this window, the most one address may hold unpaid: choose another window, or pay or cancel one of those orders`,
      [{ path: 'window', message: `At most ${share} of its ${capacity} places from one address` }],
    );
  }
}

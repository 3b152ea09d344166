import { addDays, checkSlot, slotKey, weekdayOf, type DaySettings } from '@hornada/domain/order-days';
import { dayInZone } from '@hornada/domain/days';
import { windowLabel } from '@hornada/domain/order-display';
import type { B2bTerms, PricedProduct } from '@hornada/domain/order-pricing';
import type { OfferedDay, OrderPaymentMethod } from '@hornada/domain/schemas/orders';
import type { PaymentMethod } from '@hornada/domain/constants';

/**
 * Order entry's pure rules (docs/design.md §5): which days and windows staff may choose and what to warn about,
 * which price rule a B2B line follows (the price itself is `unitPriceFor`'s), the payment methods, and the
 * credit check. The server decides; these only say it to staff before they submit.
 */

/** A window as staff sees it: `late` when it starts within the lead time, `full` when no place is left. */
export interface WindowChoice {
  id: string | null;
  label: string;
  capacity: number | null;
  remaining: number | null;
  late: boolean;
  full: boolean;
}

export interface DayChoice {
  date: string;
  windows: WindowChoice[];
}

/** A bakery without windows delivers all day (as packages/domain's order-days says). */
const ALL_DAY = { id: null, label: 'Todo el día', start: '00:00', end: '23:59', capacity: null } as const;

/**
 * Today and the next `days - 1` days on which the bakery delivers, each with every window: those
 * delivery-days offers (with its places left), and those it leaves out for the lead time, marked `late`
 * with the places `taken` (slotKey → orders) leaves. Past, closed and blackout days are never offered:
 * the server refuses them even to staff.
 */
export function dayChoices(
  settings: DaySettings,
  offered: readonly OfferedDay[],
  now: Date,
  days: number,
  taken: ReadonlyMap<string, number>,
): DayChoice[] {
  const today = dayInZone(now, settings.timeZone);
  const windows = settings.deliveryWindows.length > 0 ? settings.deliveryWindows : [ALL_DAY];
  const out: DayChoice[] = [];
  for (let i = 0; i < days; i++) {
    const date = addDays(today, i);
    if (!settings.deliveryDays.includes(weekdayOf(date)) || settings.blackoutDates.includes(date)) continue;
    const offeredDay = offered.find((d) => d.date === date);
    const choices: WindowChoice[] = [];
    for (const w of windows) {
      const on = offeredDay?.windows.find((o) => o.id === w.id);
      if (on) {
        choices.push({ ...pick(w), remaining: on.remaining, late: false, full: on.remaining === 0 });
        continue;
      }
      const n = taken.get(slotKey(date, w.id)) ?? 0;
      const problem = checkSlot(settings, now, date, w.id, n);
      if (problem !== 'lead-time' && problem !== 'capacity' && problem !== null) continue;
      const remaining = w.capacity === null ? null : Math.max(0, w.capacity - n);
      choices.push({ ...pick(w), remaining, late: problem === 'lead-time', full: remaining === 0 });
    }
    if (choices.length > 0) out.push({ date, windows: choices });
  }
  return out;
}

// The window's one label, as the shop says it (packages/domain order-display); the all-day window its own.
const pick = (w: { id: string | null; label: string; start?: string; end?: string; capacity: number | null }) => ({
  id: w.id,
  label: w.id === null ? w.label : windowLabel(w.id, [w]),
  capacity: w.capacity,
});

/** The days (from today) whose windows may fall within the lead time: their places are counted here. */
export function leadDays(settings: DaySettings, now: Date): { from: string; to: string } {
  const from = dayInZone(now, settings.timeZone);
  return { from, to: addDays(from, Math.ceil(settings.orderLeadHours / 24)) };
}

/** Orders per (day, window) from their due instant, read as the day in the bakery's zone. */
export function countSlots(
  orders: readonly { dueDate: string; window: string | null }[],
  timeZone: string,
): Map<string, number> {
  const out = new Map<string, number>();
  for (const o of orders) {
    const key = slotKey(dayInZone(new Date(o.dueDate), timeZone), o.window);
    out.set(key, (out.get(key) ?? 0) + 1);
  }
  return out;
}

/** Which of docs/design.md §5's B2B rules gives a product's price for this client (null: a list price). */
export type PriceRule = 'client' | 'b2b' | 'discount' | null;

export function priceRuleOf(product: PricedProduct, client: B2bTerms | null): PriceRule {
  if (!client) return null;
  if (client.prices.some((p) => p.productId === product.id)) return 'client';
  if (product.b2bPrice !== null) return 'b2b';
  return 'discount';
}

/**
 * What staff may charge with (the server's staff create: cash, transfer, credit): the bakery's own
 * methods that staff take in person, and credit for a B2B client.
 */
export function paymentChoices(methods: readonly PaymentMethod[], b2b: boolean): OrderPaymentMethod[] {
  const own = (['cash', 'transfer'] as const).filter((m) => methods.includes(m));
  const out: OrderPaymentMethod[] = own.length > 0 ? [...own] : ['cash'];
  return b2b ? ['credit', ...out] : out;
}

export interface CreditCheck {
  limit: number;
  /** The client's credit orders not yet paid. */
  used: number;
  /** `used` plus this order when it goes on credit. */
  after: number;
  over: boolean;
}

/** A B2B client's credit against its limit; null when it has none (a limit of 0). */
export function creditCheck(limit: number, used: number, orderTotal: number, onCredit: boolean): CreditCheck | null {
  if (limit <= 0) return null;
  const after = used + (onCredit ? orderTotal : 0);
  return { limit, used, after, over: after > limit };
}

const percents = new Intl.NumberFormat('es-CO', { maximumFractionDigits: 2 });
/** A percentage as people here write it: `7,5 %`. */
export const formatPercent = (value: number): string => `${percents.format(value)} %`;

// An order's day and window: the booking horizon, the bakery's days and windows, the lead time and a window's
// places, counted under the slot's lock.
import { and, count, eq, isNull, ne, sql } from 'drizzle-orm';
import {
  addDays,
  BOOKING_HORIZON_DAYS,
  checkSlot,
  dayInZone,
  dayStartInZone,
  lastBookableDay,
  type SettingsInput,
  type SlotProblem,
} from '@hornada/domain';
import type { DbOrTx } from '../../../db';
import { orders } from '../../../db/schema';
import { validationError } from '../../../lib/errors';
import { rule } from './problems';

/** Namespace of the advisory lock on one (company, day, window): capacity is counted under it. */
const SLOT_LOCK = 727290;

const SLOT_MESSAGES: Record<SlotProblem, string> = {
  past: 'This day has already passed',
  'not-delivery-day': 'The bakery does not deliver on this day',
  blackout: 'The bakery does not deliver on this day',
  'unknown-window': 'Not a delivery window of this bakery',
  'lead-time': 'This window closes for orders earlier than that: choose a later one',
  capacity: 'This window is full: choose another one',
};

/** The orders of a slot that are not cancelled, counted under the slot's lock (held until commit). */
async function taken(db: DbOrTx, companyId: string, dueDate: Date, window: string | null, except?: string) {
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

/** The day and window of an order, the order itself left out of the count (`except`, on an update). */
export interface SlotCheck {
  companyId: string;
  settings: SettingsInput;
  day: string;
  window: string | null;
  /** Staff may pass the lead time and a full window; the web never. */
  staff: boolean;
  now: Date;
  except?: string;
}

/**
 * The day and window: a web order gets exactly what `delivery-days` offers; staff may pass the
 * lead time and a full window (returned as notes for history) but never a past or closed day.
 */
export async function checkDay(db: DbOrTx, c: SlotCheck): Promise<string[]> {
  const s = c.settings;
  // The booking horizon binds staff too: a 2099 order holds a place nobody will fill.
  const last = lastBookableDay(dayInZone(c.now, s.timeZone));
  if (c.day > last) {
    throw rule(
      'orders/beyond-horizon',
      `Orders may be due at most ${BOOKING_HORIZON_DAYS} days ahead, up to ${last}`,
      'dueDate',
    );
  }
  const dueDate = dayStartInZone(c.day, s.timeZone);
  // Places are counted (under the slot's lock) only for a window that has a capacity: the others
  // never serialise the orders of one slot.
  const capacity = s.deliveryWindows.find((w) => w.id === c.window)?.capacity ?? null;
  const n = capacity === null ? 0 : await taken(db, c.companyId, dueDate, c.window, c.except);
  const problem = checkSlot(s, c.now, c.day, c.window, n);
  if (problem === null) return [];
  if (c.staff && (problem === 'lead-time' || problem === 'capacity')) return [problem];
  if (problem === 'unknown-window') throw validationError([{ path: 'window', message: SLOT_MESSAGES[problem] }]);
  const code = problem === 'capacity' ? 'orders/window-full' : 'orders/day-unavailable';
  throw rule(code, SLOT_MESSAGES[problem], problem === 'capacity' || problem === 'lead-time' ? 'window' : 'dueDate');
}

/** The day of a `YYYY-MM-DD` or of an instant, in the bakery's zone. */
export function dayOf(value: string, timeZone: string): string {
  return value.length === 10 ? value : dayInZone(new Date(value), timeZone);
}

/** When the kitchen makes a day's orders: the production lead days before it. */
export function preparationOf(day: string, s: SettingsInput): Date {
  return dayStartInZone(addDays(day, -s.productionLeadDays), s.timeZone);
}

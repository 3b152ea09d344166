import { dayInZone, dayStartInZone } from './days';
import type { SettingsInput } from './schemas/settings';
import type { OfferedDay } from './schemas/orders';

/**
 * Delivery days and windows (docs/design.md §5), pure: a day is offered when it is a delivery
 * weekday and not a blackout date; a window when it starts at least `orderLeadHours` after now, all
 * in the company's time zone. A window with a capacity counts the orders not cancelled.
 */
export type DaySettings = Pick<
  SettingsInput,
  'timeZone' | 'orderLeadHours' | 'deliveryDays' | 'deliveryWindows' | 'blackoutDates'
>;

/** Key of a (day, window) count; a company without windows counts whole days (window null). */
export const slotKey = (day: string, window: string | null) => `${day}|${window ?? ''}`;

/** `day` plus `n` calendar days (`YYYY-MM-DD`). */
export function addDays(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

/** The weekday (0 Sunday … 6 Saturday) of a calendar day. */
export function weekdayOf(day: string): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d)).getUTCDay();
}

/** The instant a wall-clock time (`HH:MM`) of a day happens in the zone. */
export function wallTimeInZone(day: string, hhmm: string, timeZone: string): Date {
  const [h, min] = hhmm.split(':').map(Number) as [number, number];
  // The day's start plus the hours: exact except on a day whose clocks change (none in Colombia).
  return new Date(dayStartInZone(day, timeZone).getTime() + (h * 60 + min) * 60_000);
}

/** A company without windows delivers all day: one window, measured from the day's start. */
const ALL_DAY = { id: null, label: 'Todo el día', start: '00:00', end: '23:59', capacity: null } as const;

/** Why a day or window is refused; null when it is offered. */
export type SlotProblem = 'past' | 'not-delivery-day' | 'blackout' | 'unknown-window' | 'lead-time' | 'capacity';

export function checkSlot(
  settings: DaySettings,
  now: Date,
  day: string,
  windowId: string | null,
  taken: number,
): SlotProblem | null {
  if (day < dayInZone(now, settings.timeZone)) return 'past';
  const windows = settings.deliveryWindows;
  const window = windows.length === 0 ? (windowId === null ? ALL_DAY : null) : windows.find((w) => w.id === windowId);
  if (!window) return 'unknown-window';
  if (!settings.deliveryDays.includes(weekdayOf(day))) return 'not-delivery-day';
  if (settings.blackoutDates.includes(day)) return 'blackout';
  const opens = wallTimeInZone(day, window.start, settings.timeZone).getTime();
  if (opens < now.getTime() + settings.orderLeadHours * 3_600_000) return 'lead-time';
  if (window.capacity !== null && taken >= window.capacity) return 'capacity';
  return null;
}

/**
 * The days from `from` (inclusive, `days` of them) that offer at least one window, each with the
 * windows that meet the lead time and the places they have left (a full window is listed with 0).
 */
export function offeredDays(
  settings: DaySettings,
  now: Date,
  from: string,
  days: number,
  taken: ReadonlyMap<string, number>,
): OfferedDay[] {
  const out: OfferedDay[] = [];
  const windows = settings.deliveryWindows.length > 0 ? settings.deliveryWindows : [ALL_DAY];
  for (let i = 0; i < days; i++) {
    const day = addDays(from, i);
    const offered = [];
    for (const w of windows) {
      const n = taken.get(slotKey(day, w.id)) ?? 0;
      const problem = checkSlot(settings, now, day, w.id, n);
      if (problem !== null && problem !== 'capacity') continue;
      offered.push({
        id: w.id,
        label: w.label,
        start: w.start,
        end: w.end,
        capacity: w.capacity,
        remaining: w.capacity === null ? null : Math.max(0, w.capacity - n),
      });
    }
    if (offered.length > 0) {
      out.push({ date: day, dueDate: dayStartInZone(day, settings.timeZone).toISOString(), windows: offered });
    }
  }
  return out;
}

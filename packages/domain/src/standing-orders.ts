import { dayInZone, dayStartInZone } from './days';
import { addDays, weekdayOf, wallTimeInZone, type DaySettings } from './order-days';
import type { SettingsInput } from './schemas/settings';
import type { StandingOrder } from './schemas/standing-orders';

/** What of a standing order decides its days. */
export type StandingTemplate = Pick<
  StandingOrder,
  'weekdays' | 'window' | 'startsOn' | 'endsOn' | 'skipDates' | 'active'
>;
export type HorizonSettings = DaySettings & Pick<SettingsInput, 'productionLeadDays'>;

const HOUR_MS = 3_600_000;
/** How far ahead the days are looked at: beyond any lead the settings allow (hours and days). */
const LOOK_AHEAD_DAYS = 62;

/** The instant a day's window opens (the day's start when the bakery has no windows or none is named). */
function opensAt(s: HorizonSettings, day: string, window: string | null): Date | null {
  if (s.deliveryWindows.length === 0) return dayStartInZone(day, s.timeZone);
  const w = s.deliveryWindows.find((x) => x.id === window);
  return w ? wallTimeInZone(day, w.start, s.timeZone) : null;
}

/**
 * When a day enters the order horizon (docs/design.md §3): `orderLeadHours` before its window opens, or
 * `productionLeadDays` before the day starts, whichever comes first: from then on the bakery plans it.
 */
export function entersHorizonAt(s: HorizonSettings, day: string, window: string | null): Date | null {
  const opens = opensAt(s, day, window);
  if (!opens) return null;
  const byHours = opens.getTime() - s.orderLeadHours * HOUR_MS;
  const byDays = dayStartInZone(addDays(day, -s.productionLeadDays), s.timeZone).getTime();
  return new Date(Math.min(byHours, byDays));
}

/** Whether a standing order orders on `day` at all: its weekdays, its dates, its skips, the bakery's days. */
export function ordersOn(t: StandingTemplate, s: HorizonSettings, day: string): boolean {
  return (
    t.active &&
    day >= t.startsOn &&
    (t.endsOn === null || day <= t.endsOn) &&
    t.weekdays.includes(weekdayOf(day)) &&
    !t.skipDates.includes(day) &&
    s.deliveryDays.includes(weekdayOf(day)) &&
    !s.blackoutDates.includes(day)
  );
}

/**
 * The days whose order is due now: ordered on, in the horizon, and whose window has not opened yet (a day
 * already served is not ordered after the fact, e.g. after the server was down).
 */
export function dueStandingDays(t: StandingTemplate, s: HorizonSettings, now: Date): string[] {
  const today = dayInZone(now, s.timeZone);
  const out: string[] = [];
  for (let i = 0; i <= LOOK_AHEAD_DAYS; i++) {
    const day = addDays(today, i);
    if (!ordersOn(t, s, day)) continue;
    const enters = entersHorizonAt(s, day, t.window);
    const opens = opensAt(s, day, t.window);
    if (!enters || !opens || enters.getTime() > now.getTime()) continue;
    if (opens.getTime() <= now.getTime()) continue;
    out.push(day);
  }
  return out;
}

/** The next `count` days a standing order orders on (made or not yet) whose window has not opened by `now`. */
export function nextStandingDays(t: StandingTemplate, s: HorizonSettings, now: Date, count: number): string[] {
  const today = dayInZone(now, s.timeZone);
  const out: string[] = [];
  for (let i = 0; i <= 366 && out.length < count; i++) {
    const day = addDays(today, i);
    const opens = opensAt(s, day, t.window);
    if (ordersOn(t, s, day) && opens && opens.getTime() > now.getTime()) out.push(day);
  }
  return out;
}

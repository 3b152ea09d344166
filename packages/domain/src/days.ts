/**
 * Calendar days in a company's time zone (docs/design.md §3): a day such as `dueDate` is stored as a date and
 * sent as the instant it starts there (22 Nov 2026 in Bogotá → 2026-11-22T05:00:00.000Z).
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

function wallClock(at: number, timeZone: string): Record<string, number> {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(at)) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return parts;
}

/** How far the zone's wall clock is ahead of UTC at `at`, in ms. */
function offsetAt(at: number, timeZone: string): number {
  const w = wallClock(at, timeZone);
  const asUtc = Date.UTC(w.year!, w.month! - 1, w.day!, w.hour!, w.minute!, w.second!);
  return asUtc - Math.floor(at / 1000) * 1000;
}

/** The day (`YYYY-MM-DD`) an instant falls on in the time zone. */
export function dayInZone(at: Date, timeZone: string): string {
  const w = wallClock(at.getTime(), timeZone);
  const pad = (n: number, size = 2) => String(n).padStart(size, '0');
  return `${pad(w.year!, 4)}-${pad(w.month!)}-${pad(w.day!)}`;
}

/**
 * The years a day someone asks about may name: `from=9999-12-31` overflowed the date
 * arithmetic into a 500. A bakery's records and plans lie well inside them; the server refuses others
 * with a 400 `days/out-of-range` before any arithmetic.
 */
export const DAY_YEARS = { first: 2000, last: 2100 } as const;

/** Whether a `YYYY-MM-DD` day lies in DAY_YEARS. */
export function isDayWithinYears(day: string): boolean {
  const year = Number(day.slice(0, 4));
  return /^\d{4}-\d{2}-\d{2}$/.test(day) && year >= DAY_YEARS.first && year <= DAY_YEARS.last;
}

/** Day starts already worked out (each costs two Intl calls; orders ask for the same few days again and again). */
const dayStarts = new Map<string, number>();
const DAY_STARTS_KEPT = 2000;

/** The instant a day (`YYYY-MM-DD`) starts in the time zone. */
export function dayStartInZone(day: string, timeZone: string): Date {
  const key = `${timeZone}|${day}`;
  const known = dayStarts.get(key);
  if (known !== undefined) return new Date(known);
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const midnightUtc = Date.UTC(y, m - 1, d);
  // The offset at the guess, then again at the result, in case a DST change lies between them.
  let start = midnightUtc - offsetAt(midnightUtc, timeZone);
  start = midnightUtc - offsetAt(start, timeZone);
  if (dayStarts.size >= DAY_STARTS_KEPT) dayStarts.clear();
  dayStarts.set(key, start);
  return new Date(start);
}

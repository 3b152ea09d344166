import { DAY_YEARS, isDayWithinYears } from '@hornada/domain';
import { AppError, type Detail } from './errors';

/**
 * Refuses days outside DAY_YEARS with a 400 `days/out-of-range` naming each, before a
 * report or a day's screen turns them into instants (a far-future day was a RangeError, a 500).
 * `days` maps the parameter's name to its value.
 */
export function assertDaysWithinYears(days: Record<string, string | undefined>): void {
  const details: Detail[] = Object.entries(days)
    .filter((entry): entry is [string, string] => entry[1] !== undefined && !isDayWithinYears(entry[1]))
    .map(([path]) => ({ path, message: `Must be a day from ${DAY_YEARS.first}-01-01 to ${DAY_YEARS.last}-12-31` }));
  if (details.length === 0) return;
  throw new AppError(
    400,
    'days/out-of-range',
    `Days must lie between the years ${DAY_YEARS.first} and ${DAY_YEARS.last}: ${details.map((d) => d.path).join(', ')}`,
    details,
  );
}

/**
 * The journeys' time. `E2E_NOW` (an ISO instant, e.g. `2026-11-28T06:50:00-05:00`) runs the whole suite as if
 * it were then: playwright.config.ts turns it into `HORNADA_CLOCK_OFFSET_MS` once, the app's clock adds that
 * offset (apps/server/src/lib/clock.ts), every browser context starts its clock at the same moved time
 * (fixtures.ts), and the tests' own dates come from `now()` here. Without it the offset is 0: real time.
 */
export const clockOffsetMs = Number(process.env.HORNADA_CLOCK_OFFSET_MS ?? 0);

/** Now, as the app under test sees it. */
export const now = (): Date => new Date(Date.now() + clockOffsetMs);

/** The bakery's day (Bogotá), `offset` days from today, as YYYY-MM-DD. */
export function bogotaDay(offset = 0): string {
  const [y, m, d] = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Bogota' })
    .format(now())
    .split('-')
    .map(Number);
  return new Date(Date.UTC(y!, m! - 1, d! + offset)).toISOString().slice(0, 10);
}

/**
 * The offset for `E2E_NOW`, computed once by the runner and inherited by its workers and the app: `null`
 * when the variable is not set.
 */
export function offsetFor(e2eNow: string | undefined): number | null {
  if (!e2eNow) return null;
  const at = Date.parse(e2eNow);
  if (Number.isNaN(at)) throw new Error(`E2E_NOW: not an instant (${e2eNow}); e.g. 2026-11-28T06:50:00-05:00`);
  return at - Date.now();
}

import type { SalesReport } from '@hornada/domain/sales-report';

/** What the sales screen shows of a report, pure: the changes against the previous period and the bars' widths. */

/** The change from `before` to `now` as a whole percentage; null when there is nothing to compare with. */
export function changePercent(now: number, before: number): number | null {
  if (before === 0) return null;
  return Math.round(((now - before) / before) * 100);
}

/** "+12 % frente al periodo anterior", "Igual que…", or that there was nothing before. */
export function changeText(now: number, before: number): string {
  const pct = changePercent(now, before);
  if (pct === null)
    return now === 0 ? 'Sin ventas en este ni en el periodo anterior' : 'Sin datos del periodo anterior';
  if (pct === 0) return 'Igual que el periodo anterior';
  return `${pct > 0 ? '+' : '−'}${Math.abs(pct)} % frente al periodo anterior`;
}

/** A bar's width as a percentage of the largest value in its list (at least a sliver when not zero). */
export function barWidth(value: number, max: number): number {
  if (max <= 0 || value <= 0) return 0;
  return Math.max(2, Math.round((value / max) * 100));
}

/** The first `n` rows of a breakdown (the server sends them largest first). */
export const top = <T>(rows: readonly T[], n = 8): T[] => rows.slice(0, n);

/** A day `YYYY-MM-DD` as "25 nov." for the chart's axis. */
export function shortDayEs(day: string): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Intl.DateTimeFormat('es-CO', { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(
    new Date(Date.UTC(y, m - 1, d)),
  );
}

export type ReportTotals = SalesReport['totals'];

import { formatMoney, formatMoneyCompact } from '@hornada/domain/format';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { SalesReport } from '@hornada/domain/sales-report';
import { shortDayEs } from './sales-view';

/**
 * Revenue by day as bars (Recharts). Only the sales screen imports this module, through
 * `lazy()`, so the library is a chunk of its own that the storefront and the orders screen never load.
 * The same figures are in the table beside it (the chart is hidden from screen readers).
 */
export default function SalesChart({ days }: { days: SalesReport['byDay'] }) {
  const data = days.map((d) => ({ ...d, label: shortDayEs(d.date) }));
  return (
    <div className="h-64 w-full" aria-hidden="true" data-testid="sales-chart">
      <ResponsiveContainer width="100%" height="100%">
        {/* No keyboard layer: the chart is hidden from assistive technology, the table beside it is the accessible one. */}
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }} accessibilityLayer={false}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e7e5e4" />
          <XAxis dataKey="label" tick={{ fontSize: 12, fill: '#57534e' }} minTickGap={16} />
          <YAxis
            tickFormatter={(v: number) => formatMoneyCompact(v)}
            tick={{ fontSize: 12, fill: '#57534e' }}
            width={48}
          />
          <Tooltip
            formatter={(value) => [formatMoney(Number(value)), 'Ventas']}
            labelFormatter={(label) => String(label)}
          />
          <Bar dataKey="revenue" fill="#78350f" radius={[3, 3, 0, 0]} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

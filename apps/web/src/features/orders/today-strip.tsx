import { formatMoney } from '@hornada/domain/format';
import { addDays } from '@hornada/domain/order-days';
import { can } from '@hornada/domain/policy';
import type { Role } from '@hornada/domain/roles';
import { Suspense, use, type ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { endpoints } from '../../lib/api/endpoints';

interface Today {
  orders: number;
  revenue: number;
  unpaidOrders: number;
  unpaidBalance: number;
  /** Ingredients short for tomorrow's production; null for a role that does not read production. */
  shortages: number | null;
}

/** What the strip shows: today's figures, or `failed` when they cannot be read. */
export type TodayFigures = Today | 'failed';

/**
 * Today's sales and the open balances (and tomorrow's shortages for a role that reads production), for a role
 * that reads reports, null for another role: what the orders screen's frame reads on entering it. The screen does
 * not wait for it: the strip says «…» until it comes.
 */
export function readToday(companyId: string, today: string, role: Role | null): Promise<TodayFigures> | null {
  if (role === null || !can(role, 'reports:read')) return null;
  return figuresOf(companyId, today, can(role, 'production:read'));
}

async function figuresOf(companyId: string, today: string, readsProduction: boolean): Promise<TodayFigures> {
  try {
    const [sales, unpaid, production] = await Promise.all([
      endpoints.salesReport(companyId, { from: today, to: today }),
      endpoints.unpaid(companyId),
      readsProduction ? endpoints.production(companyId, { date: addDays(today, 1) }) : Promise.resolve(null),
    ]);
    return {
      orders: sales.totals.orders,
      revenue: sales.totals.revenue,
      unpaidOrders: unpaid.reduce((n, p) => n + p.orders, 0),
      unpaidBalance: unpaid.reduce((n, p) => n + p.balance, 0),
      shortages: production ? production.ingredients.filter((i) => i.shortage > 0).length : null,
    };
  } catch {
    return 'failed';
  }
}

function Tile({ to, label, children }: { to: string; label: string; children: ReactNode }) {
  return (
    <li>
      <Link
        to={to}
        className="block h-full rounded-xl border border-stone-200 bg-white px-4 py-3 hover:border-amber-800 focus-visible:outline-2 focus-visible:outline-amber-900"
      >
        <span className="block text-xs font-medium uppercase tracking-wide text-stone-600">{label}</span>
        <span className="mt-1 block text-lg font-bold tabular-nums text-stone-900">{children}</span>
      </Link>
    </li>
  );
}

/**
 * The owner's glance at the top of the orders screen: today's orders and revenue, the
 * open balances, and the ingredients short for tomorrow's production; each links to its page.
 */
export function TodayStrip({ figures, today }: { figures: Promise<TodayFigures> | null; today: string }) {
  if (figures === null) return null;
  return (
    <Suspense fallback={<Tiles figures={null} today={today} />}>
      <Arrived figures={figures} today={today} />
    </Suspense>
  );
}

/** The tiles once the figures came (they never fail: `failed` is an answer). */
function Arrived({ figures, today }: { figures: Promise<TodayFigures>; today: string }) {
  return <Tiles figures={use(figures)} today={today} />;
}

/** The four tiles: null while the figures are on their way. */
function Tiles({ figures, today }: { figures: TodayFigures | null; today: string }) {
  const ready = figures !== null && figures !== 'failed' ? figures : null;
  const dash = figures === 'failed' ? 'No disponible' : '…';
  const todayOrders = `${paths.dashboard.orders}?date_field=dueDate&start_date=${today}&end_date=${today}`;
  return (
    <nav aria-label="Resumen de hoy">
      <ul className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Tile to={todayOrders} label="Pedidos de hoy">
          {ready ? ready.orders : dash}
        </Tile>
        <Tile to={`${paths.dashboard.salesReport}?desde=${today}&hasta=${today}`} label="Ventas de hoy">
          {ready ? formatMoney(ready.revenue) : dash}
        </Tile>
        <Tile to={paths.dashboard.unpaid} label="Pagos pendientes">
          {ready ? `${formatMoney(ready.unpaidBalance)} · ${ready.unpaidOrders} ped.` : dash}
        </Tile>
        <Tile to={`${paths.dashboard.productionGrouped}?date=${addDays(today, 1)}`} label="Faltantes para mañana">
          {!ready || ready.shortages === null ? (
            <span className="text-base font-semibold text-amber-900">{ready ? 'Ver producción' : dash}</span>
          ) : ready.shortages === 0 ? (
            'Ninguno'
          ) : (
            <span className="text-red-800">
              {ready.shortages === 1 ? '1 ingrediente' : `${ready.shortages} ingredientes`}
            </span>
          )}
        </Tile>
      </ul>
    </nav>
  );
}

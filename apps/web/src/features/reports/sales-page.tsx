import { DEFAULT_TIME_ZONE } from '@hornada/domain/constants';
import { dayInZone } from '@hornada/domain/days';
import { formatMoney, formatQuantity } from '@hornada/domain/format';
import { CHANNEL_ES } from '@hornada/domain/order-status';
import {
  daysInRange,
  presetRange,
  previousRange,
  SALES_PRESET_LABELS,
  SALES_PRESETS,
  SALES_REPORT_MAX_DAYS,
  type SalesPreset,
  type SalesReport,
} from '@hornada/domain/sales-report';
import { Download } from 'lucide-react';
import { lazy, Suspense, useId, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { AreaPage } from '../../components/area-page';
import { useCompanyId } from '../../components/data-table/resource-client';
import { LoadFailed, LoadingStatus } from '../../components/load-status';
import { buttonClass, secondaryButtonClass } from '../../components/ui/button';
import { ApiError, http } from '../../lib/api/http';
import { endpoints } from '../../lib/api/endpoints';
import { storefrontApi } from '../../lib/api/storefront-api';
import { loaderCompanyId, readForScreen } from '../../lib/api/screen-read';
import { useScreenData } from '../../lib/live/use-screen-data';
import { useScreenLoading } from '../../lib/use-screen-loading';
import { toastStore } from '../../lib/toast-store';
import { barWidth, changeText, top } from './sales-view';
import { companyPath } from '../../lib/api/paths';

// Recharts is a chunk of its own, fetched when this screen draws its chart (the storefront's first-load budget).
const SalesChart = lazy(() => import('./sales-chart'));

const failure = (err: unknown) => (err instanceof ApiError ? err.userMessage : 'No pudimos cargar el informe.');
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The range an address asks for (`?desde=&hasta=`, this month by default), and what is wrong with it. */
function rangeOf(params: URLSearchParams, today: string) {
  const fallback = presetRange('month', today);
  const from = DAY.test(params.get('desde') ?? '') ? params.get('desde')! : fallback.from;
  const to = DAY.test(params.get('hasta') ?? '') ? params.get('hasta')! : fallback.to;
  const length = daysInRange(from, to);
  const rangeError =
    length < 1
      ? 'La fecha inicial debe ser anterior o igual a la final.'
      : length > SALES_REPORT_MAX_DAYS
        ? `Elige un periodo de máximo ${SALES_REPORT_MAX_DAYS} días.`
        : null;
  return { from, to, rangeError };
}

/**
 * The company's today (in its time zone), and the report of the address's range with the period of the same
 * length before it (for the changes); none while the range is wrong.
 */
export async function loader({ request }: { request: Request }) {
  const companyId = await loaderCompanyId();
  const zone = companyId
    ? await storefrontApi(null)
        .settings(companyId)
        .then(
          (s) => s.timeZone ?? DEFAULT_TIME_ZONE,
          () => DEFAULT_TIME_ZONE,
        )
    : DEFAULT_TIME_ZONE;
  const today = dayInZone(new Date(), zone);
  const { from, to, rangeError } = rangeOf(new URL(request.url).searchParams, today);
  const reports = rangeError
    ? null
    : await readForScreen(
        async (id) => {
          const [report, previous] = await Promise.all([
            endpoints.salesReport(id, { from, to }, request.signal),
            endpoints.salesReport(id, previousRange(from, to), request.signal),
          ]);
          return { report, previous };
        },
        failure,
        companyId,
      );
  return { today, reports };
}

/**
 * Dashboard › Ventas (docs/design.md §6 salesReport): a range with presets, its totals against the
 * period of the same length before, revenue by day as a chart with its table, the top products and
 * collections, the channels and B2B clients, and the CSV the server writes.
 */
export function Component() {
  const companyId = useCompanyId();
  const {
    data: { today, reports: load },
    reload,
  } = useScreenData(loader, companyId, []);
  const switching = useScreenLoading();
  const [params, setParams] = useSearchParams();
  const { from, to, rangeError } = rangeOf(params, today);
  const active = SALES_PRESETS.find((p) => {
    const r = presetRange(p, today);
    return r.from === from && r.to === to;
  });
  const setRange = (next: { from: string; to: string }) =>
    setParams(
      (current) => {
        const p = new URLSearchParams(current);
        p.set('desde', next.from);
        p.set('hasta', next.to);
        return p;
      },
      { replace: true },
    );
  const [downloading, setDownloading] = useState(false);
  // Excel in Spanish opens a comma file as one column: `;` unless the reader asks for the comma.
  const [separator, setSeparator] = useState<'semicolon' | 'comma'>('semicolon');
  const separatorId = useId();
  const fromId = useId();
  const toId = useId();

  const downloadCsv = async () => {
    if (!companyId) return;
    setDownloading(true);
    try {
      const file = await http.download(companyPath(companyId, 'reports', 'sales'), {
        query: { from, to, format: 'csv', separator },
      });
      const href = URL.createObjectURL(file);
      const a = document.createElement('a');
      a.href = href;
      a.download = `ventas-${from}-a-${to}.csv`;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(href), 1000);
    } catch (err) {
      toastStore.getState().show({ type: 'error', title: 'No se descargó el archivo', message: failure(err) });
    } finally {
      setDownloading(false);
    }
  };

  return (
    <AreaPage
      title="Ventas"
      actions={
        <div className="flex flex-wrap items-center gap-2">
          <label htmlFor={separatorId} className="sr-only">
            Formato del CSV
          </label>
          <select
            id={separatorId}
            value={separator}
            onChange={(e) => setSeparator(e.target.value === 'comma' ? 'comma' : 'semicolon')}
            className="min-h-11 rounded-lg border border-stone-300 bg-white px-3 text-sm"
          >
            <option value="semicolon">Excel en español (;)</option>
            <option value="comma">CSV con comas (,)</option>
          </select>
          <button
            type="button"
            className={secondaryButtonClass}
            onClick={() => void downloadCsv()}
            disabled={downloading || rangeError !== null}
          >
            <Download aria-hidden="true" className="size-4" />
            Descargar CSV
          </button>
        </div>
      }
    >
      <section aria-label="Periodo" className="space-y-3 rounded-xl border border-stone-200 bg-white p-4">
        <div role="group" aria-label="Periodos rápidos" className="flex flex-wrap gap-2">
          {SALES_PRESETS.map((p: SalesPreset) => (
            <button
              key={p}
              type="button"
              aria-pressed={active === p}
              className={
                active === p ? `${buttonClass} px-3 py-1.5 text-sm` : `${secondaryButtonClass} px-3 py-1.5 text-sm`
              }
              onClick={() => setRange(presetRange(p, today))}
            >
              {SALES_PRESET_LABELS[p]}
            </button>
          ))}
        </div>
        <div className="flex flex-wrap items-end gap-3">
          <label htmlFor={fromId} className="grid gap-1 text-sm font-medium text-stone-800">
            Desde
            <input
              id={fromId}
              type="date"
              value={from}
              max={today}
              onChange={(e) => DAY.test(e.target.value) && setRange({ from: e.target.value, to })}
              className="min-h-11 rounded-lg border border-stone-300 px-3"
            />
          </label>
          <label htmlFor={toId} className="grid gap-1 text-sm font-medium text-stone-800">
            Hasta
            <input
              id={toId}
              type="date"
              value={to}
              onChange={(e) => DAY.test(e.target.value) && setRange({ from, to: e.target.value })}
              className="min-h-11 rounded-lg border border-stone-300 px-3"
            />
          </label>
        </div>
        {rangeError ? (
          <p role="alert" className="text-sm text-red-800">
            {rangeError}
          </p>
        ) : null}
      </section>

      <div className="mt-6 space-y-6">
        {rangeError || !load ? null : switching ? (
          <LoadingStatus>Cargando el informe de ventas…</LoadingStatus>
        ) : load.state === 'failed' ? (
          <LoadFailed message={load.message} onRetry={reload} />
        ) : (
          <Report report={load.data.report} previous={load.data.previous} />
        )}
      </div>
    </AreaPage>
  );
}

function Figure({ label, value, change }: { label: string; value: string; change?: string }) {
  return (
    <div className="rounded-xl border border-stone-200 bg-white p-4">
      <dt className="text-sm font-medium text-stone-600">{label}</dt>
      <dd className="mt-1 text-3xl font-bold tabular-nums text-stone-900">{value}</dd>
      {change ? <dd className="mt-1 text-sm text-stone-700">{change}</dd> : null}
    </div>
  );
}

function Panel({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="min-w-0 rounded-xl border border-stone-200 bg-white p-4">
      <h2 id={id} className="text-lg font-semibold text-stone-900">
        {title}
      </h2>
      <div className="mt-3">{children}</div>
    </section>
  );
}

/** Horizontal bars of a breakdown's revenue, the figures written beside each (readable without the bars). */
function Bars({
  rows,
  empty,
}: {
  rows: { key: string; name: string; revenue: number; quantity: number }[];
  empty: string;
}) {
  if (rows.length === 0) return <p className="text-sm text-stone-600">{empty}</p>;
  const max = Math.max(...rows.map((r) => r.revenue));
  return (
    <ol className="space-y-3">
      {rows.map((r) => (
        <li key={r.key}>
          <div className="flex items-baseline justify-between gap-3 text-sm">
            <span className="min-w-0 truncate font-medium text-stone-900">{r.name}</span>
            <span className="shrink-0 tabular-nums text-stone-700">
              {formatMoney(r.revenue)} · {formatQuantity(r.quantity)} und.
            </span>
          </div>
          <div className="mt-1 h-2 rounded-full bg-stone-100" aria-hidden="true">
            <div className="h-2 rounded-full bg-amber-800" style={{ width: `${barWidth(r.revenue, max)}%` }} />
          </div>
        </li>
      ))}
    </ol>
  );
}

const th = 'px-3 py-2 font-semibold';
const num = 'px-3 py-2 text-right tabular-nums';

/** A table's header: the name column, then figures aligned right. */
function HeadRow({ first, rest }: { first: string; rest: string[] }) {
  return (
    <tr>
      <th scope="col" className={th}>
        {first}
      </th>
      {rest.map((label) => (
        <th key={label} scope="col" className={`${th} text-right`}>
          {label}
        </th>
      ))}
    </tr>
  );
}

const refundedText = (orders: number) =>
  orders === 0 ? 'Ningún pedido reembolsado' : orders === 1 ? '1 pedido reembolsado' : `${orders} pedidos reembolsados`;

function Report({ report, previous }: { report: SalesReport; previous: SalesReport }) {
  const t = report.totals;
  const p = previous.totals;
  return (
    <>
      <dl className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3 2xl:grid-cols-5" aria-label="Totales del periodo">
        {/* Refunded orders are no sales: the server leaves them out of every figure but their own. */}
        <Figure label="Ventas netas" value={formatMoney(t.revenue)} change={changeText(t.revenue, p.revenue)} />
        <Figure label="Pedidos" value={formatQuantity(t.orders)} change={changeText(t.orders, p.orders)} />
        <Figure
          label="Ticket promedio"
          value={formatMoney(t.averageTicket)}
          change={changeText(t.averageTicket, p.averageTicket)}
        />
        <Figure label="Por cobrar" value={formatMoney(t.unpaid)} change={`Pagado: ${formatMoney(t.paid)}`} />
        <Figure label="Reembolsos" value={formatMoney(t.refunded)} change={refundedText(t.refundedOrders)} />
      </dl>

      <Panel title="Ventas por día">
        <Suspense fallback={<div className="h-64 animate-pulse rounded-lg bg-stone-100 motion-reduce:animate-none" />}>
          <SalesChart days={report.byDay} />
        </Suspense>
        <details className="mt-3">
          <summary className="cursor-pointer text-sm font-medium text-amber-900">Ver ventas por día como tabla</summary>
          <div className="relative mt-2 max-h-80 overflow-auto" role="region" aria-label="Ventas por día" tabIndex={0}>
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Ventas por día</caption>
              <thead className="bg-stone-50 text-xs uppercase tracking-wide text-stone-600">
                <HeadRow first="Día" rest={['Pedidos', 'Ventas']} />
              </thead>
              <tbody>
                {report.byDay.map((d) => (
                  <tr key={d.date} className="border-t border-stone-100">
                    <th scope="row" className="px-3 py-2 font-normal">
                      {d.date}
                    </th>
                    <td className={num}>{formatQuantity(d.orders)}</td>
                    <td className={num}>{formatMoney(d.revenue)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      </Panel>

      <div className="grid gap-6 lg:grid-cols-2">
        <Panel title="Productos más vendidos">
          <Bars
            empty="No hubo ventas de productos en este periodo."
            rows={top(report.byProduct).map((r) => ({ key: r.productId, ...r }))}
          />
        </Panel>
        <Panel title="Colecciones">
          <Bars
            empty="No hubo ventas en este periodo."
            rows={top(report.byCollection).map((r) => ({ key: r.collectionId ?? 'none', ...r }))}
          />
        </Panel>
      </div>

      <div className="grid gap-6 lg:grid-cols-2">
        <Panel title="Por canal">
          <MoneyTable
            caption="Ventas por canal"
            first="Canal"
            rows={report.byChannel.map((c) => ({ key: c.channel, name: CHANNEL_ES[c.channel], ...c }))}
            empty=""
          />
        </Panel>
        <Panel title="Clientes mayoristas (B2B)">
          <MoneyTable
            caption="Ventas por cliente mayorista"
            first="Cliente"
            rows={report.byB2bClient.map((c) => ({ key: c.b2bClientId, ...c }))}
            empty="Ningún cliente mayorista compró en este periodo."
          />
        </Panel>
      </div>
    </>
  );
}

function MoneyTable({
  caption,
  first,
  rows,
  empty,
}: {
  caption: string;
  first: string;
  rows: { key: string; name: string; orders: number; revenue: number; paid: number; unpaid: number }[];
  empty: string;
}) {
  if (rows.length === 0) return <p className="text-sm text-stone-600">{empty}</p>;
  return (
    // A scroller on a phone: focusable, so a keyboard can scroll it.
    <div className="relative overflow-x-auto" role="region" aria-label={caption} tabIndex={0}>
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-stone-50 text-xs uppercase tracking-wide text-stone-600">
          <HeadRow first={first} rest={['Pedidos', 'Ventas', 'Por cobrar']} />
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key} className="border-t border-stone-100">
              <th scope="row" className="px-3 py-2 font-medium">
                {r.name}
              </th>
              <td className={num}>{formatQuantity(r.orders)}</td>
              <td className={num}>{formatMoney(r.revenue)}</td>
              <td className={num}>{formatMoney(r.unpaid)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

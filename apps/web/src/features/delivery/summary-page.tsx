import type { DeliveryDay } from '@hornada/domain/delivery';
import { formatMoney } from '@hornada/domain/format';
import { Printer } from 'lucide-react';
import { useState } from 'react';
import { AreaPage } from '../../components/area-page';
import { DayPicker, dayLong, dayOfParams, useDayParam } from '../../components/day-picker';
import { EmptyState } from '../../components/empty-state';
import { LoadFailed, LoadingStatus } from '../../components/load-status';
import { PrintPreview } from '../../components/print-preview';
import { secondaryButtonClass } from '../../components/ui/button';
import { useMarketName } from '../../lib/use-market-name';
import { loadDeliveryDay, useDeliveryDay, type DeliveryLoader } from './delivery-api';
import { useScreenLoading } from '../../lib/use-screen-loading';

/** Per driver: stops, delivered, pending, cash to collect against collected and the difference; the day's total. */
export function SummaryTable({ day }: { day: DeliveryDay }) {
  const row = (label: string, t: DeliveryDay['totals'], strong = false) => (
    <tr key={label} className={`border-b border-stone-200 ${strong ? 'font-bold' : ''}`}>
      <th scope="row" className="py-2 pr-3 text-left font-semibold">
        {label}
      </th>
      <td className="px-2 py-2 text-right tabular-nums">{t.stops}</td>
      <td className="px-2 py-2 text-right tabular-nums">{t.delivered}</td>
      <td className="px-2 py-2 text-right tabular-nums">{t.pending}</td>
      <td className="px-2 py-2 text-right tabular-nums">{formatMoney(t.cashToCollect)}</td>
      <td className="px-2 py-2 text-right tabular-nums">{formatMoney(t.cashCollected)}</td>
      <td className={`py-2 text-right tabular-nums ${t.difference < 0 ? 'text-red-700' : ''}`}>
        {formatMoney(t.difference)}
      </td>
    </tr>
  );
  return (
    <div className="overflow-x-auto">
      <table className="w-full min-w-[40rem] text-sm">
        <thead className="border-b border-stone-300 text-right text-xs uppercase tracking-wide text-stone-600">
          <tr>
            <th className="py-2 text-left">Repartidor</th>
            <th className="px-2 py-2">Paradas</th>
            <th className="px-2 py-2">Entregados</th>
            <th className="px-2 py-2">Pendientes</th>
            <th className="px-2 py-2">Efectivo por cobrar</th>
            <th className="px-2 py-2">Efectivo recibido</th>
            <th className="px-2 py-2">Diferencia</th>
          </tr>
        </thead>
        <tbody>
          {day.routes.map((r) => row(r.driver?.name ?? 'Sin repartidor', r.totals))}
          {row('Total del día', day.totals, true)}
        </tbody>
      </table>
      <p className="mt-2 text-xs text-stone-600">
        La diferencia compara el efectivo recibido con el que había por cobrar en los pedidos ya entregados.
      </p>
    </div>
  );
}

/** Dashboard › Resumen de domicilios (docs/design.md §6 orders/delivery/summary): the day's cash by driver. Live. */
export const loader: DeliveryLoader = ({ request }) =>
  loadDeliveryDay(request, dayOfParams(new URL(request.url).searchParams));

export function Component() {
  const [date, setDate] = useDayParam();
  const { load, reload } = useDeliveryDay(loader);
  const switching = useScreenLoading();
  const marketName = useMarketName();
  const [printing, setPrinting] = useState(false);
  const day = load.state === 'ready' ? load.data : null;
  return (
    <AreaPage
      title="Resumen de domicilios"
      actions={
        day && day.routes.length > 0 ? (
          <button type="button" className={secondaryButtonClass} onClick={() => setPrinting(true)}>
            <Printer className="size-4" aria-hidden="true" />
            Imprimir resumen
          </button>
        ) : null
      }
    >
      <DayPicker day={date} onChange={setDate} />
      <div className="mt-5 rounded-2xl bg-white p-4 shadow-sm">
        {switching ? (
          <LoadingStatus>Cargando el resumen del día…</LoadingStatus>
        ) : load.state === 'failed' ? (
          <LoadFailed message={load.message} onRetry={reload} />
        ) : day!.routes.length === 0 ? (
          <EmptyState title="No hay domicilios para este día." />
        ) : (
          <SummaryTable day={day!} />
        )}
      </div>
      {printing && day ? (
        <PrintPreview title="Resumen de domicilios" onClose={() => setPrinting(false)}>
          <div className="text-black">
            <header className="mb-3 border-b-2 border-black pb-2">
              <p className="text-xl font-bold">{marketName || 'Panadería'} · Resumen de domicilios</p>
              <p>{dayLong(date)}</p>
            </header>
            <SummaryTable day={day} />
          </div>
        </PrintPreview>
      ) : null}
    </AreaPage>
  );
}

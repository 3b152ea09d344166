import type { DeliveryRoute, DeliveryStop } from '@hornada/domain/delivery';
import { formatMoney } from '@hornada/domain/format';
import { ORDER_STATUS_ES } from '@hornada/domain/order-status';
import { ArrowDown, ArrowUp, MapPinOff, AlertTriangle, Printer, Route as RouteIcon } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { AreaPage } from '../../components/area-page';
import { useCompanyId } from '../../components/data-table/resource-client';
import { DayPicker, dayOfParams, useDayParam } from '../../components/day-picker';
import { EmptyState } from '../../components/empty-state';
import { LoadFailed, LoadingStatus } from '../../components/load-status';
import { PrintPreview } from '../../components/print-preview';
import { buttonClass, iconButtonClass, secondaryButtonClass } from '../../components/ui/button';
import { paths } from '../../config/paths';
import { toastStore } from '../../lib/toast-store';
import { failureText } from '../../lib/api/failure-text';
import { useMarketName } from '../../lib/use-market-name';
import {
  assignDriver,
  loadDeliveryDay,
  orderRoute,
  savePositions,
  useDeliveryDay,
  type DeliveryLoader,
} from './delivery-api';
import { useScreenLoading } from '../../lib/use-screen-loading';
import { routeOrderedText } from './route-text';
import { addressText, collectText, MapLinks, returnedText, RunSheet, TotalsList } from './delivery-parts';

const linkClass = 'text-sm font-medium text-amber-900 underline underline-offset-2 hover:text-amber-700';

function StopRow({
  stop,
  index,
  count,
  selected,
  onSelect,
  onMove,
  onDrop,
  busy,
}: {
  stop: DeliveryStop;
  index: number;
  count: number;
  selected: boolean;
  onSelect(on: boolean): void;
  onMove: ((by: -1 | 1) => void) | null;
  /** A stop of the same route dropped on this one takes its place (the buttons do the same by keyboard). */
  onDrop: ((from: number) => void) | null;
  busy: boolean;
}) {
  const returned = returnedText(stop);
  return (
    <li
      className={`flex flex-wrap items-start gap-3 py-3 ${returned ? 'rounded-lg bg-red-50 px-2' : ''}`}
      data-stop={stop.number}
      data-returned={returned ? 'true' : undefined}
      draggable={onDrop !== null && !busy}
      onDragStart={(e) => e.dataTransfer.setData('text/x-hornada-stop', String(index))}
      onDragOver={(e) => onDrop && e.dataTransfer.types.includes('text/x-hornada-stop') && e.preventDefault()}
      onDrop={(e) => {
        const from = Number(e.dataTransfer.getData('text/x-hornada-stop'));
        if (onDrop && Number.isInteger(from) && from !== index) {
          e.preventDefault();
          onDrop(from);
        }
      }}
    >
      <input
        type="checkbox"
        className="mt-1 size-5"
        checked={selected}
        onChange={(e) => onSelect(e.target.checked)}
        aria-label={`Seleccionar pedido #${stop.number}`}
      />
      <span className="w-6 pt-0.5 text-right font-bold tabular-nums text-stone-700" aria-hidden="true">
        {stop.routePosition ?? '–'}
      </span>
      <div className="min-w-0 flex-1">
        <p className="font-semibold">
          #{stop.number} · {stop.contact.name}{' '}
          <span className="ml-1 rounded-full bg-stone-100 px-2 py-0.5 text-xs font-medium text-stone-700">
            {ORDER_STATUS_ES[stop.status]}
          </span>
        </p>
        <p className="text-sm text-stone-700">
          {addressText(stop)} · {stop.windowLabel ?? 'Sin franja'}
        </p>
        {returned ? (
          <p className="flex items-center gap-1 text-sm font-semibold text-red-800">
            <AlertTriangle className="size-4" aria-hidden="true" />
            {returned}
          </p>
        ) : null}
        {stop.noCoordinates ? (
          <p className="flex items-center gap-1 text-sm font-medium text-amber-900">
            <MapPinOff className="size-4" aria-hidden="true" />
            Sin coordenadas: va al final de la ruta
          </p>
        ) : null}
        <p className="text-sm text-stone-700">
          {formatMoney(stop.total)} · {collectText(stop)}
          {stop.cashCollected !== null ? ` · Recibido ${formatMoney(stop.cashCollected)}` : ''}
        </p>
        <p className="mt-1 flex flex-wrap gap-3">
          <MapLinks stop={stop} className={linkClass} />
        </p>
      </div>
      {onMove ? (
        <div className="flex gap-1">
          <button
            type="button"
            className={iconButtonClass}
            disabled={busy || index === 0}
            aria-label={`Subir el pedido #${stop.number}`}
            onClick={() => onMove(-1)}
          >
            <ArrowUp className="size-5" aria-hidden="true" />
          </button>
          <button
            type="button"
            className={iconButtonClass}
            disabled={busy || index === count - 1}
            aria-label={`Bajar el pedido #${stop.number}`}
            onClick={() => onMove(1)}
          >
            <ArrowDown className="size-5" aria-hidden="true" />
          </button>
        </div>
      ) : null}
    </li>
  );
}

/**
 * Dashboard › Domicilios (docs/design.md §6 orders/delivery): a due day's deliveries by driver, the
 * unassigned first; assign a driver to the selected orders, order a driver's route nearest-neighbour from
 * the bakery, move stops up or down, map links per stop, and each driver's printable run sheet. Live.
 */
export const loader: DeliveryLoader = ({ request }) =>
  loadDeliveryDay(request, dayOfParams(new URL(request.url).searchParams));

export function Component() {
  const companyId = useCompanyId();
  const [date, setDate] = useDayParam();
  const { load, reload } = useDeliveryDay(loader);
  const switching = useScreenLoading();
  const marketName = useMarketName();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [driverId, setDriverId] = useState('');
  const [busy, setBusy] = useState(false);
  // The driver whose run sheet is open: the sheet follows the live route, not a copy taken at the click.
  const [printingId, setPrintingId] = useState<string | null>(null);
  const day = load.state === 'ready' ? load.data : null;
  // The office works on the unassigned first (the API lists them last).
  const routes = day ? [...day.routes].sort((a, b) => Number(a.driver !== null) - Number(b.driver !== null)) : [];

  // The stops a driver brought back ("No recibió"): the office reassigns them.
  const returned = routes.flatMap((r) => r.stops.filter((s) => returnedText(s) !== null));
  const printing = routes.find((r) => r.driver !== null && r.driver.id === printingId) ?? null;

  // `done` may read the work's answer (the route's toast counts the stops it could not place).
  const run = async <T,>(work: () => Promise<T>, done: string | ((result: T) => string)) => {
    if (!companyId) return;
    setBusy(true);
    try {
      const result = await work();
      toastStore.getState().show({ type: 'success', message: typeof done === 'string' ? done : done(result) });
    } catch (err) {
      toastStore.getState().show({ type: 'error', message: failureText(err) });
    } finally {
      setBusy(false);
    }
  };

  const assign = () =>
    run(
      async () => {
        await assignDriver(companyId!, [...selected], driverId || null);
        setSelected(new Set());
      },
      driverId ? 'Repartidor asignado.' : 'Pedidos sin repartidor.',
    );

  const move = (route: DeliveryRoute, index: number, to: number) => {
    const stops = [...route.stops];
    const [taken] = stops.splice(index, 1);
    stops.splice(to, 0, taken!);
    void run(() => savePositions(companyId!, stops), 'Orden de la ruta guardado.');
  };

  const toggle = (id: string, on: boolean) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  return (
    <AreaPage
      title="Domicilios"
      actions={
        <Link className={secondaryButtonClass} to={`${paths.dashboard.deliverySummary}?date=${date}`}>
          Resumen de domicilios
        </Link>
      }
    >
      <DayPicker day={date} onChange={setDate} />
      {day && day.drivers.length > 0 ? (
        <div className="sticky top-0 z-10 mt-4 flex flex-wrap items-end gap-3 rounded-xl bg-white p-3 shadow-sm">
          <label className="flex flex-col text-sm text-stone-700">
            Asignar a
            <select
              value={driverId}
              onChange={(e) => setDriverId(e.target.value)}
              className="mt-1 min-h-10 rounded-lg border border-stone-300 bg-white px-3"
            >
              <option value="">Sin repartidor</option>
              {day.drivers.map((d) => (
                <option key={d.id} value={d.id}>
                  {d.name}
                </option>
              ))}
            </select>
          </label>
          <button
            type="button"
            className={buttonClass}
            disabled={busy || selected.size === 0}
            onClick={() => void assign()}
          >
            Asignar {selected.size > 0 ? `${selected.size} ${selected.size === 1 ? 'pedido' : 'pedidos'}` : ''}
          </button>
          {!day.origin ? (
            <p className="text-sm text-amber-900">
              Indica la ubicación de la panadería en Configuración para ordenar las rutas.
            </p>
          ) : null}
        </div>
      ) : null}
      {returned.length > 0 ? (
        <section aria-labelledby="returned-heading" className="mt-4 rounded-xl border border-red-300 bg-red-50 p-3">
          <h2 id="returned-heading" className="flex items-center gap-2 font-semibold text-red-900">
            <AlertTriangle className="size-5" aria-hidden="true" />
            {returned.length === 1
              ? '1 pedido volvió sin entregar'
              : `${returned.length} pedidos volvieron sin entregar`}
          </h2>
          <ul className="mt-1 text-sm text-red-900">
            {returned.map((s) => (
              <li key={s.id}>
                #{s.number} · {s.contact.name} · {returnedText(s)}
              </li>
            ))}
          </ul>
          <button
            type="button"
            className={`${secondaryButtonClass} mt-2`}
            onClick={() => setSelected(new Set(returned.map((s) => s.id)))}
          >
            Seleccionarlos para reasignar
          </button>
        </section>
      ) : null}
      <div className="mt-5">
        {switching ? (
          <LoadingStatus>Cargando los domicilios del día…</LoadingStatus>
        ) : load.state === 'failed' ? (
          <LoadFailed message={load.message} onRetry={reload} />
        ) : routes.length === 0 ? (
          <EmptyState title="No hay domicilios para este día." />
        ) : (
          <div className="space-y-5">
            {routes.map((route) => {
              const name = route.driver?.name ?? 'Sin repartidor';
              const headingId = `route-${route.driver?.id ?? 'none'}`;
              return (
                <section
                  key={route.driver?.id ?? 'none'}
                  aria-labelledby={headingId}
                  className="rounded-2xl bg-white p-4 shadow-sm"
                  data-route={route.driver?.id ?? 'none'}
                >
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <h2 id={headingId} className="text-lg font-semibold">
                      {name} · {route.stops.length} {route.stops.length === 1 ? 'parada' : 'paradas'}
                    </h2>
                    {route.driver ? (
                      <div className="flex flex-wrap gap-2">
                        <button
                          type="button"
                          className={secondaryButtonClass}
                          disabled={busy || !day!.origin}
                          onClick={() =>
                            void run(
                              () => orderRoute(companyId!, date, route.driver!.id),
                              (unplaced) => routeOrderedText(name, unplaced),
                            )
                          }
                        >
                          <RouteIcon className="size-4" aria-hidden="true" />
                          Ordenar ruta de {name}
                        </button>
                        <button
                          type="button"
                          className={secondaryButtonClass}
                          onClick={() => setPrintingId(route.driver!.id)}
                        >
                          <Printer className="size-4" aria-hidden="true" />
                          Hoja de ruta
                        </button>
                      </div>
                    ) : null}
                  </div>
                  <div className="mt-3">
                    <TotalsList totals={route.totals} />
                  </div>
                  <ol className="mt-2 divide-y divide-stone-100">
                    {route.stops.map((s, i) => (
                      <StopRow
                        key={s.id}
                        stop={s}
                        index={i}
                        count={route.stops.length}
                        selected={selected.has(s.id)}
                        onSelect={(on) => toggle(s.id, on)}
                        onMove={route.driver ? (by) => move(route, i, i + by) : null}
                        onDrop={route.driver ? (from) => move(route, from, i) : null}
                        busy={busy}
                      />
                    ))}
                  </ol>
                </section>
              );
            })}
          </div>
        )}
      </div>
      {printing ? (
        <PrintPreview title={`Hoja de ruta de ${printing.driver?.name ?? ''}`} onClose={() => setPrintingId(null)}>
          <RunSheet route={printing} date={date} marketName={marketName} />
        </PrintPreview>
      ) : null}
    </AreaPage>
  );
}

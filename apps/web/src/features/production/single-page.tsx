import { ORDER_STATUS_ES } from '@hornada/domain/order-status';
import type { ProductionOrder } from '@hornada/domain/production';
import { Check } from 'lucide-react';
import { useState } from 'react';
import { AreaPage } from '../../components/area-page';
import { useCompanyId } from '../../components/data-table/resource-client';
import { EmptyState } from '../../components/empty-state';
import { LoadFailed, LoadingStatus } from '../../components/load-status';
import { buttonClass, secondaryButtonClass } from '../../components/ui/button';
import { toastStore } from '../../lib/toast-store';
import { failure, loadProductionDay, markProduced, useProductionDay, type ProductionLoader } from './production-api';
import { useScreenLoading } from '../../lib/use-screen-loading';
import { DayPicker, dayOfParams, useDayParam } from '../../components/day-picker';
import { dayLong, missingOf, producePatches } from './production-view';

/** One order of the day: its lines with what is made, "Marcar producido" per line and for the whole order. */
function OrderCard({ order, companyId }: { order: ProductionOrder; companyId: string }) {
  const [busy, setBusy] = useState(false);
  const mark = async (productIds: string[]) => {
    setBusy(true);
    try {
      await markProduced(companyId, order, productIds);
    } catch (err) {
      toastStore.getState().show({ type: 'error', message: failure(err) });
    } finally {
      setBusy(false);
    }
  };
  const all = order.items.map((i) => i.productId);
  const canMark = producePatches(order, all).length > 0;
  return (
    <li className="rounded-2xl bg-white p-4 shadow-sm" data-order={order.number}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h2 className="text-lg font-semibold">
            #{order.number} · {order.customer}
          </h2>
          <p className="text-sm text-stone-600">
            Entrega {dayLong(order.dueDate)}
            {order.windowLabel ? ` · ${order.windowLabel}` : ''} · {ORDER_STATUS_ES[order.status]}
          </p>
          {order.notes ? <p className="text-sm text-stone-700">Nota: {order.notes}</p> : null}
        </div>
        {canMark ? (
          <button type="button" className={buttonClass} disabled={busy} onClick={() => void mark(all)}>
            <Check className="size-4" aria-hidden="true" />
            Marcar pedido #{order.number} producido
          </button>
        ) : null}
      </div>
      <ul className="mt-3 divide-y divide-stone-100">
        {order.items.map((item, n) => {
          const made = Math.min(order.producedQuantities[item.productId] ?? 0, item.quantity);
          const lineMissing = missingOf(order, item.productId) > 0;
          return (
            <li key={n} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <span>
                <span className="font-medium">
                  {item.quantity} × {item.name}
                </span>{' '}
                <span className="text-sm text-stone-600">
                  ({made} de {item.quantity} producidos)
                </span>
              </span>
              {lineMissing && producePatches(order, [item.productId]).length > 0 ? (
                <button
                  type="button"
                  className={secondaryButtonClass}
                  disabled={busy}
                  aria-label={`Marcar producido ${item.name} del pedido #${order.number}`}
                  onClick={() => void mark([item.productId])}
                >
                  Marcar producido
                </button>
              ) : !lineMissing ? (
                <span className="text-sm font-semibold text-green-800">Producido</span>
              ) : (
                <span className="text-sm text-stone-600">Por confirmar</span>
              )}
            </li>
          );
        })}
      </ul>
    </li>
  );
}

/**
 * Dashboard › Producción por pedido (docs/design.md §6 orders/production/single): a preparation day's
 * orders one by one with what to bake; "Marcar producido" per line or per order writes
 * `producedQuantities` (the order goes into production, and ready when all is made). Live.
 */
export const loader: ProductionLoader = ({ request }) =>
  loadProductionDay(request, dayOfParams(new URL(request.url).searchParams));

export function Component() {
  const companyId = useCompanyId();
  const [date, setDate] = useDayParam();
  const { load, reload } = useProductionDay(loader);
  const switching = useScreenLoading();
  const orders = load.state === 'ready' ? (load.data.orders ?? []) : [];
  return (
    <AreaPage title="Producción por pedido">
      <DayPicker day={date} onChange={setDate} />
      <div className="mt-5">
        {switching ? (
          <LoadingStatus>Cargando los pedidos del día…</LoadingStatus>
        ) : load.state === 'failed' ? (
          <LoadFailed message={load.message} onRetry={reload} />
        ) : orders.length === 0 || !companyId ? (
          <EmptyState title="No hay pedidos para preparar este día." />
        ) : (
          <ul className="grid gap-4 lg:grid-cols-2">
            {orders.map((o) => (
              <OrderCard key={o.id} order={o} companyId={companyId} />
            ))}
          </ul>
        )}
      </div>
    </AreaPage>
  );
}

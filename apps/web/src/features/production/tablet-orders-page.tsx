import { formatCount, formatQuantity } from '@hornada/domain/format';
import { Check, Plus } from 'lucide-react';
import { AreaPage } from '../../components/area-page';
import { useCompanyId } from '../../components/data-table/resource-client';
import { EmptyState } from '../../components/empty-state';
import { LoadFailed, LoadingStatus } from '../../components/load-status';
import { TodayTomorrow, todayOrTomorrowOf, useTodayOrTomorrow } from '../../components/today-tomorrow';
import { loadProductionDay, useProductionDay, type ProductionLoader } from './production-api';
import { useScreenLoading } from '../../lib/use-screen-loading';
import { ProgressBar } from './production-parts';
import { producedOf, unitsToAdd } from './tablet-taps';
import { useTabletTaps } from './use-tablet-taps';

const bigButton =
  'inline-flex min-h-16 shrink-0 items-center justify-center gap-2 rounded-2xl px-5 text-xl font-bold shadow focus-visible:outline-4 focus-visible:outline-offset-2 focus-visible:outline-amber-900 disabled:opacity-50';

/**
 * Producción › Qué hornear: a day's products for the kitchen tablet, today or tomorrow (a
 * bakery with no preparation lead bakes tomorrow's orders tonight), large type and touch targets, each with its
 * progress. "+1", "+ lote" (the recipe's yield) and "Todo listo" add units made to the orders still waiting for
 * them (due first); every tap counts at once and is written in turn (use-tablet-taps.ts). Every tablet and the
 * office see it live.
 */
export const loader: ProductionLoader = ({ request }) =>
  loadProductionDay(request, todayOrTomorrowOf(new URL(request.url).searchParams));

export function Component() {
  const { tomorrow, date, choose } = useTodayOrTomorrow();
  return (
    <AreaPage title={tomorrow ? 'Qué hornear mañana' : 'Qué hornear hoy'}>
      <TodayTomorrow tomorrow={tomorrow} onChoose={choose} />
      {/* One day's screen at a time: its taps' queue is its own (and finishes if the day is switched). */}
      <TabletDay key={date} tomorrow={tomorrow} />
    </AreaPage>
  );
}

function TabletDay({ tomorrow }: { tomorrow: boolean }) {
  const companyId = useCompanyId();
  const { load, reload } = useProductionDay(loader);
  const day = load.state === 'ready' ? load.data : null;
  const taps = useTabletTaps(companyId, day?.orders ?? NO_ORDERS);
  const switching = useScreenLoading();

  if (switching)
    return (
      <LoadingStatus>{tomorrow ? 'Cargando la producción de mañana…' : 'Cargando la producción de hoy…'}</LoadingStatus>
    );
  if (load.state === 'failed') return <LoadFailed message={load.message} onRetry={reload} />;
  if (day!.products.length === 0)
    return <EmptyState title={tomorrow ? 'Mañana no hay nada que hornear.' : 'Hoy no hay nada que hornear.'} />;

  return (
    <>
      {taps.offline ? (
        <p role="status" className="mb-4 rounded-xl bg-amber-100 px-4 py-3 text-lg text-amber-950">
          Sin conexión: lo que marques queda en esta tableta y se envía cuando vuelva la señal.
        </p>
      ) : null}
      <ul className="grid gap-4 md:grid-cols-2">
        {day!.products.map((p) => {
          const queued = taps.queuedOf(p.productId);
          // Made: what the orders show (with this tablet's writes) and the taps still on their way.
          const made = Math.min(p.quantity, Math.max(p.produced, producedOf(taps.orders, p.productId)) + queued);
          const room = unitsToAdd(taps.orders, p.productId, queued, 'all');
          const batch = p.recipeYield;
          return (
            <li key={p.productId} className="rounded-2xl bg-white p-5 shadow-sm" data-product={p.productId}>
              <h2 className="text-2xl font-bold">{p.name}</h2>
              <p className="text-lg text-stone-700">
                {formatQuantity(made)} de {formatQuantity(p.quantity)}
                {p.batches !== null ? ` · ${formatCount(p.batches, 'lote')}` : ''}
                {queued > 0 ? (
                  <span className="text-stone-600">
                    {taps.offline ? ` · ${formatQuantity(queued)} por enviar` : ` · enviando ${formatQuantity(queued)}`}
                  </span>
                ) : null}
              </p>
              <div className="mt-4">
                <ProgressBar produced={made} quantity={p.quantity} label={`Progreso de ${p.name}`} large />
              </div>
              <div className="mt-4 flex flex-wrap gap-3">
                <button
                  type="button"
                  className={`${bigButton} min-w-20 bg-amber-900 text-white hover:bg-amber-800`}
                  disabled={room <= 0}
                  aria-label={`Sumar una unidad de ${p.name}`}
                  onClick={() => taps.add(p.productId, 1)}
                >
                  <Plus className="size-7 shrink-0" aria-hidden="true" />1
                </button>
                {batch !== null && batch > 1 ? (
                  <button
                    type="button"
                    className={`${bigButton} border-2 border-amber-900 bg-white text-amber-950 hover:bg-amber-50`}
                    disabled={room <= 0}
                    aria-label={`Sumar un lote (${batch}) de ${p.name}`}
                    onClick={() => taps.add(p.productId, batch)}
                  >
                    <Plus className="size-6 shrink-0" aria-hidden="true" />
                    lote ({batch})
                  </button>
                ) : null}
                <button
                  type="button"
                  className={`${bigButton} ml-auto bg-green-800 text-white hover:bg-green-700`}
                  disabled={room <= 0}
                  aria-label={`Todo listo: ${p.name}`}
                  onClick={() => taps.add(p.productId, 'all')}
                >
                  <Check className="size-7 shrink-0" aria-hidden="true" />
                  Todo listo
                </button>
              </div>
            </li>
          );
        })}
      </ul>
    </>
  );
}

const NO_ORDERS: never[] = [];

import { Plus } from 'lucide-react';
import { useState } from 'react';
import { AreaPage } from '../../components/area-page';
import { useCompanyId } from '../../components/data-table/resource-client';
import { EmptyState } from '../../components/empty-state';
import { LoadFailed, LoadingStatus } from '../../components/load-status';
import { toastStore } from '../../lib/toast-store';
import { failure, markProduced, useProductionDay } from './production-api';
import { ProgressBar } from './production-parts';
import { dayFromNow, nextOrderFor } from './production-view';

/**
 * Producción › Qué hornear (issue 26): today's products for the kitchen tablet, large type and touch
 * targets, each with its progress; a tap adds one unit made to the first order still waiting for it (due
 * first), which goes ready when all its lines are made. Every tablet and the office see it live.
 */
export function Component() {
  const companyId = useCompanyId();
  const date = dayFromNow(0);
  const { load, reload } = useProductionDay(companyId, date, true);
  const [busy, setBusy] = useState<string | null>(null);
  const day = load.state === 'ready' ? load.day : null;

  const tap = async (productId: string) => {
    const order = day && nextOrderFor(day.orders ?? [], productId);
    if (!order || !companyId) return;
    setBusy(productId);
    try {
      await markProduced(companyId, order, [productId], 1);
    } catch (err) {
      toastStore.getState().show({ type: 'error', message: failure(err) });
    } finally {
      setBusy(null);
    }
  };

  return (
    <AreaPage title="Qué hornear hoy">
      {load.state === 'loading' ? (
        <LoadingStatus>Cargando la producción de hoy…</LoadingStatus>
      ) : load.state === 'failed' ? (
        <LoadFailed message={load.message} onRetry={reload} />
      ) : day!.products.length === 0 ? (
        <EmptyState title="Hoy no hay nada que hornear." />
      ) : (
        <ul className="grid gap-4 md:grid-cols-2">
          {day!.products.map((p) => {
            const open = nextOrderFor(day!.orders ?? [], p.productId) !== undefined;
            return (
              <li key={p.productId} className="rounded-2xl bg-white p-5 shadow-sm" data-product={p.productId}>
                <div className="flex items-start justify-between gap-3">
                  <div>
                    <h2 className="text-2xl font-bold">{p.name}</h2>
                    <p className="text-lg text-stone-700">
                      {p.produced} de {p.quantity}
                      {p.batches !== null ? ` · ${p.batches} ${p.batches === 1 ? 'lote' : 'lotes'}` : ''}
                    </p>
                  </div>
                  <button
                    type="button"
                    className="inline-flex min-h-16 min-w-16 shrink-0 items-center justify-center gap-2 rounded-2xl bg-amber-900 px-5 text-xl font-bold text-white shadow hover:bg-amber-800 focus-visible:outline-4 focus-visible:outline-offset-2 focus-visible:outline-amber-900 disabled:opacity-50"
                    disabled={!open || busy === p.productId}
                    aria-label={`Sumar una unidad de ${p.name}`}
                    onClick={() => void tap(p.productId)}
                  >
                    <Plus className="size-7 shrink-0" aria-hidden="true" />1
                  </button>
                </div>
                <div className="mt-4">
                  <ProgressBar produced={p.produced} quantity={p.quantity} label={`Progreso de ${p.name}`} large />
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </AreaPage>
  );
}

import type { ProductionDay, ProductionOrder } from '@hornada/domain/production';
import { useCallback, useEffect, useState } from 'react';
import { ApiError, http } from '../../lib/http';
import { getLiveStream } from '../../lib/live-stream';
import { producePatches } from './production-view';

export type DayLoad =
  { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; day: ProductionDay };

/** Live changes gather this long before the day is read again. */
const REREAD_DELAY_MS = 300;

export const failure = (err: unknown) =>
  err instanceof ApiError ? err.userMessage : 'No pudimos completar la operación.';

/**
 * A preparation day as the server computes it (GET …/production), read again whenever an order or an
 * ingredient changes anywhere (the shared live stream: another tablet, the office, a new order), so
 * every screen of the day shows the same progress without a reload.
 */
export function useProductionDay(companyId: string | null, date: string, withOrders: boolean) {
  const [load, setLoad] = useState<DayLoad>({ state: 'loading' });
  const [round, setRound] = useState(0);
  useEffect(() => {
    if (!companyId) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const read = () =>
      http
        .get<ProductionDay>(`/companies/${encodeURIComponent(companyId)}/production`, {
          query: withOrders ? { date, include: 'orders' } : { date },
        })
        .then((day) => live && setLoad({ state: 'ready', day }))
        .catch((err: unknown) => live && setLoad({ state: 'failed', message: failure(err) }));
    setLoad({ state: 'loading' });
    void read();
    const later = () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => void read(), REREAD_DELAY_MS);
    };
    const stream = getLiveStream();
    const offOrders = stream.subscribe(companyId, 'orders', { onChanges: later, onReset: later });
    const offIngredients = stream.subscribe(companyId, 'ingredients', { onChanges: later, onReset: later });
    return () => {
      live = false;
      if (timer) clearTimeout(timer);
      offOrders();
      offIngredients();
    };
  }, [companyId, date, withOrders, round]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { load, reload };
}

/** Marks products of an order produced (all that is missing, or `units` more), as the server allows. */
export async function markProduced(
  companyId: string,
  order: ProductionOrder,
  productIds: readonly string[],
  units: number | null = null,
): Promise<void> {
  for (const body of producePatches(order, productIds, units)) {
    await http.patch(`/companies/${encodeURIComponent(companyId)}/orders/${encodeURIComponent(order.id)}`, body);
  }
}

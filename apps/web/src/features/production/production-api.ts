import type { ProductionDay, ProductionOrder } from '@hornada/domain/production';
import { http } from '../../lib/api/http';
import { failureText, useLiveRead } from '../../lib/live/use-live-read';
import { producePatches } from './production-view';
import { companyPath } from '../../lib/api/paths';

export type DayLoad =
  { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; day: ProductionDay };

export const failure = failureText;

/**
 * A preparation day as the server computes it (GET …/production), read again whenever an order or an
 * ingredient changes anywhere, so every screen of the day shows the same progress without a reload.
 */
export function useProductionDay(companyId: string | null, date: string, withOrders: boolean) {
  const { load, reload } = useLiveRead<ProductionDay>(
    companyId,
    'production',
    withOrders ? { date, include: 'orders' } : { date },
    ['orders', 'ingredients'],
  );
  const day: DayLoad = load.state === 'ready' ? { state: 'ready', day: load.data } : load;
  return { load: day, reload };
}

/** Marks products of an order produced (all that is missing, or `units` more), as the server allows. */
export async function markProduced(
  companyId: string,
  order: ProductionOrder,
  productIds: readonly string[],
  units: number | null = null,
): Promise<void> {
  for (const body of producePatches(order, productIds, units)) {
    await http.patch(companyPath(companyId, 'orders', order.id), body);
  }
}

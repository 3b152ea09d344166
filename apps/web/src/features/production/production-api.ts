import type { ProductionDay, ProductionOrder } from '@hornada/domain/production';
import { useCompanyId } from '../../components/data-table/resource-client';
import { readForScreen, type ScreenRead } from '../../lib/api/screen-read';
import { useScreenData } from '../../lib/live/use-screen-data';
import { endpoints } from '../../lib/api/endpoints';
import { failureText } from '../../lib/api/failure-text';
import { http } from '../../lib/api/http';
import { producePatches } from './production-view';
import { companyPath } from '../../lib/api/paths';

export type DayLoad = ScreenRead<ProductionDay>;

export const failure = failureText;

/**
 * A preparation day as the server computes it (GET …/production, with its orders): the production screens'
 * loader, run again whenever an order or an ingredient changes anywhere (useProductionDay), so every screen of
 * the day shows the same progress without a reload.
 */
export function loadProductionDay(request: Request, date: string): Promise<DayLoad> {
  return readForScreen((companyId) => endpoints.production(companyId, { date, include: 'orders' }, request.signal));
}

/** Every production screen's loader: the day its address names, read by loadProductionDay. */
export type ProductionLoader = (args: { request: Request }) => Promise<DayLoad>;

/** The day the screen's loader read, kept current (lib/live/use-screen-data.ts), and a way to read it again. */
export function useProductionDay(loader: ProductionLoader): { load: DayLoad; reload: () => void } {
  // Units made and moves are the orders'; stock is the ingredients'.
  const { data, reload } = useScreenData(loader, useCompanyId(), ['orders', 'ingredients']);
  return { load: data, reload };
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

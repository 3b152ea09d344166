import type { Order } from '@hornada/domain/schemas/orders';
import { resourceService } from '../../components/data-table/resource-client';
import { ApiError } from '../../lib/api/http';
import { readForScreen, type ScreenRead } from '../../lib/api/screen-read';
import { readingParams } from '../../lib/live/use-screen-data';

/** The query parameter that opens an order's panel over the orders list. */
export const ORDER_PARAM = 'order';
/** What the panel's read reads of the address. */
export const PANEL_READS = [ORDER_PARAM] as const;

function panelFailure(err: unknown): string {
  if (err instanceof ApiError && err.status === 404) return 'No encontramos este pedido.';
  return err instanceof ApiError ? err.userMessage : 'No pudimos cargar el pedido.';
}

/**
 * The order whose panel the address opens (`?order=<id>`), or null when none is open: read when the panel opens or
 * shows another order, not when the list's view changes (its `shouldRevalidate`).
 */
export async function loader({ request }: { request: Request }): Promise<ScreenRead<Order> | null> {
  const id = new URL(request.url).searchParams.get(ORDER_PARAM);
  if (!id) return null;
  return readForScreen((companyId) => resourceService<Order>('orders', companyId).get(id), panelFailure);
}

export const shouldRevalidate = readingParams(PANEL_READS);

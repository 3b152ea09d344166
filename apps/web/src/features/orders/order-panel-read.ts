import { MAX_PER_PAGE } from '@hornada/domain/constants';
import type { Order } from '@hornada/domain/schemas/orders';
import { resourceService } from '../../components/data-table/resource-client';
import { records } from '../../lib/api/endpoints';
import { ApiError } from '../../lib/api/http';
import { readForScreen, type ScreenRead } from '../../lib/api/screen-read';
import { readingParams, type RelevantChanges } from '../../lib/live/use-screen-data';

/** The query parameter that opens an order's panel over the orders list. */
export const ORDER_PARAM = 'order';
/** Present while the panel's editor is open (Back closes it). */
export const EDIT_PARAM = 'editar';
/** What the panel's read reads of the address. */
export const PANEL_READS = [ORDER_PARAM, EDIT_PARAM] as const;

/** A product the editor can add: its catalogue name and price. */
export interface ProductOption {
  id: string;
  name: string;
  price: number;
}

export interface PanelRead {
  order: Order;
  /** While the editor is open, the active products it can add (`failed` when they cannot be read); else null. */
  products: ProductOption[] | 'failed' | null;
}

function productOptions(companyId: string): Promise<ProductOption[] | 'failed'> {
  return records(companyId, 'products')
    .list({ query: { active: true, per_page: MAX_PER_PAGE, sort: 'name' } })
    .then((res) => res.items.map((p) => ({ id: p.id, name: p.name, price: p.price })))
    .catch(() => 'failed' as const);
}

function panelFailure(err: unknown): string {
  if (err instanceof ApiError && err.status === 404) return 'No encontramos este pedido.';
  return err instanceof ApiError ? err.userMessage : 'No pudimos cargar el pedido.';
}

/**
 * The order whose panel the address opens (`?order=<id>`), or null when none is open, with the products its editor
 * can add while it is open (`&editar`): read when the panel opens, shows another order or opens its editor, not
 * when the list's view changes (its `shouldRevalidate`).
 */
export async function loader({ request }: { request: Request }): Promise<ScreenRead<PanelRead> | null> {
  const query = new URL(request.url).searchParams;
  const id = query.get(ORDER_PARAM);
  if (!id) return null;
  return readForScreen(async (companyId) => {
    const [order, products] = await Promise.all([
      resourceService<Order>('orders', companyId).get(id),
      query.has(EDIT_PARAM) ? productOptions(companyId) : null,
    ]);
    return { order, products };
  }, panelFailure);
}

export const shouldRevalidate = readingParams(PANEL_READS);

/** A live change concerns the panel when it is to the order it shows (not to every order of the bakery). */
export const panelChanged: RelevantChanges = (_resource, changes, at) => {
  const id = at.searchParams.get(ORDER_PARAM);
  return id !== null && changes.some((c) => c.doc.id === id);
};

import type { Order } from '@hornada/domain/schemas/orders';
import type { ListResponse } from '../../lib/api/http';
import { records } from '../../lib/api/endpoints';
import { storefrontApi } from '../../lib/api/storefront-api';

/**
 * What the history reads and writes (docs/design.md §3, §5): the `orders` resource (a company_customer reads only its
 * own; the `customerId` filter keeps an admin visiting the area to its own orders too), the cancel move, and
 * the shop's public settings (window labels, transfer instructions); "Pedir de nuevo" is the server's (lib/api/cart-api).
 */

/** One page of the history: enough to fill a phone screen a few times. */
export const PAGE_SIZE = 10;

export const historyApi = {
  /** The customer's orders, newest first. */
  page: (companyId: string, customerId: string, page: number, signal?: AbortSignal): Promise<ListResponse<Order>> =>
    records(companyId, 'orders').list({
      query: { customerId, sort: '-createdAt', page, per_page: PAGE_SIZE },
      signal,
    }),
  one: (companyId: string, id: string) => records(companyId, 'orders').get(id),
  /** Design §5: a customer may move its own pending order to cancelled, with a reason. */
  cancel: (companyId: string, id: string, cancelReason: string) =>
    records(companyId, 'orders').patch(id, { status: 'cancelled', cancelReason }),
  settings: (companyId: string) => storefrontApi(null).settings(companyId),
};

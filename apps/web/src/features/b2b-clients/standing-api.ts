import { MAX_PER_PAGE } from '@hornada/domain/constants';
import type { Order } from '@hornada/domain/schemas/orders';
import type { Settings } from '@hornada/domain/schemas/settings';
import type { StandingOrder, StandingOrderInput } from '@hornada/domain/schemas/standing-orders';
import type { z } from 'zod';
import { http } from '../../lib/api/http';
import { companyPath } from '../../lib/api/paths';

export type { Order, Settings, StandingOrder };
export type StandingWrite = z.input<typeof StandingOrderInput>;
export type MadeOrder = Pick<Order, 'id' | 'number' | 'dueDate' | 'status' | 'standingOrderId'>;

/** A B2B client's standing orders (docs/design.md §3) and the orders they have made. */
export const standingApi = {
  settings: (companyId: string, signal?: AbortSignal) =>
    http.get<Settings>(companyPath(companyId, 'settings'), { signal }),
  ofClient: async (companyId: string, b2bClientId: string, signal?: AbortSignal) =>
    (
      await http.list<StandingOrder>(companyPath(companyId, 'standingOrders'), {
        query: { b2bClientId, sort: 'createdAt', per_page: MAX_PER_PAGE },
        signal,
      })
    ).items,
  /** The orders a client's standing orders made, due from `from` on. */
  made: async (companyId: string, b2bClientId: string, from: string, signal?: AbortSignal) =>
    (
      await http.list<MadeOrder>(companyPath(companyId, 'orders'), {
        query: {
          b2bClientId,
          date_field: 'dueDate',
          start_date: from,
          sort: 'dueDate',
          per_page: MAX_PER_PAGE,
        },
        signal,
      })
    ).items.filter((o) => o.standingOrderId !== null),
  create: (companyId: string, body: StandingWrite) =>
    http.post<StandingOrder>(companyPath(companyId, 'standingOrders'), body),
  update: (companyId: string, id: string, body: StandingWrite) =>
    http.put<StandingOrder>(companyPath(companyId, 'standingOrders', id), body),
};

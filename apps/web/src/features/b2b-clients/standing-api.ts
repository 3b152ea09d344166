import { MAX_PER_PAGE } from '@hornada/domain/constants';
import type { Order } from '@hornada/domain/schemas/orders';
import type { Settings } from '@hornada/domain/schemas/settings';
import type { StandingOrder, StandingOrderInput } from '@hornada/domain/schemas/standing-orders';
import type { z } from 'zod';
import { endpoints } from '../../lib/api/endpoints';
import { records } from '../../lib/api/endpoints';

export type { Order, Settings, StandingOrder };
export type StandingWrite = z.input<typeof StandingOrderInput>;
export type MadeOrder = Pick<Order, 'id' | 'number' | 'dueDate' | 'status' | 'standingOrderId'>;

/** A B2B client's standing orders (docs/design.md §3) and the orders they have made. */
export const standingApi = {
  settings: endpoints.settings,
  ofClient: async (companyId: string, b2bClientId: string, signal?: AbortSignal) =>
    (
      await records(companyId, 'standingOrders').list({
        query: { b2bClientId, sort: 'createdAt', per_page: MAX_PER_PAGE },
        signal,
      })
    ).items,
  /** The orders a client's standing orders made, due from `from` on. */
  made: async (companyId: string, b2bClientId: string, from: string, signal?: AbortSignal): Promise<MadeOrder[]> =>
    (
      await records(companyId, 'orders').list({
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
  create: (companyId: string, body: StandingWrite) => records(companyId, 'standingOrders').create(body),
  update: (companyId: string, id: string, body: StandingWrite) => records(companyId, 'standingOrders').update(id, body),
};

/** What a client's page shows of its standing orders: the bakery's settings, its standing orders, what they made. */
export interface ClientStanding {
  settings: Settings;
  list: StandingOrder[];
  /** The orders they made, due today or later (none when those cannot be read: a hint beside each day). */
  made: MadeOrder[];
}

import { ORDER_STATUSES, type Order, type OrderStatus } from '@hornada/domain/schemas/orders';
import type { ResourceService } from '../../lib/api/resource-service';

/** How many orders each status chip stands for, under the other filters and the search; absent while unknown. */
export type StatusCounts = Partial<Record<OrderStatus | 'all', number>>;

/**
 * The counts of the status chips: one small read per status (a page of one, only its total). `filters` must not
 * hold `status`. A count that cannot be read is left out (its chip shows no number); the list still shows.
 */
export async function readStatusCounts(
  service: ResourceService<Order>,
  search: string,
  filters: Record<string, string>,
): Promise<StatusCounts> {
  const one = (status: string | null) =>
    service
      .list({ pagination: { page: 1, perPage: 1 }, search, filters: status ? { ...filters, status } : filters })
      .then((r) => r.total)
      .catch(() => undefined);
  const totals = await Promise.all([one(null), ...ORDER_STATUSES.map((s) => one(s))]);
  const counts: StatusCounts = { all: totals[0] };
  ORDER_STATUSES.forEach((s, i) => (counts[s] = totals[i + 1]));
  return counts;
}

import { ORDER_STATUSES, type Order, type OrderStatus } from '@hornada/domain/schemas/orders';
import { useEffect, useState } from 'react';
import { getLiveStream } from '../../lib/live/live-stream';
import type { ResourceService } from '../../lib/api/resource-service';

/** How many orders each status chip stands for, under the other filters and the search; null while unknown. */
export type StatusCounts = Partial<Record<OrderStatus | 'all', number>>;

/** Live changes gather this long before the counts are read again. */
const RECOUNT_DELAY_MS = 600;

/**
 * The counts of the status chips: one small read per status (a page of one, only its total), again when the
 * filters change or the stream reports a change. `filters` must not hold `status`.
 */
export function useStatusCounts(
  service: ResourceService<Order> | null,
  companyId: string | null,
  search: string,
  filters: Record<string, string>,
): StatusCounts {
  const [counts, setCounts] = useState<StatusCounts>({});
  const key = JSON.stringify([search, filters]);
  useEffect(() => {
    if (!service || !companyId) return;
    const [term, where] = JSON.parse(key) as [string, Record<string, string>];
    let live = true;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const count = async () => {
      const one = (status: string | null) =>
        service
          .list({
            pagination: { page: 1, perPage: 1 },
            search: term,
            filters: status ? { ...where, status } : where,
          })
          .then((r) => r.total)
          .catch(() => undefined);
      const totals = await Promise.all([one(null), ...ORDER_STATUSES.map((s) => one(s))]);
      if (!live) return;
      const next: StatusCounts = { all: totals[0] };
      ORDER_STATUSES.forEach((s, i) => (next[s] = totals[i + 1]));
      setCounts(next);
    };
    void count();
    const unsubscribe = getLiveStream().subscribe(companyId, 'orders', {
      onChanges: () => {
        if (timer) clearTimeout(timer);
        timer = setTimeout(() => void count(), RECOUNT_DELAY_MS);
      },
      onReset: () => void count(),
    });
    return () => {
      live = false;
      if (timer) clearTimeout(timer);
      unsubscribe();
    };
  }, [service, companyId, key]);
  return counts;
}

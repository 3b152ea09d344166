import { MAX_PER_PAGE } from '@hornada/domain/constants';
import type { UnpaidParty } from '@hornada/domain/receivables';
import type { B2bClient } from '@hornada/domain/schemas/b2b';
import type { Product } from '@hornada/domain/schemas/catalogue';
import { http } from '../../lib/api/http';
import { companyPath } from '../../lib/api/paths';

export type { B2bClient, Product };

/** What the B2B screens read besides the clients themselves: the catalogue and the balances owed. */
export const b2bApi = {
  /** The whole catalogue (inactive too: a client may keep a price for a product paused for now). */
  products: async (companyId: string, signal?: AbortSignal): Promise<Product[]> => {
    const out: Product[] = [];
    for (let page = 1; ; page++) {
      const res = await http.list<Product>(companyPath(companyId, 'products'), {
        query: { sort: 'name', per_page: MAX_PER_PAGE, page },
        signal,
      });
      out.push(...res.items);
      if (res.items.length < MAX_PER_PAGE || out.length >= res.total) return out;
    }
  },
  /** What each B2B client owes now, from the order book (the unpaid report, docs/design.md §3), by client id. */
  balances: async (companyId: string, signal?: AbortSignal): Promise<Map<string, number>> => {
    const parties = await http.get<UnpaidParty[]>(companyPath(companyId, 'reports', 'unpaid'), { signal });
    return new Map(parties.filter((p) => p.party.type === 'b2bClient').map((p) => [p.party.id, p.balance]));
  },
};

import type { B2bClient } from '@hornada/domain/schemas/b2b';
import type { Product } from '@hornada/domain/schemas/catalogue';
import { endpoints } from '../../lib/api/endpoints';
import { records } from '../../lib/api/endpoints';

export type { B2bClient, Product };

/** What the B2B screens read besides the clients themselves: the catalogue and the balances owed. */
export const b2bApi = {
  /** The whole catalogue (inactive too: a client may keep a price for a product paused for now). */
  products: (companyId: string, signal?: AbortSignal): Promise<Product[]> =>
    records(companyId, 'products').every({ sort: 'name' }, signal),
  /** What each B2B client owes now, from the order book (the unpaid report, docs/design.md §3), by client id. */
  balances: async (companyId: string, signal?: AbortSignal): Promise<Map<string, number>> => {
    const parties = await endpoints.unpaid(companyId, signal);
    return new Map(parties.filter((p) => p.party.type === 'b2bClient').map((p) => [p.party.id, p.balance]));
  },
};

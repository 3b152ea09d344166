import { MAX_PER_PAGE } from '@hornada/domain/constants';
import { SHOPPER_ROLE } from '@hornada/domain/roles';
import type { B2bClient } from '@hornada/domain/schemas/b2b';
import type { Product } from '@hornada/domain/schemas/catalogue';
import {
  IDEMPOTENCY_HEADER,
  ORDER_STATUSES,
  type OfferedDay,
  type Order,
  type OrderInput,
  type OrderStatus,
} from '@hornada/domain/schemas/orders';
import type { Settings } from '@hornada/domain/schemas/settings';
import type { User } from '@hornada/domain/schemas/users';
import type { z } from 'zod';
import { http, type Query } from '../../lib/api/http';
import { companyPath } from '../../lib/api/paths';

/**
 * What order entry reads and writes (docs/design.md §3–§5): the settings, the active catalogue with its B2B prices,
 * the active B2B clients, customers by search, the days offered, the orders that fill a slot or use a
 * client's credit, and the create itself.
 */

export type { B2bClient, OfferedDay, Order, Product, Settings, User };
export type OrderWrite = z.input<typeof OrderInput>;

/** Every status an order that still counts has (docs/design.md §5: "unpaid" and a slot's places exclude cancelled). */
export const LIVE_STATUSES: readonly OrderStatus[] = ORDER_STATUSES.filter((s) => s !== 'cancelled');

/** Every page of a list (a bakery's lists are small; the pages keep each answer within the API's limit). */
async function listAll<T>(companyId: string, resource: string, query: Query, signal?: AbortSignal): Promise<T[]> {
  const out: T[] = [];
  for (let page = 1; ; page++) {
    const res = await http.list<T>(companyPath(companyId, resource), {
      query: { ...query, per_page: MAX_PER_PAGE, page },
      signal,
    });
    out.push(...res.items);
    if (res.items.length < MAX_PER_PAGE || out.length >= res.total) return out;
  }
}

export const orderEntryApi = {
  settings: (companyId: string, signal?: AbortSignal) =>
    http.get<Settings>(companyPath(companyId, 'settings'), { signal }),
  products: (companyId: string, signal?: AbortSignal) =>
    listAll<Product>(companyId, 'products', { active: true, sort: 'name' }, signal),
  b2bClients: (companyId: string, signal?: AbortSignal) =>
    listAll<B2bClient>(companyId, 'b2bClients', { active: true, sort: 'businessName' }, signal),
  /** Customers whose name, e-mail or phone match (staff read customers only, docs/design.md §4). */
  customers: async (companyId: string, search: string, signal?: AbortSignal) =>
    (
      await http.list<User>(companyPath(companyId, 'users'), {
        query: { role: SHOPPER_ROLE, disabled: false, search, sort: 'name', per_page: 8 },
        signal,
      })
    ).items,
  deliveryDays: (companyId: string, days: number, signal?: AbortSignal) =>
    http.get<OfferedDay[]>(companyPath(companyId, 'delivery-days'), { query: { days }, signal }),
  /** The orders due from `from` to `to` that take a place in their window (not cancelled). */
  ordersDue: (companyId: string, from: string, to: string, signal?: AbortSignal) =>
    listAll<Pick<Order, 'dueDate' | 'window'>>(
      companyId,
      'orders',
      { date_field: 'dueDate', start_date: from, end_date: to, status: LIVE_STATUSES, sort: 'dueDate' },
      signal,
    ),
  /** A B2B client's credit orders not yet paid (docs/design.md §5: not cancelled, not paid). */
  unpaidCredit: (companyId: string, b2bClientId: string, signal?: AbortSignal) =>
    listAll<Pick<Order, 'id' | 'total' | 'status' | 'paymentStatus'>>(
      companyId,
      'orders',
      {
        b2bClientId,
        paymentMethod: 'credit',
        paymentStatus: ['unpaid', 'pending', 'failed'],
        status: LIVE_STATUSES,
        sort: 'createdAt',
      },
      signal,
    ),
  /** The create, under the submit's Idempotency-Key (submit-keys.ts): a retry makes no second order. */
  create: (companyId: string, body: OrderWrite, key: string) =>
    http.post<Order>(companyPath(companyId, 'orders'), body, { headers: { [IDEMPOTENCY_HEADER]: key } }),
};

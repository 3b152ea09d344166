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
import { endpoints } from '../../lib/api/endpoints';
import { records } from '../../lib/api/endpoints';

/**
 * What order entry reads and writes (docs/design.md §3–§5): the settings, the active catalogue with its B2B prices,
 * the active B2B clients, customers by search, the days offered, the orders that fill a slot or use a
 * client's credit, and the create itself.
 */

export type { B2bClient, OfferedDay, Order, Product, Settings, User };
export type OrderWrite = z.input<typeof OrderInput>;

/** Every status an order that still counts has (docs/design.md §5: "unpaid" and a slot's places exclude cancelled). */
export const LIVE_STATUSES: readonly OrderStatus[] = ORDER_STATUSES.filter((s) => s !== 'cancelled');

export const orderEntryApi = {
  settings: endpoints.settings,
  products: (companyId: string, signal?: AbortSignal) =>
    records(companyId, 'products').every({ active: true, sort: 'name' }, signal),
  b2bClients: (companyId: string, signal?: AbortSignal) =>
    records(companyId, 'b2bClients').every({ active: true, sort: 'businessName' }, signal),
  /** Customers whose name, e-mail or phone match (staff read customers only, docs/design.md §4). */
  customers: async (companyId: string, search: string, signal?: AbortSignal) =>
    (
      await records(companyId, 'users').list({
        query: { role: SHOPPER_ROLE, disabled: false, search, sort: 'name', per_page: 8 },
        signal,
      })
    ).items,
  deliveryDays: (companyId: string, days: number, signal?: AbortSignal) =>
    endpoints.deliveryDays(companyId, days, signal),
  /** The orders due from `from` to `to` that take a place in their window (not cancelled). */
  ordersDue: (
    companyId: string,
    from: string,
    to: string,
    signal?: AbortSignal,
  ): Promise<Pick<Order, 'dueDate' | 'window'>[]> =>
    records(companyId, 'orders').every(
      { date_field: 'dueDate', start_date: from, end_date: to, status: LIVE_STATUSES, sort: 'dueDate' },
      signal,
    ),
  /** A B2B client's credit orders not yet paid (docs/design.md §5: not cancelled, not paid). */
  unpaidCredit: (
    companyId: string,
    b2bClientId: string,
    signal?: AbortSignal,
  ): Promise<Pick<Order, 'id' | 'total' | 'status' | 'paymentStatus'>[]> =>
    records(companyId, 'orders').every(
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
    records(companyId, 'orders').create(body, { headers: { [IDEMPOTENCY_HEADER]: key } }),
};

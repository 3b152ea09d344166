import { StandingOrder, StandingOrderInput, toPatchSchema } from '@hornada/domain';
import { b2bClients, products, standingOrders } from '../../db/schema';
import type { ResourceDefinition } from '../definition';
import { BASE_DATES } from './common';

/**
 * B2B clients' standing orders (docs/design.md §3). The orders they make are the standing-orders module's
 * (modules/standing-orders); a change to the template reaches only the days not made yet.
 */
export const standingOrdersResource: ResourceDefinition = {
  name: 'standingOrders',
  label: 'Standing order',
  table: standingOrders,
  input: StandingOrderInput,
  patch: toPatchSchema(StandingOrderInput),
  record: StandingOrder,
  searchFields: ['notes'],
  sortFields: ['createdAt', 'updatedAt', 'startsOn'],
  filterFields: ['b2bClientId', 'active', 'fulfillment'],
  dateFields: BASE_DATES,
  references: [
    { path: 'b2bClientId', table: b2bClients, label: 'B2B client' },
    { path: 'items.*.productId', table: products, label: 'product' },
  ],
};

import { eq } from 'drizzle-orm';
import { Order, ORDER_DERIVED, OrderInput, toPatchSchema } from '@hornada/domain';
import { b2bClients, orders, users } from '../../db/schema';
import type { ResourceDefinition } from '../definition';

/**
 * Orders (docs/design.md §5). Who reads and writes is the permission table's `orders` entry; a driver reaches
 * the orders assigned to it, a customer its own. Pricing, numbers, days and the status machine are
 * the orders module's before-write rules (modules/orders), set on this resource's service at start-up:
 * every write, from the API, checkout or the seed, goes through the one door.
 */
export const ordersResource: ResourceDefinition = {
  name: 'orders',
  label: 'Order',
  table: orders,
  input: OrderInput,
  patch: toPatchSchema(OrderInput),
  record: Order,
  searchFields: ['contactName', 'contactPhone', 'numberText'],
  // A standing order's or a module's order is title-cased as the API's are (docs/product.md §1).
  personNames: ['contact.name'],
  searchDigits: ['contactPhone', 'numberText'],
  searchNumber: 'numberText',
  sortFields: ['createdAt', 'updatedAt', 'number', 'dueDate', 'total', 'status', 'routePosition'],
  filterFields: [
    'status',
    'paymentStatus',
    'paymentMethod',
    'channel',
    'fulfillment',
    'window',
    'customerId',
    'b2bClientId',
    'standingOrderId',
    'deliveryAssistantId',
    'number',
  ],
  dateFields: ['createdAt', 'updatedAt', 'dueDate', 'preparationDate', 'completedAt'],
  rows: {
    own: {
      where: (caller, t) => eq((t as typeof orders).customerId, caller.uid),
      test: (caller, doc) => doc.customerId === caller.uid,
    },
    assigned: {
      where: (caller, t) => eq((t as typeof orders).deliveryAssistantId, caller.uid),
      test: (caller, doc) => doc.deliveryAssistantId === caller.uid,
    },
  },
  // The lines' products are the order rules' to check (order-rules.ts reads them to price the lines,
  // and tells a product unknown here, 400, from one no longer sold, 422): checking them here too
  // cost every order a round trip.
  references: [
    { path: 'b2bClientId', table: b2bClients, label: 'B2B client' },
    { path: 'customerId', table: users, label: 'customer' },
    { path: 'deliveryAssistantId', table: users, label: 'delivery assistant' },
  ],
  // The Idempotency-Key of a web order and its request's hash stay on the server, and so do the
  // hashes of who placed it and from where, and its phone key (the bounds on unpaid orders).
  hidden: [
    'idempotencyKey',
    'requestHash',
    'contactName',
    'contactPhone',
    'numberText',
    'holderKey',
    'originKey',
    'phoneKey',
    // The day a standing order made it for: the once-a-day key (modules/standing-orders).
    'standingDay',
  ],
  derived: [...ORDER_DERIVED],
};

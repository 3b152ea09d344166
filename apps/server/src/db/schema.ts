/**
 * Tables of docs/design.md §4, by area (schema/): column names are snake_case in SQL (drizzle `casing`), camelCase
 * here. Every record table carries id, companyId, createdAt, updatedAt, deletedAt (`base`). drizzle-kit reads this
 * file (drizzle.config.ts).
 */
export { companies, settings, users } from './schema/tenants';
export { productCollections, brands, products, ingredients, recipes, b2bClients, files } from './schema/catalogue';
export { carts, orders, standingOrders, orderCounters } from './schema/orders';
export { paymentAttempts, paymentEvents, paymentTransactions, paymentSandboxTransactions } from './schema/payments';
export {
  changeLog,
  refreshTokens,
  authAttempts,
  outbox,
  actionTokens,
  userIdentities,
  idempotencyKeys,
  rateWindows,
  liveStreams,
} from './schema/platform';

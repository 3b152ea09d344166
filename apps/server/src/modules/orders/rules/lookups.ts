// What the order rules read besides the order: the catalogue rows of its lines, its B2B client, the people it
// names and their names as they are now. Each read is the company's only.
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { rolesWith, type B2bTerms, type HistoryEntry, type PricedProduct } from '@hornada/domain';
import type { DbOrTx } from '../../../db';
import { b2bClients, products, users } from '../../../db/schema';
import { AppError, DetailList, validationError } from '../../../lib/errors';
import { rule } from './problems';

/** A product as an order line is priced from it. */
export interface CatalogueRow {
  id: string;
  name: string;
  price: number;
  b2bPrice: number | null;
  active: boolean;
  deleted: boolean;
}

type Lines = readonly { productId: string }[];

async function catalogueOf(db: DbOrTx, companyId: string, ids: string[]): Promise<CatalogueRow[]> {
  const rows = await db
    .select({
      id: products.id,
      name: products.name,
      price: products.price,
      b2bPrice: products.b2bPrice,
      active: products.active,
      deletedAt: products.deletedAt,
    })
    .from(products)
    .where(and(eq(products.companyId, companyId), inArray(products.id, ids)));
  return rows.map(({ deletedAt, ...r }) => ({ ...r, deleted: deletedAt !== null }));
}

/** The catalogue rows of the lines: unknown ids are a 400, inactive or deleted products a 422. */
export async function productsOf(db: DbOrTx, companyId: string, items: Lines, known = new Set<string>()) {
  const ids = [...new Set(items.map((i) => i.productId))];
  return checkedProducts(await catalogueOf(db, companyId, ids), items, known);
}

/** The rows by id, once every line names a product of the bakery that is on sale (or `known`: already ordered). */
export function checkedProducts(
  rows: readonly CatalogueRow[],
  items: Lines,
  known = new Set<string>(),
): Map<string, PricedProduct> {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const unknown = new DetailList();
  const unavailable = new DetailList();
  items.forEach((item, i) => {
    const p = byId.get(item.productId);
    const path = `items.${i}.productId`;
    if (!p) unknown.add(path, `No product with id ${item.productId} in this bakery`);
    else if ((!p.active || p.deleted) && !known.has(p.id)) unavailable.add(path, 'This product is not available');
  });
  if (unknown.total > 0) throw unknown.toError();
  if (unavailable.total > 0) {
    throw new AppError(
      422,
      'orders/product-unavailable',
      `A product is not available: ${unavailable.items.map((d) => d.path).join(', ')}`,
      unavailable.items,
    );
  }
  return byId;
}

/** The B2B client's terms, or null without one: unknown is a 400, inactive a 422. */
export async function clientOf(db: DbOrTx, companyId: string, id: string | null | undefined): Promise<B2bTerms | null> {
  if (!id) return null;
  const [c] = await db
    .select({ discountPercent: b2bClients.discountPercent, prices: b2bClients.prices, active: b2bClients.active })
    .from(b2bClients)
    .where(and(eq(b2bClients.id, id), eq(b2bClients.companyId, companyId), isNull(b2bClients.deletedAt)));
  if (!c) throw validationError([{ path: 'b2bClientId', message: 'No B2B client with this id in this company' }]);
  if (!c.active) throw rule('business_rule', 'This B2B client is not active', 'b2bClientId');
  return c;
}

/** A user referenced by the order must have the right role (the engine checked it exists). */
async function assertRole(db: DbOrTx, companyId: string, id: string, roles: readonly string[], path: string) {
  const [u] = await db
    .select({ role: users.role })
    .from(users)
    .where(and(eq(users.id, id), eq(users.companyId, companyId), isNull(users.deletedAt)));
  if (!u || !roles.includes(u.role)) {
    throw validationError([{ path, message: `Must be a user with role ${roles.join(' or ')}` }]);
  }
}

/** The order's customer: a user whose role has orders of their own. */
export const assertCustomer = (db: DbOrTx, companyId: string, id: string) =>
  assertRole(db, companyId, id, rolesWith('orders:own'), 'customerId');

/** The order's driver: a user whose role drives deliveries. */
export const assertDriver = (db: DbOrTx, companyId: string, id: string) =>
  assertRole(db, companyId, id, rolesWith('deliveries:drive'), 'deliveryAssistantId');

/**
 * The names of the people (or B2B clients) a change went from and to, as they are now: history keeps them,
 * so its line reads "Asignado a Carlos Pérez" after the person is renamed or gone.
 */
export async function namesOf(
  db: DbOrTx,
  table: typeof users | typeof b2bClients,
  companyId: string,
  from: string | null,
  to: string | null,
): Promise<HistoryEntry['names']> {
  const ids = [from, to].filter((id): id is string => typeof id === 'string' && id !== '');
  if (ids.length === 0) return undefined;
  const rows =
    table === users
      ? await db
          .select({ id: users.id, name: users.name })
          .from(users)
          .where(and(inArray(users.id, ids), eq(users.companyId, companyId)))
      : await db
          .select({ id: b2bClients.id, name: b2bClients.businessName })
          .from(b2bClients)
          .where(and(inArray(b2bClients.id, ids), eq(b2bClients.companyId, companyId)));
  const name = (id: string | null) => (id ? (rows.find((r) => r.id === id)?.name ?? null) : null);
  return { from: name(from), to: name(to) };
}
